// Notification threads: one row per user and issue. Lists use the (userId, status, updatedAt) and
// (userId, updatedAt) indexes, so a user's page is an index range however many rows the table holds.
import { NotificationStatus } from '../domain/notification.ts';
import { unitOfNotificationSource } from '../domain/access/content-visibility.ts';
import { type ContentReader, visibleNotificationsWhere } from './content-access-filters.ts';
import {
  type FewRepositories,
  forOneRead,
  MAX_COUNTED_GROUPS,
  loadedRepositories,
  visibleContent,
  visibleCount,
} from './visible-content.ts';
import type { CommentRow, IssueRow, PullRequestRow } from './issue.repository.ts';
import { type CountCache, keptCount } from './count-cache.ts';
import type { ContentHotQueries, ThreadColumns, ThreadGroup } from './hot-content-queries.ts';
import { readPage } from './page-window.ts';
import { type DbClient, type Prisma, PrismaSql } from './prisma.ts';
import { sqliteTimestamp } from './sqlite-values.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';
import type { RepoWithOwner } from './repository-details.ts';

export type NotificationRow = Prisma.NotificationModel;

/** A notification thread with what its record shows. */
export interface ThreadDetails {
  thread: NotificationRow;
  repo: RepoWithOwner;
  issue: IssueRow | null;
  pull: PullRequestRow | null;
  lastComment: CommentRow | null;
}

/** Which of a user's threads a list or a mark selects: only those `reader` sees now; absent fields do not narrow it. */
export interface ThreadFilter extends ThreadColumns {
  reader: ContentReader;
}

/** The filter's own columns, without visibility: what an index range of the user's threads can answer. */
function threadColumnsWhere(filter: ThreadFilter): Prisma.NotificationWhereInput {
  const where: Prisma.NotificationWhereInput = { userId: filter.userId };
  if (filter.repoId !== undefined) where.repoId = filter.repoId;
  if (filter.statuses && filter.statuses.length > 0) where.status = { in: [...filter.statuses] };
  if (filter.sources && filter.sources.length > 0) where.source = { in: [...filter.sources] };
  if (filter.updatedFrom || filter.updatedTo) where.updatedAt = { gte: filter.updatedFrom, lte: filter.updatedTo };
  return where;
}

function threadWhere(filter: ThreadFilter): Prisma.NotificationWhereInput {
  return { ...threadColumnsWhere(filter), AND: [visibleNotificationsWhere(filter.reader)] };
}

/** Where a thread's visibility is decided: its repository, at the unit of its source. */
const placeOfThread = (row: { repoId: number; source: number }) => ({
  repoId: row.repoId,
  unit: unitOfNotificationSource(row.source),
});

const THREAD_ORDER: Prisma.NotificationOrderByWithRelationInput[] = [{ updatedAt: 'desc' }, { id: 'desc' }];

/** Users whose threads one statement touches. */
const TOUCH_BATCH = 1000;

