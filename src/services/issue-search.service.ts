// GET /repos/issues/search (Forgejo: routers/api/v1/repo/issue.go SearchIssues). Only issues where the caller
// reads the issues unit and pull requests where it reads the pulls unit (visibleIssuesWhere, the rule of
// src/domain/content-visibility.ts); public-only tokens and anonymous callers see public repositories only.
import { visibleIssuesWhere } from '../db/content-access-filters.ts';
import type { IssueRow } from '../db/issue.repository.ts';
import type { Prisma, User } from '../db/prisma.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { timeBounds } from '../domain/time-bounds.ts';
import { BadRequestError } from '../domain/errors.ts';
import type { ServiceDeps } from './service-deps.ts';

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

const commaList = (text: string | undefined) => (text ?? '').trim() === '' ? [] : text!.trim().split(',');

export class IssueSearchService {
  constructor(private readonly deps: ServiceDeps) {}

  async search(viewer: User | null, publicOnly: boolean, query: IssueSearchQuery, page: ListOptions): Promise<Page<IssueRow>> {
    const where = await this.where(viewer, publicOnly, query);
    const { issues } = this.deps.repos;
    const [items, total] = await Promise.all([issues.search(where, page.skip, page.limit), issues.count(where)]);
    return { items, total };
  }

  private async where(viewer: User | null, publicOnly: boolean, query: IssueSearchQuery): Promise<Prisma.IssueWhereInput> {
    const { issues } = this.deps.repos;
    const repo: Prisma.RepositoryWhereInput[] = [];
    const and: Prisma.IssueWhereInput[] = [visibleIssuesWhere({ viewer, publicOnly })];
    const ownerName = (query.owner ?? '').trim();
    if (ownerName !== '') {
      const owner = await this.deps.repos.users.byLowerName(ownerName.toLowerCase());
      if (!owner) throw new BadRequestError(`user does not exist [uid: 0, name: ${ownerName}]`);
      repo.push({ ownerId: owner.id });
      if ((query.team ?? '') !== '') {
        const team = await issues.findTeamByName(owner.id, query.team!.toLowerCase());
        if (!team) throw new BadRequestError(`team does not exist [org_id ${owner.id}, team_id 0, name: ${query.team}]`);
        repo.push(team.includesAllRepositories ? {} : { teamRepos: { some: { teamId: team.id } } });
      }
    } else if ((query.team ?? '') !== '') {
      throw new BadRequestError('Owner organisation is required for filtering on team');
    }
    and.push({ repo: { AND: repo } });

    if (query.state !== 'all') and.push({ isClosed: query.state === 'closed' });
    if (query.type === 'pulls') and.push({ isPull: true });
    if (query.type === 'issues') and.push({ isPull: false });

    // Names that no label has are ignored; when none is known, the filter falls away (Forgejo: GetLabelIDsByNames).
    const labelNames = await issues.knownLabelNames(commaList(query.labels));
    if (labelNames.length > 0) and.push({ labels: { some: { label: { name: { in: labelNames } } } } });
    const milestoneIds = await issues.milestoneIdsByNames(commaList(query.milestones));
    if (milestoneIds.length > 0) and.push({ milestoneId: { in: milestoneIds } });

    const keyword = (query.q ?? '').trim();
    if (keyword !== '' && !keyword.includes('\0')) {
      and.push({ OR: [{ title: { contains: keyword } }, { content: { contains: keyword } }, { comments: { some: { content: { contains: keyword } } } }] });
    }
    const bounds = timeBounds(query.since, query.before);
    if (bounds.from) and.push({ updatedAt: { gte: bounds.from } });
    if (bounds.to) and.push({ updatedAt: { lte: bounds.to } });

    if (viewer) {
      const me = viewer.id;
      if (query.created) and.push({ posterId: me });
      if (query.assigned) and.push({ assignees: { some: { assigneeId: me } } });
      if (query.mentioned) and.push({ id: { in: await issues.mentionedIssueIds(me) } });
      if (query.review_requested) and.push({ isPull: true, id: { in: await issues.reviewedIssueIds(me, [REVIEW_REQUEST]) } });
      if (query.reviewed) and.push({ isPull: true, posterId: { not: me }, id: { in: await issues.reviewedIssueIds(me, REVIEWED_TYPES) } });
    }
    return { AND: and };
  }
}
