// The caller's notification threads (Forgejo: routers/api/v1/notify, models/activities/notification*.go). Every
// read shows only the threads the caller may see now (src/domain/access/content-visibility.ts): access lost after a
// thread was made (a team left, a repository made private, a public-only token) hides it.
import type { ContentReader } from '../db/content-access-filters.ts';
import type { NotificationRow, ThreadDetails, ThreadFilter } from '../db/notification.repository.ts';
import type { User } from '../db/entities.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { isSelfOrAdmin } from '../domain/access/account.ts';
import { NotificationStatus, sourcesOfWords, statusesOfWords, statusOfWord } from '../domain/notification.ts';
import { parseRfc3339 } from '../domain/rfc3339.ts';
import { timeBounds } from '../domain/time-bounds.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { BadRequestError, ForbiddenError, NotFoundError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

export type { ThreadDetails };

export interface ThreadQuery {
  all?: boolean;
  statusTypes?: string[];
  subjectTypes?: string[];
  since?: string;
  before?: string;
}

export interface MarkQuery {
  /** RFC 3339; threads updated after it stay as they are. A value that does not parse is a 400. */
  lastReadAt?: string;
  all?: boolean;
  statusTypes?: string[];
  toStatus?: string;
}

/** The signed-in caller and whether its token is limited to public repositories. */
export interface ThreadReader {
  user: User;
  publicOnly: boolean;
}

const contentReader = (reader: ThreadReader): ContentReader => ({ viewer: reader.user, publicOnly: reader.publicOnly });

export class NotificationService {
  constructor(private readonly deps: ServiceDeps) {}

  private get notifications() {
    return this.deps.repos.notifications;
  }

  /** A page of the user's threads, newest update first (default statuses: unread and pinned). */
  async list(
    reader: ThreadReader,
    query: ThreadQuery,
    page: ListOptions,
    repoId?: number,
  ): Promise<Page<ThreadDetails>> {
    const bounds = timeBounds(query.since, query.before);
    const filter: ThreadFilter = {
      userId: reader.user.id,
      reader: contentReader(reader),
      repoId,
      statuses: query.all ? undefined : statusesOfWords(query.statusTypes, ['unread', 'pinned']),
      sources: sourcesOfWords(query.subjectTypes),
      updatedFrom: bounds.from,
      updatedTo: bounds.to,
    };
    const { rows, total, repos } = await this.notifications.page(filter, page);
    return { items: await this.details(rows, repos), total };
  }

  async countUnread(reader: ThreadReader): Promise<number> {
    const statuses = [NotificationStatus.unread];
    return this.notifications.count({ userId: reader.user.id, reader: contentReader(reader), statuses });
  }

  /** A thread of the caller's, or of anyone's for a site admin; another user's is 403, a missing or hidden one 404. */
  async get(reader: ThreadReader, id: string): Promise<ThreadDetails> {
    return (await this.details([await this.visibleThread(reader, id)]))[0];
  }

  /** Moves one thread to `to-status` (default read); a site admin may move anyone's (Forgejo answers 500 there). */
  async mark(reader: ThreadReader, id: string, toStatus: string | undefined): Promise<ThreadDetails> {
    const thread = await this.visibleThread(reader, id);
    const status = statusOfWord(toStatus) || NotificationStatus.read;
    const at = new Date();
    await this.notifications.setStatus([thread.id], status, at);
    return (await this.details([{ ...thread, status, updatedAt: at }]))[0];
  }

  /** Moves the selected threads (default: unread ones) to `to-status` and answers them as changed. */
  async markMany(reader: ThreadReader, query: MarkQuery, repoId?: number): Promise<ThreadDetails[]> {
    const text = (query.lastReadAt ?? '').trim();
    if (text !== '' && !parseRfc3339(text)) {
      const layout = '2006-01-02T15:04:05Z07:00';
      throw new BadRequestError(`parsing time "${text}" as "${layout}": cannot parse "${text}" as "2006"`);
    }
    // Threads updated up to last_read_at's whole second, as `before` bounds a list.
    const lastRead = timeBounds(undefined, text).to;
    const filter: ThreadFilter = {
      userId: reader.user.id,
      reader: contentReader(reader),
      repoId,
      statuses: query.all ? undefined : statusesOfWords(query.statusTypes, ['unread']),
      updatedTo: lastRead,
    };
    const status = statusOfWord(query.toStatus) || NotificationStatus.read;
    const rows = await this.notifications.list(filter);
    const at = new Date();
    await this.notifications.setStatus(
      rows.map((row) => row.id),
      status,
      at,
    );
    return this.details(rows.map((row) => ({ ...row, status, updatedAt: at })));
  }

  private async visibleThread(reader: ThreadReader, id: string): Promise<NotificationRow> {
    const numeric = /^\d+$/.test(id) ? Number(id) : 0;
    const inRange = numeric > 0 && numeric <= 2 ** 31 - 1;
    const thread = inRange ? await this.notifications.findVisible(numeric, contentReader(reader)) : null;
    if (!thread) throw new NotFoundError(`notification does not exist [id: ${numeric}]`);
    const doer = reader.user;
    // Per thread, so not a guard's: the thread is loaded here.
    if (!isSelfOrAdmin(doer, thread.userId)) {
      throw new ForbiddenError(`only user itself and admin are allowed to read/change this thread ${thread.id}`);
    }
    return thread;
  }

  /** The threads with their records; `known` are repositories this request read already. */
  private async details(
    rows: readonly NotificationRow[],
    known: ReadonlyMap<number, RepoWithOwner> = new Map(),
  ): Promise<ThreadDetails[]> {
    if (rows.length === 0) return [];
    const { issues } = this.deps.repos;
    const issueIds = [...new Set(rows.map((row) => row.issueId).filter((id) => id > 0))];
    const missingRepoIds = [...new Set(rows.map((row) => row.repoId))].filter((id) => !known.has(id));
    const [repos, { issues: issueRows, pulls, lastComments }] = await Promise.all([
      missingRepoIds.length > 0 ? issues.listRepos(missingRepoIds) : [],
      issues.records(issueIds),
    ]);
    const repoById = new Map([...known, ...repos.map((repo) => [repo.id, repo] as const)]);
    const issueById = new Map(issueRows.map((issue) => [issue.id, issue]));
    const pullByIssue = new Map(pulls.map((pull) => [pull.issueId, pull]));
    return rows
      .filter((row) => repoById.has(row.repoId))
      .map((thread) => ({
        thread,
        repo: repoById.get(thread.repoId)!,
        issue: issueById.get(thread.issueId) ?? null,
        pull: pullByIssue.get(thread.issueId) ?? null,
        lastComment: lastComments.get(thread.issueId) ?? null,
      }));
  }
}