export class NotificationRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
    private readonly counts?: CountCache,
    /** Decides visibility in one to three repositories without Prisma; absent inside a transaction. */
    private readonly few?: FewRepositories,
    /** Prepared statements for a page of threads and their count; absent inside a transaction. */
    private readonly hot?: ContentHotQueries,
  ) {}

  /** Every selected thread, newest first. */
  async list(filter: ThreadFilter): Promise<NotificationRow[]> {
    const rows = await this.client.notification.findMany({ where: threadColumnsWhere(filter), orderBy: THREAD_ORDER });
    return visibleContent(this.client, filter.reader, rows, placeOfThread, this.few);
  }

  /**
   * One page of the selected threads, newest first, how many there are, and the repositories already read to decide
   * their visibility (so the page's details need not read them again).
   */
  async page(
    filter: ThreadFilter,
    page: { skip: number; limit: number },
  ): Promise<{ rows: NotificationRow[]; total: number; repos: Map<number, RepoWithOwner> }> {
    const where = threadWhere(filter);
    const few = this.few && forOneRead(this.few);
    const total = await this.count(filter, few);
    const columns = threadColumnsWhere(filter);
    const rows = await readPage(
      total,
      page.skip,
      page.limit,
      THREAD_ORDER,
      (orderBy, skip, take) => this.client.notification.findMany({ where, orderBy, skip, take }),
      async (orderBy, count) => {
        // readPage turns the order for a page nearer the end.
        const candidates = this.hot
          ? await this.hot.threads(filter, orderBy[0].updatedAt === 'asc', count)
          : await this.client.notification.findMany({ where: columns, orderBy, take: count });
        const kept = await visibleContent(this.client, filter.reader, candidates, placeOfThread, few);
        return { scanned: candidates.length, kept };
      },
    );
    return { rows, total, repos: await loadedRepositories(few) };
  }

  /** How many threads the filter selects: counted per repository and source, then summed over the visible ones. */
  count(filter: ThreadFilter, few = this.few): Promise<number> {
    const where = threadWhere(filter);
    return keptCount(this.client, this.counts, `notification ${JSON.stringify(where)}`, async () => {
      const groups = await this.countedGroups(filter);
      const visible = await visibleCount(
        this.client,
        filter.reader,
        groups,
        placeOfThread,
        (group) => group.count,
        few,
      );
      return visible ?? this.client.notification.count({ where });
    });
  }

  /** The selected threads counted per repository and source (up to one group past MAX_COUNTED_GROUPS). */
  private async countedGroups(filter: ThreadFilter): Promise<ThreadGroup[]> {
    if (this.hot) return this.hot.threadGroups(filter, MAX_COUNTED_GROUPS + 1);
    const groups = await this.client.notification.groupBy({
      by: ['repoId', 'source'],
      where: threadColumnsWhere(filter),
      _count: { _all: true },
      orderBy: [{ repoId: 'asc' }, { source: 'asc' }],
      take: MAX_COUNTED_GROUPS + 1,
    });
    return groups.map((group) => ({ repoId: group.repoId, source: group.source, count: group._count._all }));
  }

  /** The thread when `reader` may see it now. */
  async findVisible(id: number, reader: ContentReader): Promise<NotificationRow | null> {
    const row = await this.client.notification.findUnique({ where: { id } });
    return row ? ((await visibleContent(this.client, reader, [row], placeOfThread, this.few))[0] ?? null) : null;
  }

  /** Sets the status of the given threads (the caller's own); a status change counts as an update, as in Forgejo. */
  async setStatus(ids: readonly number[], status: number, at: Date): Promise<void> {
    if (ids.length > 0)
      await this.client.notification.updateMany({ where: { id: { in: [...ids] } }, data: { status, updatedAt: at } });
  }

  async createMany(rows: Prisma.NotificationCreateManyInput[]): Promise<void> {
    if (rows.length > 0) await this.client.notification.createMany({ data: rows });
  }

  /**
   * The issue's threads of these users heard of it again, in one statement: a read one turns unread and points at the
   * new comment; each moves to the top. Answers the users who had a thread.
   */
  async touchThreads(
    issueId: number,
    userIds: readonly number[],
    updatedBy: number,
    commentId: number,
    at: Date,
  ): Promise<number[]> {
    const { read, unread } = NotificationStatus;
    const updatedAt = this.provider === 'sqlite' ? sqliteTimestamp(at) : at;
    const touched: number[] = [];
    // In batches: a statement's parameters are bounded (SQLite: 32,766), a repository's watchers are not.
    for (let from = 0; from < userIds.length; from += TOUCH_BATCH) {
      const rows = await this.client.$queryRaw<Array<{ userId: number }>>`
        UPDATE "Notification" SET "updatedBy" = ${updatedBy}, "updatedAt" = ${updatedAt},
          "commentId" = CASE WHEN "status" = ${read} THEN ${commentId} ELSE "commentId" END,
          "status" = CASE WHEN "status" = ${read} THEN ${unread} ELSE "status" END
        WHERE "issueId" = ${issueId} AND "userId" IN (${PrismaSql.join(userIds.slice(from, from + TOUCH_BATCH))})
        RETURNING "userId"`;
      for (const row of rows) touched.push(Number(row.userId));
    }
    return touched;
  }
}
