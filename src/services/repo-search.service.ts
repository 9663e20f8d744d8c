// GET /repos/search and GET /orgs/{org}/repos (Forgejo: models/repo/repo_list.go SearchRepositoryCondition).
// Visibility is the readable-repositories filter of the query itself, so X-Total-Count never counts hidden rows.
import type { User } from '../db/entities.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { isRepoSortKey, type RepoSearchFilter, type RepoSearchOrder } from '../db/repository-search.ts';
import { ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';

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

export interface RepoPage {
  repos: RepoWithOwner[];
  total: number;
}

export class RepoSearchService {
  private readonly repos: RepositoryRowsRepository;

  constructor(deps: ServiceDeps) {
    this.repos = deps.repos.repositories;
  }

  async search(viewer: User | null, publicOnly: boolean, query: RepoSearchQuery, page: ListOptions): Promise<RepoPage> {
    const filter = await this.searchFilter(viewer, publicOnly, query);
    const order = this.searchOrder(query);
    const priority = query.priority_owner_id && query.priority_owner_id > 0 ? query.priority_owner_id : 0;
    if (!priority) return this.repos.pageMatching(filter, order, page.skip, page.limit);
    const total = await this.repos.countMatching(filter);
    // priority_owner_id: that owner's repositories first, then the rest in the requested order.
    const first: RepoSearchFilter = { ...filter, ownerId: priority };
    const rest: RepoSearchFilter = { ...filter, ownerIdNot: priority };
    const firstCount = await this.repos.countMatching(first);
    const repos: RepoWithOwner[] = [];
    if (page.skip < firstCount) {
      repos.push(...(await this.repos.listMatching(first, order, page.skip, page.limit)));
    }
    if (repos.length < page.limit) {
      const skip = Math.max(0, page.skip - firstCount);
      repos.push(...(await this.repos.listMatching(rest, order, skip, page.limit - repos.length)));
    }
    return { repos, total };
  }

  private searchOrder(query: RepoSearchQuery): RepoSearchOrder {
    if (!query.sort) return { key: 'name', direction: 'asc' };
    const order = query.order || 'asc';
    if (order !== 'asc' && order !== 'desc') throw new ValidationError(`Invalid sort order: "${order}"`);
    if (!isRepoSortKey(query.sort)) throw new ValidationError(`Invalid sort mode: "${query.sort}"`);
    return { key: query.sort, direction: order };
  }

  /** The filter of a search, built once: visibility, then each option of the contract. */
  async searchFilter(viewer: User | null, publicOnly: boolean, query: RepoSearchQuery): Promise<RepoSearchFilter> {
    const filter: RepoSearchFilter = {};
    const uid = query.uid && query.uid > 0 ? query.uid : 0;
    // `private` (default true for signed-in callers) asks for the private repositories the caller can read.
    const withPrivate = viewer !== null && query.private !== false;
    if (withPrivate) {
      // A user looking at their own repositories needs no visibility filter (Forgejo skips it too).
      if (!(viewer.id === uid && !publicOnly)) filter.readableBy = { viewer, publicOnly };
    } else {
      filter.publicOnly = true;
      // Restricted users see only what they were given explicitly, public or not.
      if (viewer?.isRestricted) filter.readableBy = { viewer, publicOnly };
    }
    if (query.is_private !== undefined) filter.isPrivate = query.is_private;
    if (query.template !== undefined) filter.isTemplate = query.template;
    if (query.archived !== undefined) filter.isArchived = query.archived;
    if (query.starredBy && query.starredBy > 0) filter.idIn = await this.repos.listStarredIds(query.starredBy);

    let collaborate: boolean | undefined = query.exclusive ? false : undefined;
    switch (query.mode ?? '') {
      case '':
        break;
      case 'source':
        filter.isFork = false;
        filter.isMirror = false;
        break;
      case 'fork':
        filter.isFork = true;
        break;
      case 'mirror':
        filter.isMirror = true;
        break;
      case 'collaborative':
        filter.isMirror = false;
        collaborate = true;
        break;
      default:
        throw new ValidationError(`Invalid search mode: "${query.mode}"`);
    }
    if (uid) {
      const relation = collaborate === true ? 'collaborated' : collaborate === false ? 'owned' : 'either';
      filter.member = { userId: uid, relation };
    }
    if (query.team_id && query.team_id > 0) filter.teamId = query.team_id;
    const keyword = (query.q ?? '').trim();
    if (keyword) {
      filter.keywords = {
        // q is a comma-separated list.
        words: keyword
          .split(',')
          .map((word) => word.trim().toLowerCase())
          .filter(Boolean),
        topicOnly: query.topic === true,
        includeDescription: query.includeDesc === true,
        ownerSlashName: !query.team_id,
      };
    }
    return filter;
  }

  /** GET /orgs/{org}/repos: the org's repositories the caller can read, by id. */
  async listOrgRepos(viewer: User | null, publicOnly: boolean, org: User, page: ListOptions): Promise<RepoPage> {
    const filter: RepoSearchFilter = { ownerId: org.id, readableBy: { viewer, publicOnly } };
    const order: RepoSearchOrder = { key: 'id', direction: 'asc' };
    return this.repos.pageMatching(filter, order, page.skip, page.limit);
  }

  /**
   * GET /users/{username}/repos (owned by the user) and GET /user/repos (owned or shared with the caller): what the
   * viewer can read, by id (Forgejo: routers/api/v1/user/repo.go).
   */
  async listUserRepos(
    viewer: User | null,
    publicOnly: boolean,
    owner: User,
    page: ListOptions,
    shared = false,
  ): Promise<RepoPage> {
    const filter: RepoSearchFilter = shared
      ? { member: { userId: owner.id, relation: 'either' } }
      : { ownerId: owner.id };
    // Forgejo skips the visibility filter when the caller lists their own repositories with a full credential.
    if (!(viewer?.id === owner.id && !publicOnly)) filter.readableBy = { viewer, publicOnly };
    return this.page(filter, page);
  }

  /** GET /users/{username}/starred and …/subscriptions: the listed repositories the viewer can read, by id. */
  listReposIn(viewer: User | null, publicOnly: boolean, repoIds: number[], page: ListOptions): Promise<RepoPage> {
    return this.page({ idIn: repoIds, readableBy: { viewer, publicOnly } }, page);
  }

  private async page(filter: RepoSearchFilter, page: ListOptions): Promise<RepoPage> {
    const order: RepoSearchOrder = { key: 'id', direction: 'asc' };
    return this.repos.pageMatching(filter, order, page.skip, page.limit);
  }
}
