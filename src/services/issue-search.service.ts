// GET /repos/issues/search (Forgejo: routers/api/v1/repo/issue.go SearchIssues). Only issues where the caller
// reads the issues unit and pull requests where it reads the pulls unit (db/issue-search.ts, the rule of
// src/domain/access/content-visibility.ts); public-only tokens and anonymous callers see public repositories only.
import type { User } from '../db/entities.ts';
import type { IssueSearchFilter } from '../db/issue-search.ts';
import type { IssueRow } from '../db/issue.repository.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { timeBounds } from '../domain/time-bounds.ts';
import { BadRequestError, NotFoundError } from '../domain/errors.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import type { ServiceDeps } from './service-deps.ts';

/** GET /repos/{owner}/{repo}/issues: the search's filters, and users named by login. */
export interface RepoIssueQuery {
  state?: string;
  labels?: string;
  milestones?: string;
  q?: string;
  type?: string;
  since?: string;
  before?: string;
  created_by?: string;
  assigned_by?: string;
  mentioned_by?: string;
}

export interface IssueSearchQuery {
  state?: string;
  labels?: string;
  milestones?: string;
  q?: string;
  type?: string;
  since?: string;
  before?: string;
  assigned?: boolean;
  created?: boolean;
  mentioned?: boolean;
  review_requested?: boolean;
  reviewed?: boolean;
  owner?: string;
  team?: string;
}

/** Review types (Forgejo: models/issues/review.go). */
const REVIEWED_TYPES = [1, 2, 3];
const REVIEW_REQUEST = 4;

const commaList = (text: string | undefined) => ((text ?? '').trim() === '' ? [] : text!.trim().split(','));

export class IssueSearchService {
  constructor(private readonly deps: ServiceDeps) {}

  async search(
    viewer: User | null,
    publicOnly: boolean,
    query: IssueSearchQuery,
    page: ListOptions,
  ): Promise<Page<IssueRow>> {
    const filter = await this.filter(viewer, publicOnly, query);
    const { issues } = this.deps.repos;
    return issues.search(filter, page.skip, page.limit);
  }

  /** One repository's issues (Forgejo: ListIssues); milestones by name or id, users by login (unknown: 404). */
  async listInRepo(
    viewer: User | null,
    publicOnly: boolean,
    repo: RepoWithOwner,
    query: RepoIssueQuery,
    page: ListOptions,
  ): Promise<Page<IssueRow>> {
    const { milestones: milestoneNames, ...rest } = query;
    const filter = { ...(await this.filter(viewer, publicOnly, rest)), repoId: repo.id };
    const wanted = commaList(milestoneNames);
    if (wanted.length > 0) {
      const ids = await this.deps.repos.issues.milestoneIdsInRepo(repo.id, wanted);
      filter.milestoneIds = ids.length > 0 ? ids : [-1];
    }
    const userId = async (name: string | undefined) => {
      if ((name ?? '').trim() === '') return undefined;
      const user = await this.deps.repos.users.byLowerName(name!.trim().toLowerCase());
      if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`);
      return user.id;
    };
    const created = await userId(query.created_by);
    if (created !== undefined) filter.posterId = created;
    const assigned = await userId(query.assigned_by);
    if (assigned !== undefined) filter.assigneeId = assigned;
    const mentioned = await userId(query.mentioned_by);
    if (mentioned !== undefined) filter.mentionedIssueIds = await this.deps.repos.issues.mentionedIssueIds(mentioned);
    const { issues } = this.deps.repos;
    return issues.search(filter, page.skip, page.limit);
  }

  private async filter(viewer: User | null, publicOnly: boolean, query: IssueSearchQuery): Promise<IssueSearchFilter> {
    const { issues } = this.deps.repos;
    const filter: IssueSearchFilter = { reader: { viewer, publicOnly } };
    const ownerName = (query.owner ?? '').trim();
    if (ownerName !== '') {
      const owner = await this.deps.repos.users.byLowerName(ownerName.toLowerCase());
      if (!owner) throw new BadRequestError(`user does not exist [uid: 0, name: ${ownerName}]`);
      filter.ownerId = owner.id;
      if ((query.team ?? '') !== '') {
        const team = await issues.findTeamByName(owner.id, query.team!.toLowerCase());
        if (!team)
          throw new BadRequestError(`team does not exist [org_id ${owner.id}, team_id 0, name: ${query.team}]`);
        if (!team.includesAllRepositories) filter.teamId = team.id;
      }
    } else if ((query.team ?? '') !== '') {
      throw new BadRequestError('Owner organisation is required for filtering on team');
    }

    if (query.state !== 'all') filter.isClosed = query.state === 'closed';
    if (query.type === 'pulls') filter.isPull = true;
    if (query.type === 'issues') filter.isPull = false;

    // Names that no label has are ignored; when none is known, the filter falls away (Forgejo: GetLabelIDsByNames).
    const labelNames = await issues.knownLabelNames(commaList(query.labels));
    if (labelNames.length > 0) filter.labelNames = labelNames;
    const milestoneIds = await issues.milestoneIdsByNames(commaList(query.milestones));
    if (milestoneIds.length > 0) filter.milestoneIds = milestoneIds;

    const keyword = (query.q ?? '').trim();
    if (keyword !== '' && !keyword.includes('\0')) filter.keyword = keyword;
    const bounds = timeBounds(query.since, query.before);
    if (bounds.from) filter.updatedFrom = bounds.from;
    if (bounds.to) filter.updatedTo = bounds.to;

    if (viewer) {
      const me = viewer.id;
      if (query.created) filter.posterId = me;
      if (query.assigned) filter.assigneeId = me;
      if (query.mentioned) filter.mentionedIssueIds = await issues.mentionedIssueIds(me);
      if (query.review_requested) filter.reviewRequestedIssueIds = await issues.reviewedIssueIds(me, [REVIEW_REQUEST]);
      if (query.reviewed) {
        filter.reviewed = { byUserId: me, issueIds: await issues.reviewedIssueIds(me, REVIEWED_TYPES) };
      }
    }
    return filter;
  }
}
