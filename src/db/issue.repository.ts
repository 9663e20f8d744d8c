// Issues and pull-request issues of repositories, with their labels, assignees, mentions, watches, comments and the
// repository counters they keep exact. Every query is scoped by the issue or the repository it belongs to.
import { lockRepositoryRow } from './repository-row-lock.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';
import { unitOfIssue } from '../domain/access/content-visibility.ts';
import {
  FEW_REPOSITORIES,
  type FewRepositories,
  forOneRead,
  MAX_COUNTED_GROUPS,
  visibleContent,
  visibleCount,
} from './visible-content.ts';
import { type IssueSearchFilter, issueSearchColumnsWhere, issueSearchWhere } from './issue-search.ts';
import { type CountCache, keptCount } from './count-cache.ts';
import type { HotQueries } from './hot-queries.ts';
import { readPage } from './page-window.ts';
import type { DbClient, Prisma, Repository, User } from './prisma.ts';
import { repoInclude } from './repository-rows.repository.ts';
import type { RepoWithOwner } from './repository-details.ts';

export type IssueRow = Prisma.IssueModel;
export type CommentRow = Prisma.CommentModel;
export type LabelRow = Prisma.LabelModel;
export type MilestoneRow = Prisma.MilestoneModel;
export type PullRequestRow = Prisma.PullRequestModel;

/** An issue with what its record shows (converters shape it, services return it). */
export interface IssueDetails {
  issue: IssueRow;
  repo: Repository & { owner: User };
  /** Null when the poster's account is gone (shown as Forgejo's ghost). */
  poster: User | null;
  labels: LabelRow[];
  assignees: User[];
  milestone: MilestoneRow | null;
  pull: PullRequestRow | null;
}

/** Comment types (Forgejo: models/issues/comment.go). */
export const CommentType = { comment: 0, reopen: 1, close: 2 } as const;

const SEARCH_ORDER: Prisma.IssueOrderByWithRelationInput[] = [{ createdAt: 'desc' }, { id: 'desc' }];

