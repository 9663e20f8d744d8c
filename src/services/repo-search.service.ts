// GET /repos/search and GET /orgs/{org}/repos (Forgejo: models/repo/repo_list.go SearchRepositoryCondition).
// Visibility comes from the permission module's readableWhere(), so X-Total-Count never counts hidden rows.
import type { Prisma, User } from '../db/prisma.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { Visibility } from '../domain/access/modes.ts';
import { ORG_TYPE } from '../domain/access/owner-visibility.ts';
import { ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoPermissionService, RepoWithOwner } from './repo-permission.service.ts';

export interface RepoSearchQuery {
  q?: string;
  topic?: boolean;
  includeDesc?: boolean;
  uid?: number;
  priority_owner_id?: number;
  team_id?: number;
  starredBy?: number;
  private?: boolean;
  is_private?: boolean;
  template?: boolean;
  archived?: boolean;
  mode?: string;
  exclusive?: boolean;
  sort?: string;
  order?: string;
}

type Order = Prisma.RepositoryOrderByWithRelationInput;
const SORTS: Record<string, (dir: 'asc' | 'desc') => Order[]> = {
  alpha: (dir) => [{ ownerName: dir }, { lowerName: dir }],
  created: (dir) => [{ createdAt: dir }],
  updated: (dir) => [{ updatedAt: dir }],
  size: (dir) => [{ size: dir }],
  git_size: (dir) => [{ gitSize: dir }],
  lfs_size: (dir) => [{ lfsSize: dir }],
  id: (dir) => [{ id: dir }],
  stars: (dir) => [{ numStars: dir }],
  forks: (dir) => [{ numForks: dir }],
};

export interface RepoPage {
  repos: RepoWithOwner[];
  total: number;
}

