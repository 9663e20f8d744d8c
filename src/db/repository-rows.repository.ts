// The Repository rows with their units, redirects and counters. Deleting repositories removes every row that
// names them and fixes the counters that counted them, inside the caller's transaction: one function for
// deleting one repository and for purging an owner's all. The directories are the caller's business.
import { translated } from '../infra/database/errors.ts';
import type { Viewer } from '../domain/access/owner-visibility.ts';
import { readableRepositoriesWhere } from './access-filters.ts';
import type { RepositoryChangesRow } from './entities.ts';
import { type CountCache, keptCount } from './count-cache.ts';
import { readPage } from './page-window.ts';
import type { DbClient, Prisma, User } from './prisma.ts';
import {
  type RepoSearchFilter,
  type RepoSearchOrder,
  repoSearchOrderBy,
  repoSearchWhere,
} from './repository-search.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';
import type { RepositoryHotQueries } from './hot-repository-queries.ts';
import type { RepoWithOwner } from './repository-details.ts';

/** Which repositories a maintenance pass walks: every one unless narrowed. */
export interface MaintenanceBatchFilter {
  /** Only non-empty repositories. */
  nonEmptyOnly?: boolean;
  /** Only pull mirrors whose next update is due at this time. */
  mirrorsDueAt?: Date;
}

/** The relations every repository answer needs. */
export const repoInclude = { owner: true, units: true } as const;

export interface NewRepositoryRow {
  ownerId: number;
  ownerName: string;
  name: string;
  lowerName: string;
  description: string;
  website: string;
  originalUrl: string;
  isPrivate: boolean;
  isTemplate: boolean;
  isMirror: boolean;
  isFork?: boolean;
  forkId?: number;
  defaultBranch: string;
  settings: string;
  numWatches: number;
  /** What the git directory, made before the row, holds. */
  size: bigint;
  gitSize: bigint;
  isEmpty: boolean;
}

type Tx = DbClient;

/** Occurrences of each id, grouped by count: decrementing by the count needs one update per distinct count. */
function idsByCount(ids: readonly number[]): Map<number, number[]> {
  const counts = new Map<number, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const groups = new Map<number, number[]>();
  for (const [id, count] of counts) groups.set(count, [...(groups.get(count) ?? []), id]);
  return groups;
}

/** Deletes the repositories that still exist; the number deleted. */
async function deleteRepositoryRows(tx: Tx, repoIds: readonly number[]): Promise<number> {
  if (repoIds.length === 0) return 0;
  // Touching the rows first locks them, so of concurrent deletes of one repository only the first finds it and
  // the others count nothing twice.
  await tx.repository.updateMany({ where: { id: { in: [...repoIds] } }, data: { updatedAt: new Date() } });
  const repos = await tx.repository.findMany({
    where: { id: { in: [...repoIds] } },
    select: { id: true, ownerId: true },
  });
  if (repos.length === 0) return 0;
  const ids = repos.map((repo) => repo.id);
  const byRepo = { repoId: { in: ids } };
  const [teamRepos, stars, issues] = await Promise.all([
    tx.teamRepo.findMany({ where: byRepo, select: { teamId: true } }),
    tx.star.findMany({ where: byRepo, select: { userId: true } }),
    tx.issue.findMany({ where: byRepo, select: { id: true } }),
  ]);
  const counters: Promise<unknown>[] = [];
  for (const [count, teamIds] of idsByCount(teamRepos.map((link) => link.teamId))) {
    counters.push(tx.team.updateMany({ where: { id: { in: teamIds } }, data: { numRepos: { decrement: count } } }));
  }
  for (const [count, userIds] of idsByCount(stars.map((star) => star.userId))) {
    counters.push(tx.user.updateMany({ where: { id: { in: userIds } }, data: { numStars: { decrement: count } } }));
  }
  for (const [count, ownerIds] of idsByCount(repos.map((repo) => repo.ownerId))) {
    counters.push(tx.user.updateMany({ where: { id: { in: ownerIds } }, data: { numRepos: { decrement: count } } }));
  }
  await Promise.all(counters);
  await Promise.all([
    tx.issueWatch.deleteMany({ where: { issueId: { in: issues.map((issue) => issue.id) } } }),
    tx.issueMention.deleteMany({ where: { issueId: { in: issues.map((issue) => issue.id) } } }),
    tx.review.deleteMany({ where: { issueId: { in: issues.map((issue) => issue.id) } } }),
    tx.pullRequest.deleteMany({ where: { baseRepoId: { in: ids } } }),
    tx.star.deleteMany({ where: byRepo }),
    tx.watch.deleteMany({ where: byRepo }),
    tx.notification.deleteMany({ where: byRepo }),
    tx.action.deleteMany({ where: byRepo }),
    tx.webhook.deleteMany({ where: byRepo }),
    tx.label.deleteMany({ where: byRepo }),
    tx.milestone.deleteMany({ where: byRepo }),
    tx.release.deleteMany({ where: byRepo }),
    tx.attachment.deleteMany({ where: byRepo }),
    tx.commitStatus.deleteMany({ where: byRepo }),
    tx.protectedBranch.deleteMany({ where: byRepo }),
    tx.secret.deleteMany({ where: byRepo }),
    tx.actionVariable.deleteMany({ where: byRepo }),
    tx.actionArtifact.deleteMany({ where: byRepo }),
    tx.actionRunnerToken.deleteMany({ where: byRepo }),
    tx.repoRedirect.deleteMany({ where: { redirectRepoId: { in: ids } } }),
    // Packages outlive the repository they were linked to, as in Forgejo.
    tx.package.updateMany({ where: byRepo, data: { repoId: 0 } }),
  ]);
  // Issues, units, collaborations, team links, mirrors, deploy keys and tag protections cascade with the repository.
  await tx.repository.deleteMany({ where: { id: { in: ids } } });
  // A deploy key no other repository grants goes with it (Forgejo: DeleteRepository removes its deploy keys).
  await tx.publicKey.deleteMany({ where: { ownerId: null, deployKeys: { none: {} } } });
  return ids.length;
}

