// Notification threads: one row per user and issue. Lists use the (userId, status, updatedAt) and
// (userId, updatedAt) indexes, so a user's page is an index range however many rows the table holds.
import { type ContentReader, visibleNotificationsWhere } from './content-access-filters.ts';
import type { CommentRow, IssueRow, PullRequestRow } from './issue.repository.ts';
import type { DbClient, Prisma } from './prisma.ts';
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
export interface ThreadFilter {
  userId: number;
  reader: ContentReader;
  repoId?: number;
  statuses?: readonly number[];
  sources?: readonly number[];
  updatedFrom?: Date;
  updatedTo?: Date;
}

function threadWhere(filter: ThreadFilter): Prisma.NotificationWhereInput {
  const where: Prisma.NotificationWhereInput = {
    userId: filter.userId,
    AND: [visibleNotificationsWhere(filter.reader)],
  };
  if (filter.repoId !== undefined) where.repoId = filter.repoId;
  if (filter.statuses && filter.statuses.length > 0) where.status = { in: [...filter.statuses] };
  if (filter.sources && filter.sources.length > 0) where.source = { in: [...filter.sources] };
  if (filter.updatedFrom || filter.updatedTo) where.updatedAt = { gte: filter.updatedFrom, lte: filter.updatedTo };
  return where;
}

export class NotificationRepository {
  constructor(private readonly client: DbClient) {}

  list(filter: ThreadFilter, page?: { skip: number; limit: number }): Promise<NotificationRow[]> {
    return this.client.notification.findMany({
      where: threadWhere(filter),
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      ...(page ? { skip: page.skip, take: page.limit } : {}),
    });
  }

  count(filter: ThreadFilter): Promise<number> {
    return this.client.notification.count({ where: threadWhere(filter) });
  }

  /** The thread when `reader` may see it now. */
  findVisible(id: number, reader: ContentReader): Promise<NotificationRow | null> {
    return this.client.notification.findFirst({ where: { id, AND: [visibleNotificationsWhere(reader)] } });
  }

  /** Sets the status of the given threads (the caller's own); a status change counts as an update, as in Forgejo. */
  async setStatus(ids: readonly number[], status: number, at: Date): Promise<void> {
    if (ids.length > 0)
      await this.client.notification.updateMany({ where: { id: { in: [...ids] } }, data: { status, updatedAt: at } });
  }

  listForIssue(issueId: number): Promise<NotificationRow[]> {
    return this.client.notification.findMany({ where: { issueId } });
  }

  async createMany(rows: Prisma.NotificationCreateManyInput[]): Promise<void> {
    if (rows.length > 0) await this.client.notification.createMany({ data: rows });
  }

  /** A thread heard of the issue again: a read one turns unread and points at the new comment; each moves to the top. */
  async touch(row: NotificationRow, updatedBy: number, commentId: number, at: Date): Promise<void> {
    const reopen = row.status === 2;
    await this.client.notification.update({
      where: { id: row.id },
      data: { updatedBy, updatedAt: at, ...(reopen ? { status: 1, commentId } : {}) },
    });
  }
}