export class RepoSearchService {
  private readonly repos: RepositoryRowsRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly permissions: RepoPermissionService,
  ) {
    this.repos = deps.repos.repositories;
  }

  async search(viewer: User | null, publicOnly: boolean, query: RepoSearchQuery, page: ListOptions): Promise<RepoPage> {
    const where = await this.searchWhere(viewer, publicOnly, query);
    const order = this.searchOrder(query);
    const priority = query.priority_owner_id && query.priority_owner_id > 0 ? query.priority_owner_id : 0;
    const total = await this.repos.countMatching(where);
    if (!priority) {
      const repos = await this.repos.listMatching(where, [...order, { id: 'asc' }], page.skip, page.limit);
      return { repos, total };
    }
    // priority_owner_id: that owner's repositories first, then the rest in the requested order.
    const first: Prisma.RepositoryWhereInput = { AND: [where, { ownerId: priority }] };
    const rest: Prisma.RepositoryWhereInput = { AND: [where, { ownerId: { not: priority } }] };
    const firstCount = await this.repos.countMatching(first);
    const repos: RepoWithOwner[] = [];
    if (page.skip < firstCount) {
      repos.push(...(await this.repos.listMatching(first, [...order, { id: 'asc' }], page.skip, page.limit)));
    }
    if (repos.length < page.limit) {
      const skip = Math.max(0, page.skip - firstCount);
      repos.push(...(await this.repos.listMatching(rest, [...order, { id: 'asc' }], skip, page.limit - repos.length)));
    }
    return { repos, total };
  }

  private searchOrder(query: RepoSearchQuery): Order[] {
    if (!query.sort) return [{ lowerName: 'asc' }];
    const order = query.order || 'asc';
    if (order !== 'asc' && order !== 'desc') throw new ValidationError(`Invalid sort order: "${order}"`);
    const sort = Object.hasOwn(SORTS, query.sort) ? SORTS[query.sort] : undefined;
    if (!sort) throw new ValidationError(`Invalid sort mode: "${query.sort}"`);
    return sort(order);
  }

  /** The filter of a search, built once: visibility, then each option of the contract. */
  async searchWhere(viewer: User | null, publicOnly: boolean, query: RepoSearchQuery): Promise<Prisma.RepositoryWhereInput> {
    const and: Prisma.RepositoryWhereInput[] = [];
    const uid = query.uid && query.uid > 0 ? query.uid : 0;
    // `private` (default true for signed-in callers) asks for the private repositories the caller can read.
    const withPrivate = viewer !== null && query.private !== false;
    if (withPrivate) {
      // A user looking at their own repositories needs no visibility filter (Forgejo skips it too).
      if (!(viewer.id === uid && !publicOnly)) and.push(this.permissions.readableWhere(viewer, publicOnly));
    } else {
      and.push({ isPrivate: false, owner: { visibility: Visibility.public } });
      // Restricted users see only what they were given explicitly, public or not.
      if (viewer?.isRestricted) and.push(this.permissions.readableWhere(viewer, publicOnly));
    }
    if (query.is_private !== undefined) and.push({ isPrivate: query.is_private });
    if (query.template !== undefined) and.push({ isTemplate: query.template });
    if (query.archived !== undefined) and.push({ isArchived: query.archived });
    if (query.starredBy && query.starredBy > 0) {
      and.push({ id: { in: await this.repos.listStarredIds(query.starredBy) } });
    }

    let collaborate: boolean | undefined = query.exclusive ? false : undefined;
    switch (query.mode ?? '') {
      case '':
        break;
      case 'source':
        and.push({ isFork: false, isMirror: false });
        break;
      case 'fork':
        and.push({ isFork: true });
        break;
      case 'mirror':
        and.push({ isMirror: true });
        break;
      case 'collaborative':
        and.push({ isMirror: false });
        collaborate = true;
        break;
      default:
        throw new ValidationError(`Invalid search mode: "${query.mode}"`);
    }
    if (uid) {
      const owned: Prisma.RepositoryWhereInput = { ownerId: uid };
      const collaborated: Prisma.RepositoryWhereInput = {
        ownerId: { not: uid },
        OR: [
          { collaborators: { some: { userId: uid } } },
          { teamRepos: { some: { team: { members: { some: { userId: uid } } } } } },
          { owner: { type: ORG_TYPE, teams: { some: { includesAllRepositories: true, members: { some: { userId: uid } } } } } },
        ],
      };
      if (collaborate === true) and.push(collaborated);
      else if (collaborate === false) and.push(owned);
      else and.push({ OR: [owned, collaborated] });
    }
    if (query.team_id && query.team_id > 0) {
      const teamId = query.team_id;
      and.push({ OR: [{ teamRepos: { some: { teamId } } }, { owner: { teams: { some: { id: teamId, includesAllRepositories: true } } } }] });
    }
    const keyword = (query.q ?? '').trim();
    if (keyword) and.push(this.keywordWhere(keyword, query));
    return { AND: and };
  }

  /** q is a comma-separated list; each item matches a name substring, a topic, `owner/name`, or the description. */
  private keywordWhere(keyword: string, query: RepoSearchQuery): Prisma.RepositoryWhereInput {
    const words = keyword.split(',').map((word) => word.trim().toLowerCase()).filter(Boolean);
    const or: Prisma.RepositoryWhereInput[] = [];
    for (const word of words) {
      // Topics are stored as a JSON array of lower-case strings.
      or.push(query.topic ? { topics: { contains: JSON.stringify(word) } } : { topics: { contains: word.replace(/"/g, '') } });
      if (query.topic) continue;
      or.push({ lowerName: { contains: word } });
      if (!query.team_id && word.split('/').length === 2) {
        const [owner, name] = word.split('/');
        or.push({ owner: { lowerName: { contains: owner } }, lowerName: { contains: name } });
      }
      if (query.includeDesc) or.push({ description: this.insensitiveContains(word) });
    }
    return { OR: or };
  }

  /** Case-insensitive substring match on a column that has no lower-cased copy. */
  private insensitiveContains(word: string): Prisma.StringFilter {
    // SQLite's LIKE is case-insensitive for ASCII; PostgreSQL needs the insensitive mode.
    return this.deps.db.provider === 'postgresql' ? ({ contains: word, mode: 'insensitive' } as Prisma.StringFilter) : { contains: word };
  }

  /** GET /orgs/{org}/repos: the org's repositories the caller can read, by id. */
  async listOrgRepos(viewer: User | null, publicOnly: boolean, org: User, page: ListOptions): Promise<RepoPage> {
    const where: Prisma.RepositoryWhereInput = { AND: [{ ownerId: org.id }, this.permissions.readableWhere(viewer, publicOnly)] };
    const [repos, total] = await Promise.all([this.repos.listMatching(where, [{ id: 'asc' }], page.skip, page.limit), this.repos.countMatching(where)]);
    return { repos, total };
  }
}
