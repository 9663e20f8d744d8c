// The activity feed of an organization (Forgejo: routers/api/v1/org/org.go ListOrgActivityFeeds,
// models/activities/action.go GetFeeds). Rows are written by ActivityService, one per feed owner.
import type { Caller } from '../auth/caller.ts';
import type { RepositoryRecordDetails } from '../convert/repository.ts';
import type { Prisma, User } from '../db/prisma.ts';
import type { ListOptions } from '../http/pagination.ts';
import type { ServiceDeps } from './index.ts';
import type { OrgService, Page } from './org.service.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import { repoInclude, type RepositoryService } from './repository.service.ts';

export type Action = Prisma.ActionModel;

export interface FeedEntry {
  action: Action;
  actUser: User | null;
  repo: RepositoryRecordDetails | null;
}

/** The day `YYYY-MM-DD` as a UTC range, or null when the text is not such a date. */
function dayRange(date: string | undefined): { gte: Date; lt: Date } | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const start = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) return null;
  return { gte: start, lt: new Date(start.getTime() + 24 * 60 * 60 * 1000) };
}

export class OrgFeedService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly orgs: OrgService,
    private readonly ownerAccess: OwnerAccessService,
    private readonly repositories: RepositoryService,
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  /**
   * Rule 20: private activity only for site admins and members, and for members only on repositories they can
   * reach through their teams or as collaborators. Actors who hide their activity or whom the caller may not see
   * are left out. Newest first; `date` keeps one day.
   */
  async list(caller: Caller | null, orgName: string, date: string | undefined, page: ListOptions): Promise<Page<FeedEntry>> {
    const org = await this.orgs.resolve(caller, orgName);
    const viewer = caller?.user ?? null;
    const conditions: Prisma.ActionWhereInput[] = [];
    if (!viewer?.isAdmin) {
      const isMember = viewer !== null && (await this.ownerAccess.isOrgMember(org.id, viewer.id));
      if (!isMember) conditions.push({ isPrivate: false });
      else {
        const privateRepoIds = await this.reachablePrivateRepoIds(org.id, viewer.id);
        if (privateRepoIds !== 'all') conditions.push({ OR: [{ isPrivate: false }, { repoId: { in: privateRepoIds } }] });
      }
    }
    return this.page(org.id, viewer, conditions, date, page);
  }

  /** A team's feed (the caller's access to the team already checked): private activity always, the team's repositories only. */
  async listForTeam(viewer: User, orgId: number, repoIds: number[], date: string | undefined, page: ListOptions): Promise<Page<FeedEntry>> {
    return this.page(orgId, viewer, [{ repoId: { in: repoIds } }], date, page);
  }

  /** One page of the organization's feed rows matching `conditions`, newest first, without hidden actors. */
  private async page(orgId: number, viewer: User | null, conditions: Prisma.ActionWhereInput[], date: string | undefined, page: ListOptions): Promise<Page<FeedEntry>> {
    const all: Prisma.ActionWhereInput[] = [{ userId: orgId }, { isDeleted: false }, ...conditions];
    const day = dayRange(date);
    if (day) all.push({ createdAt: day });
    if (!viewer?.isAdmin) {
      const hiddenActors = await this.hiddenActors(orgId, viewer);
      if (hiddenActors.length > 0) all.push({ actUserId: { notIn: hiddenActors } });
    }
    const where: Prisma.ActionWhereInput = { AND: all };
    const [actions, total] = await Promise.all([
      this.prisma.action.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: page.skip, take: page.limit }),
      this.prisma.action.count({ where }),
    ]);
    const [users, repos] = await Promise.all([
      this.prisma.user.findMany({ where: { id: { in: [...new Set(actions.map((a) => a.actUserId))] } } }),
      this.prisma.repository.findMany({ where: { id: { in: [...new Set(actions.map((a) => a.repoId).filter((id) => id > 0))] } }, include: repoInclude }),
    ]);
    const userById = new Map(users.map((u) => [u.id, u]));
    const repoById = new Map((await this.repositories.withExtras(repos)).map((r) => [r.repo.id, r]));
    return {
      items: actions.map((action) => ({ action, actUser: userById.get(action.actUserId) ?? null, repo: repoById.get(action.repoId) ?? null })),
      total,
    };
  }

  /** Private repositories of the organization a member reaches, or 'all' through a team that covers every one. */
  private async reachablePrivateRepoIds(orgId: number, userId: number): Promise<number[] | 'all'> {
    const teams = await this.prisma.teamUser.findMany({ where: { orgId, userId }, select: { teamId: true, team: { select: { includesAllRepositories: true } } } });
    if (teams.some((t) => t.team.includesAllRepositories)) return 'all';
    const [teamRepos, collaborations] = await Promise.all([
      this.prisma.teamRepo.findMany({ where: { teamId: { in: teams.map((t) => t.teamId) } }, select: { repoId: true } }),
      this.prisma.collaboration.findMany({ where: { userId, repo: { ownerId: orgId } }, select: { repoId: true } }),
    ]);
    return [...new Set([...teamRepos, ...collaborations].map((r) => r.repoId))];
  }

  private async hiddenActors(orgId: number, viewer: User | null): Promise<number[]> {
    const actorRows = await this.prisma.action.findMany({ where: { userId: orgId }, distinct: ['actUserId'], select: { actUserId: true } });
    const actors = await this.prisma.user.findMany({ where: { id: { in: actorRows.map((r) => r.actUserId) } } });
    const hidden: number[] = [];
    for (const actor of actors) {
      if (viewer?.id === actor.id) continue;
      if (actor.hideActivity || !(await this.ownerAccess.canSee(viewer, actor))) hidden.push(actor.id);
    }
    return hidden;
  }
}