export class RepositoryRowsRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
    private readonly counts?: CountCache,
    /** Prepared statements for the lookups every request makes; absent inside a transaction. */
    private readonly hot?: RepositoryHotQueries,
  ) {}

  findByOwnerAndName(ownerLowerName: string, lowerName: string): Promise<RepoWithOwner | null> {
    if (this.hot) return this.hot.repositoryByOwnerAndName(ownerLowerName, lowerName);
    return this.client.repository.findFirst({
      where: { lowerName, owner: { lowerName: ownerLowerName } },
      include: repoInclude,
    });
  }

  /** The owner the caller already holds is the repository's owner: not read again. */
  findInOwner(owner: User, lowerName: string): Promise<RepoWithOwner | null> {
    if (this.hot) return this.hot.repositoryInOwner(owner.id, lowerName, owner);
    return this.client.repository.findUnique({
      where: { ownerId_lowerName: { ownerId: owner.id, lowerName } },
      include: repoInclude,
    });
  }

  findById(id: number): Promise<RepoWithOwner | null> {
    if (this.hot) return this.hot.repositoryById(id);
    return this.client.repository.findUnique({ where: { id }, include: repoInclude });
  }

  getById(id: number) {
    return this.client.repository.findUniqueOrThrow({ where: { id }, include: repoInclude });
  }

  /** What the rows of these repositories say of their disk, and where it is. */
  listDiskFacts(ids: number[]) {
    return this.client.repository.findMany({
      where: { id: { in: ids } },
      select: { id: true, ownerName: true, name: true, isEmpty: true, gitSize: true },
      orderBy: { id: 'asc' },
    });
  }

  findRowById(id: number) {
    return this.client.repository.findUnique({ where: { id } });
  }

  findWithMirror(id: number) {
    return this.client.repository.findUnique({ where: { id }, include: { mirror: true } });
  }

  findIdByOwner(ownerId: number, lowerName: string) {
    return this.client.repository.findUnique({
      where: { ownerId_lowerName: { ownerId, lowerName } },
      select: { id: true },
    });
  }

  findFullName(id: number) {
    return this.client.repository.findUnique({ where: { id }, select: { ownerName: true, name: true } });
  }

  countMatching(filter: RepoSearchFilter): Promise<number> {
    const where = repoSearchWhere(filter, this.provider);
    return keptCount(this.client, this.counts, `repository ${JSON.stringify(where)}`, () =>
      this.client.repository.count({ where }),
    );
  }

  listMatching(filter: RepoSearchFilter, order: RepoSearchOrder, skip: number, take: number) {
    const where = repoSearchWhere(filter, this.provider);
    const orderBy = repoSearchOrderBy(order);
    return this.client.repository.findMany({ where, include: repoInclude, orderBy, skip, take });
  }

  /** One page of the matching repositories and how many match; the page is read from the nearer end. */
  async pageMatching(filter: RepoSearchFilter, order: RepoSearchOrder, skip: number, take: number) {
    const where = repoSearchWhere(filter, this.provider);
    const total = await this.countMatching(filter);
    const repos = await readPage(total, skip, take, repoSearchOrderBy(order), (orderBy, pageSkip, pageTake) =>
      this.client.repository.findMany({ where, include: repoInclude, orderBy, skip: pageSkip, take: pageTake }),
    );
    return { repos, total };
  }

  /** A batch of repositories after the given id, in id order, with what maintenance tasks need. */
  listBatchAfter(filter: MaintenanceBatchFilter, afterId: number, take: number) {
    const where: Prisma.RepositoryWhereInput = { id: { gt: afterId } };
    if (filter.nonEmptyOnly) where.isEmpty = false;
    // A mirror interval of 0 means manual sync only.
    if (filter.mirrorsDueAt) {
      const due = { nextUpdateAt: { lte: filter.mirrorsDueAt }, intervalSecs: { gt: 0 } };
      where.AND = { isMirror: true, mirror: { is: due } };
    }
    return this.client.repository.findMany({
      where,
      select: { id: true, ownerName: true, name: true, defaultBranch: true },
      orderBy: { id: 'asc' },
      take,
    });
  }

  listNamesByOwners(ownerIds: number[]) {
    return this.client.repository.findMany({
      where: { ownerId: { in: ownerIds } },
      select: { ownerId: true, lowerName: true },
    });
  }

  listOwnersByLowerNames(lowerNames: string[]) {
    return this.client.user.findMany({
      where: { lowerName: { in: lowerNames } },
      select: { id: true, lowerName: true },
    });
  }

  async listStarredIds(userId: number): Promise<number[]> {
    const stars = await this.client.star.findMany({ where: { userId }, select: { repoId: true } });
    return stars.map((star) => star.repoId);
  }

  async countReleases(repoIds: readonly number[]): Promise<Map<number, number>> {
    if (this.hot && repoIds.length === 1) return new Map([[repoIds[0], await this.hot.releaseCount(repoIds[0])]]);
    const counts = await this.client.release.groupBy({
      by: ['repoId'],
      where: { repoId: { in: [...repoIds] } },
      _count: { _all: true },
    });
    return new Map(counts.map((count) => [count.repoId, count._count._all]));
  }

  /** The row with the given units, and its mirror when there is one. */
  createWithUnits(
    row: NewRepositoryRow,
    units: ReadonlyArray<{ type: number; config: string }>,
    mirror?: { intervalSecs: number; remoteAddress: string; nextUpdateAt: Date },
  ) {
    return translated({ taken: 'repository name', refersTo: 'owner' }, () =>
      this.client.repository.create({
        data: { ...row, units: { create: [...units] }, ...(mirror ? { mirror: { create: mirror } } : {}) },
      }),
    );
  }

  changeForkCount(id: number, delta: number) {
    return this.client.repository.update({ where: { id }, data: { numForks: { increment: delta } } });
  }

  /** Forks of a repository the viewer can read, oldest first. */
  async listForks(forkId: number, viewer: Viewer | null, publicOnly: boolean, skip: number, take: number) {
    const where = { AND: [{ forkId, isFork: true }, readableRepositoriesWhere(viewer, publicOnly)] };
    const [items, total] = await Promise.all([
      this.client.repository.findMany({ where, include: repoInclude, orderBy: { id: 'asc' }, skip, take }),
      this.client.repository.count({ where }),
    ]);
    return { items, total };
  }

  /** The owner's fork of a repository, if any. */
  findForkOf(forkId: number, ownerId: number) {
    return this.client.repository.findFirst({ where: { forkId, ownerId, isFork: true }, select: { id: true } });
  }

  incrementOwnerRepoCount(ownerId: number) {
    return this.client.user.update({ where: { id: ownerId }, data: { numRepos: { increment: 1 } } });
  }

  update(id: number, data: RepositoryChangesRow) {
    return translated({ taken: 'repository name', gone: 'repository' }, () =>
      this.client.repository.update({ where: { id }, data }),
    );
  }

  updateWithDetails(id: number, data: RepositoryChangesRow) {
    return translated({ gone: 'repository' }, () =>
      this.client.repository.update({ where: { id }, data, include: repoInclude }),
    );
  }

  setOwnerName(ownerId: number, ownerName: string) {
    return this.client.repository.updateMany({ where: { ownerId }, data: { ownerName } });
  }

  changeWatchCount(id: number, delta: 1 | -1) {
    return this.client.repository.update({
      where: { id },
      data: { numWatches: delta > 0 ? { increment: 1 } : { decrement: 1 } },
    });
  }

  removeUnits(repoId: number, types: number[]) {
    return this.client.repoUnit.deleteMany({ where: { repoId, type: { in: types } } });
  }

  saveUnit(repoId: number, type: number, config: string) {
    return this.client.repoUnit.upsert({
      where: { repoId_type: { repoId, type } },
      create: { repoId, type, config },
      update: { config },
    });
  }

  findRedirect(ownerId: number, lowerName: string) {
    return this.client.repoRedirect.findUnique({ where: { ownerId_lowerName: { ownerId, lowerName } } });
  }

  removeRedirect(ownerId: number, lowerName: string) {
    return this.client.repoRedirect.deleteMany({ where: { ownerId, lowerName } });
  }

  saveRedirect(ownerId: number, lowerName: string, redirectRepoId: number) {
    return this.client.repoRedirect.upsert({
      where: { ownerId_lowerName: { ownerId, lowerName } },
      create: { ownerId, lowerName, redirectRepoId },
      update: { redirectRepoId },
    });
  }

  /** Call it inside a transaction: it deletes from many tables. The number deleted: those not deleted meanwhile. */
  deleteWithRelatedRows(repoIds: readonly number[]): Promise<number> {
    return deleteRepositoryRows(this.client, repoIds);
  }
}