export class IssueRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
    private readonly counts?: CountCache,
    /** Prepared statements for single repositories, a page's issues and an event's audience; absent in a transaction. */
    private readonly hot?: HotQueries,
    /** Decides visibility in one to three repositories without Prisma; absent inside a transaction. */
    private readonly few?: FewRepositories,
  ) {}

  /**
   * The number the repository's next issue or pull takes (call in the transaction that writes it: it holds the
   * repository until then).
   */
  async nextIndex(repoId: number): Promise<number> {
    await lockRepositoryRow(this.client, this.provider, repoId);
    const last = await this.client.issue.findFirst({
      where: { repoId },
      orderBy: { index: 'desc' },
      select: { index: true },
    });
    return (last?.index ?? 0) + 1;
  }

  create(data: Prisma.IssueUncheckedCreateInput): Promise<IssueRow> {
    return this.client.issue.create({ data });
  }

  update(id: number, data: Prisma.IssueUncheckedUpdateInput): Promise<IssueRow> {
    return this.client.issue.update({ where: { id }, data });
  }

  findByIndex(repoId: number, index: number): Promise<IssueRow | null> {
    if (this.hot) return this.hot.issueByIndex(repoId, index);
    return this.client.issue.findUnique({ where: { repoId_index: { repoId, index } } });
  }

  findById(id: number): Promise<IssueRow | null> {
    return this.client.issue.findUnique({ where: { id } });
  }

  listByIds(ids: readonly number[]): Promise<IssueRow[]> {
    if (this.hot) return this.hot.issuesByIds(ids);
    return this.client.issue.findMany({ where: { id: { in: [...ids] } } });
  }

  /** Repository counters: numIssues/numPulls count every issue, the closed ones numClosed*. */
  async countIn(repoId: number, isPull: boolean, delta: { all?: number; closed?: number }): Promise<void> {
    const data: Prisma.RepositoryUpdateInput = isPull
      ? { numPulls: { increment: delta.all ?? 0 }, numClosedPulls: { increment: delta.closed ?? 0 } }
      : { numIssues: { increment: delta.all ?? 0 }, numClosedIssues: { increment: delta.closed ?? 0 } };
    await this.client.repository.update({ where: { id: repoId }, data });
  }

  async countLabels(labelIds: readonly number[], delta: { all?: number; closed?: number }): Promise<void> {
    if (labelIds.length === 0) return;
    await this.client.label.updateMany({
      where: { id: { in: [...labelIds] } },
      data: { numIssues: { increment: delta.all ?? 0 }, numClosedIssues: { increment: delta.closed ?? 0 } },
    });
  }

  async countMilestone(milestoneId: number, delta: { all?: number; closed?: number }): Promise<void> {
    if (milestoneId <= 0) return;
    await this.client.milestone.update({
      where: { id: milestoneId },
      data: { numIssues: { increment: delta.all ?? 0 }, numClosedIssues: { increment: delta.closed ?? 0 } },
    });
  }

  // ---- labels, milestones, assignees, mentions ----

  /** Labels usable in a repository: its own, and its organization's. */
  listUsableLabels(repoId: number, orgId: number | null, ids: readonly number[]): Promise<LabelRow[]> {
    const owners: Prisma.LabelWhereInput[] = [{ repoId }];
    if (orgId !== null) owners.push({ orgId });
    return this.client.label.findMany({ where: { id: { in: [...ids] }, OR: owners } });
  }

  async addLabels(issueId: number, labelIds: readonly number[]): Promise<void> {
    if (labelIds.length > 0)
      await this.client.issueLabel.createMany({ data: labelIds.map((labelId) => ({ issueId, labelId })) });
  }

  findMilestone(repoId: number, id: number): Promise<MilestoneRow | null> {
    return this.client.milestone.findFirst({ where: { repoId, id } });
  }

  async addAssignees(issueId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length > 0)
      await this.client.issueAssignee.createMany({ data: userIds.map((assigneeId) => ({ issueId, assigneeId })) });
  }

  async replaceAssignees(issueId: number, userIds: readonly number[]): Promise<void> {
    await this.client.issueAssignee.deleteMany({ where: { issueId } });
    await this.addAssignees(issueId, userIds);
  }

  async addMentions(issueId: number, userIds: readonly number[]): Promise<void> {
    if (userIds.length === 0) return;
    const known = await this.client.issueMention.findMany({
      where: { issueId, userId: { in: [...userIds] } },
      select: { userId: true },
    });
    const have = new Set(known.map((m) => m.userId));
    const fresh = userIds.filter((id) => !have.has(id));
    if (fresh.length > 0)
      await this.client.issueMention.createMany({ data: fresh.map((userId) => ({ issueId, userId })) });
  }

  // ---- what an issue record shows ----

  async labelsOf(issueIds: readonly number[]): Promise<Map<number, LabelRow[]>> {
    const links = await this.client.issueLabel.findMany({
      where: { issueId: { in: [...issueIds] } },
      orderBy: { id: 'asc' },
    });
    const labels = await this.client.label.findMany({
      where: { id: { in: [...new Set(links.map((l) => l.labelId))] } },
    });
    const byId = new Map(labels.map((label) => [label.id, label]));
    const result = new Map<number, LabelRow[]>();
    for (const link of links) {
      const label = byId.get(link.labelId);
      if (label) result.set(link.issueId, [...(result.get(link.issueId) ?? []), label]);
    }
    return result;
  }

  async assigneesOf(issueIds: readonly number[]): Promise<Map<number, User[]>> {
    const links = await this.client.issueAssignee.findMany({
      where: { issueId: { in: [...issueIds] } },
      orderBy: { id: 'asc' },
    });
    const users = await this.client.user.findMany({
      where: { id: { in: [...new Set(links.map((l) => l.assigneeId))] } },
    });
    const byId = new Map(users.map((user) => [user.id, user]));
    const result = new Map<number, User[]>();
    for (const link of links) {
      const user = byId.get(link.assigneeId);
      if (user) result.set(link.issueId, [...(result.get(link.issueId) ?? []), user]);
    }
    return result;
  }

  listMilestones(ids: readonly number[]): Promise<MilestoneRow[]> {
    return ids.length ? this.client.milestone.findMany({ where: { id: { in: [...ids] } } }) : Promise.resolve([]);
  }

  listUsers(ids: readonly number[]): Promise<User[]> {
    if (this.hot) return this.hot.usersByIds(ids);
    return ids.length ? this.client.user.findMany({ where: { id: { in: [...ids] } } }) : Promise.resolve([]);
  }

  async listRepos(ids: readonly number[]): Promise<RepoWithOwner[]> {
    // A page of threads or issues mostly comes from one or two repositories: three prepared statements each beat
    // Prisma's three queries for them all.
    const { hot } = this;
    if (hot && ids.length <= FEW_REPOSITORIES) {
      const found = await Promise.all(ids.map((id) => hot.repositoryById(id)));
      return found.filter((repo): repo is RepoWithOwner => repo !== null);
    }
    return this.client.repository.findMany({ where: { id: { in: [...ids] } }, include: repoInclude });
  }

  listPulls(issueIds: readonly number[]): Promise<PullRequestRow[]> {
    if (issueIds.length === 0) return Promise.resolve([]);
    if (this.hot) return this.hot.pullsOfIssues(issueIds);
    return this.client.pullRequest.findMany({ where: { issueId: { in: [...issueIds] } } });
  }

  /** The issues of these ids with their pull requests and newest plain comments, as a page of threads shows them. */
  async records(
    issueIds: readonly number[],
  ): Promise<{ issues: IssueRow[]; pulls: PullRequestRow[]; lastComments: Map<number, CommentRow> }> {
    if (issueIds.length === 0) return { issues: [], pulls: [], lastComments: new Map() };
    if (!this.hot) {
      const [issues, pulls, lastComments] = await Promise.all([
        this.listByIds(issueIds),
        this.listPulls(issueIds),
        this.lastCommentsOf(issueIds),
      ]);
      return { issues, pulls, lastComments };
    }
    const rows = await this.hot.issueRecords(issueIds, CommentType.comment);
    return { ...rows, lastComments: new Map(rows.lastComments.map((comment) => [comment.issueId, comment])) };
  }

  /** The newest plain comment of each issue (Forgejo: GetLastComment). */
  async lastCommentsOf(issueIds: readonly number[]): Promise<Map<number, CommentRow>> {
    const result = new Map<number, CommentRow>();
    if (issueIds.length === 0) return result;
    if (this.hot) {
      for (const comment of await this.hot.lastCommentsOf(issueIds, CommentType.comment))
        result.set(comment.issueId, comment);
      return result;
    }
    const latest = await this.client.comment.groupBy({
      by: ['issueId'],
      where: { issueId: { in: [...issueIds] }, type: CommentType.comment },
      _max: { id: true },
    });
    const ids = latest.map((row) => row._max.id).filter((id): id is number => id !== null);
    for (const comment of await this.client.comment.findMany({ where: { id: { in: ids } } }))
      result.set(comment.issueId, comment);
    return result;
  }

  // ---- comments ----

  async addComment(issue: IssueRow, posterId: number, type: number, content: string): Promise<CommentRow> {
    const comment = await this.client.comment.create({ data: { issueId: issue.id, posterId, type, content } });
    await this.client.issue.update({
      where: { id: issue.id },
      data: {
        updatedAt: comment.createdAt,
        ...(type === CommentType.comment ? { numComments: { increment: 1 } } : {}),
      },
    });
    return comment;
  }

  // ---- assignees ----

  async assigneeIds(issueId: number): Promise<number[]> {
    const rows = await this.client.issueAssignee.findMany({ where: { issueId }, select: { assigneeId: true } });
    return rows.map((row) => row.assigneeId);
  }

  // ---- search ----

  /** One page of the matching issues, newest first, and how many match. */
  async search(filter: IssueSearchFilter, skip: number, take: number): Promise<{ items: IssueRow[]; total: number }> {
    const where = issueSearchWhere(filter);
    const columns = issueSearchColumnsWhere(filter);
    const few = this.few && forOneRead(this.few);
    // Counted per repository and kind, then summed over the visible ones.
    const total = await keptCount(this.client, this.counts, `issue ${JSON.stringify(where)}`, async () => {
      const groups = await this.client.issue.groupBy({
        by: ['repoId', 'isPull'],
        where: columns,
        _count: { _all: true },
        orderBy: [{ repoId: 'asc' }, { isPull: 'asc' }],
        take: MAX_COUNTED_GROUPS + 1,
      });
      const visible = await visibleCount(
        this.client,
        filter.reader,
        groups,
        (group) => ({ repoId: group.repoId, unit: unitOfIssue(group.isPull) }),
        (group) => group._count._all,
        few,
      );
      return visible ?? this.client.issue.count({ where });
    });
    const items = await readPage(
      total,
      skip,
      take,
      SEARCH_ORDER,
      (orderBy, pageSkip, pageTake) => this.client.issue.findMany({ where, orderBy, skip: pageSkip, take: pageTake }),
      async (orderBy, count) => {
        const candidates = await this.client.issue.findMany({ where: columns, orderBy, take: count });
        const kept = await visibleContent(
          this.client,
          filter.reader,
          candidates,
          (row) => ({ repoId: row.repoId, unit: unitOfIssue(row.isPull) }),
          few,
        );
        return { scanned: candidates.length, kept };
      },
    );
    return { items, total };
  }

  /** Of the given names, those some label has. */
  async knownLabelNames(names: readonly string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.client.label.findMany({
      where: { name: { in: [...names] } },
      select: { name: true },
      distinct: ['name'],
    });
    return rows.map((row) => row.name);
  }

  async mentionedIssueIds(userId: number): Promise<number[]> {
    const rows = await this.client.issueMention.findMany({ where: { userId }, select: { issueId: true } });
    return rows.map((row) => row.issueId);
  }

  async reviewedIssueIds(reviewerId: number, types: readonly number[]): Promise<number[]> {
    const rows = await this.client.review.findMany({
      where: { reviewerId, type: { in: [...types] } },
      select: { issueId: true },
      distinct: ['issueId'],
    });
    return rows.map((row) => row.issueId);
  }

  /** The team of an organization a search names (`team` with `owner`). */
  findTeamByName(orgId: number, lowerName: string) {
    return this.client.team.findUnique({ where: { orgId_lowerName: { orgId, lowerName } } });
  }

  /** Milestones of a repository named by name or by id. */
  async milestoneIdsInRepo(repoId: number, namesOrIds: readonly string[]): Promise<number[]> {
    const ids = namesOrIds.filter((v) => /^\d{1,9}$/.test(v)).map(Number);
    const rows = await this.client.milestone.findMany({
      where: { repoId, OR: [{ name: { in: [...namesOrIds] } }, { id: { in: ids } }] },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  async milestoneIdsByNames(names: readonly string[]): Promise<number[]> {
    const rows = await this.client.milestone.findMany({ where: { name: { in: [...names] } }, select: { id: true } });
    return rows.map((row) => row.id);
  }
}
