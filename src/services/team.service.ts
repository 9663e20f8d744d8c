// Teams of an organization: permission and units, members, repositories, search, feeds
// (Forgejo: routers/api/v1/org/team.go, models/org_team.go, routers/api/v1/api.go reqTeamMembership).
// A team with includesAllRepositories has no TeamRepo rows: it covers every repository of its organization,
// present and future, resolved when read.
import { type Caller, isPublicOnly } from '../auth/caller.ts';
import type { RepositoryDetails } from '../convert/repository.ts';
import type { Prisma, Team, User } from '../db/prisma.ts';
import { AccessMode, Visibility } from '../domain/access.ts';
import { knownUnitsMap, type TeamUnitGrant, teamAccessMode, teamUnitGrants } from '../domain/team-units.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.ts';
import type { ListOptions } from '../http/pagination.ts';
import type { ServiceDeps } from './index.ts';
import type { FeedEntry, OrgFeedService } from './org-feed.service.ts';
import type { OrgService } from './org.service.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import { isRepoAdmin, type RepoPermissionService, type RepoWithOwner } from './repo-permission.service.ts';
import { repoInclude, type RepositoryService } from './repository.service.ts';

export const OWNER_TEAM_NAME = 'Owners';

export interface TeamInput {
  name?: string;
  description?: string;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
  permission?: string;
  units?: string[];
  unitsMap?: Record<string, string>;
}

export interface TeamWithUnits extends Team {
  units: TeamUnitGrant[];
}

interface OrgRole {
  member: boolean;
  owner: boolean;
}

interface TeamContext {
  team: Team;
  org: User;
  doer: User;
}

const TEAM_NAME_PATTERN = /^[\w.-]+$/;
const MAX_TEAM_FIELD_LENGTH = 255;
const UNITS_SELECT = { units: { select: { type: true, accessMode: true } } } as const;

/** The Owners team is the org's owner-level team; its name decides it in Forgejo, so it is never renamed. */
function isOwnerTeam(team: Team): boolean {
  return team.accessMode === AccessMode.owner;
}

/** The lower-cased lookup key of a name in a path; a NUL byte names nothing (PostgreSQL refuses it in text). */
function lookupKey(name: string, notFound: () => NotFoundError): string {
  if (name.includes('\0')) throw notFound();
  return name.toLowerCase();
}

function validateTeamFields(input: TeamInput, creating: boolean): void {
  const name = input.name ?? '';
  if (creating && name === '') throw new ValidationError('[Name]: Required');
  if (name !== '') {
    if (!TEAM_NAME_PATTERN.test(name)) throw new ValidationError('[Name]: AlphaDashDot');
    if (name.length > MAX_TEAM_FIELD_LENGTH) throw new ValidationError('[Name]: MaxSize');
    if (name.toLowerCase() === 'new') throw new ValidationError(`name is reserved [name: ${name}]`);
  }
  const description = input.description ?? '';
  if (description.length > MAX_TEAM_FIELD_LENGTH) throw new ValidationError('[Description]: MaxSize');
}

export class TeamService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly ownerAccess: OwnerAccessService,
    private readonly orgs: OrgService,
    private readonly permissions: RepoPermissionService,
    private readonly repositories: RepositoryService,
    private readonly orgFeeds: OrgFeedService,
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  // ---- who may do what ----

  /** Org membership and ownership (owner = member of an owner-level team). The one place that decides both. */
  private async orgRole(orgId: number, userId: number): Promise<OrgRole> {
    const [member, owner] = await Promise.all([this.ownerAccess.isOrgMember(orgId, userId), this.orgs.isOwner(orgId, userId)]);
    return { member: member || owner, owner };
  }

  /** Public-only tokens reach public organizations only. */
  private checkPublicOnly(caller: Caller, org: User): void {
    if (isPublicOnly(caller) && org.visibility !== Visibility.public) throw new ForbiddenError('token scope is limited to public orgs');
  }

  /** `/orgs/{org}/teams*`: 404 for an org the caller cannot see, 401 anonymous, 403 for non-members. */
  private async orgForMember(caller: Caller | null, orgName: string): Promise<{ org: User; doer: User; role: OrgRole }> {
    const orgNotFound = () => new NotFoundError('GetOrgByName', [`org does not exist [name: ${orgName}]`]);
    const org = await this.deps.db.hot.userByLowerName(lookupKey(orgName, orgNotFound));
    if (!org || org.type !== 1 || !(await this.ownerAccess.canSee(caller?.user ?? null, org))) throw orgNotFound();
    if (!caller) throw new UnauthorizedError('token is required');
    this.checkPublicOnly(caller, org);
    const doer = caller.user;
    const role = await this.orgRole(org.id, doer.id);
    if (!doer.isAdmin && !role.member) throw new ForbiddenError('Must be an organization member');
    return { org, doer, role };
  }

  /**
   * `/teams/{id}*`: a missing team is 404 for anyone; then site admins, org owners and team members pass
   * (`owner`: only admins and owners); other org members get 403, everybody else 404.
   */
  private async teamFor(caller: Caller | null, id: number, need: 'member' | 'owner'): Promise<TeamContext> {
    const team = await this.prisma.team.findUnique({ where: { id } });
    if (!team) throw new NotFoundError('GetTeamById', [`team does not exist [org_id 0, team_id ${id}, name: ]`]);
    if (!caller) throw new UnauthorizedError('token is required');
    const org = await this.deps.db.hot.userById(team.orgId);
    if (!org) throw new NotFoundError();
    this.checkPublicOnly(caller, org);
    const doer = caller.user;
    if (doer.isAdmin) return { team, org, doer };
    const role = await this.orgRole(org.id, doer.id);
    if (role.owner) return { team, org, doer };
    if (need === 'member' && (await this.isTeamMember(team.id, doer.id))) return { team, org, doer };
    if (!role.member) throw new NotFoundError();
    throw new ForbiddenError(need === 'owner' ? 'Must be an organization owner' : 'Must be a team member');
  }

  private async isTeamMember(teamId: number, userId: number): Promise<boolean> {
    return (await this.prisma.teamUser.findUnique({ where: { teamId_userId: { teamId, userId } }, select: { id: true } })) !== null;
  }

  private async repoInOrg(org: User, repoName: string): Promise<RepoWithOwner> {
    const repoNotFound = () => new NotFoundError('GetRepositoryByName', [`repository does not exist [name: ${repoName}]`]);
    const lowerName = lookupKey(repoName, repoNotFound);
    const repo = await this.prisma.repository.findUnique({ where: { ownerId_lowerName: { ownerId: org.id, lowerName } }, include: repoInclude });
    if (!repo) throw repoNotFound();
    return repo;
  }

  private async requireRepoAdmin(doer: User, repo: RepoWithOwner): Promise<void> {
    if (!isRepoAdmin(await this.permissions.forRepo(doer, repo))) throw new ForbiddenError('Must have admin-level access to the repository');
  }

  private async withUnits(team: Team): Promise<TeamWithUnits> {
    const units = await this.prisma.teamUnit.findMany({ where: { teamId: team.id }, select: { type: true, accessMode: true } });
    return { ...team, units };
  }

  // ---- teams ----

  async listOrgTeams(caller: Caller | null, orgName: string, page: ListOptions): Promise<{ teams: TeamWithUnits[]; total: number }> {
    const { org } = await this.orgForMember(caller, orgName);
    const where = { orgId: org.id };
    const [teams, total] = await Promise.all([
      this.prisma.team.findMany({ where, include: UNITS_SELECT, orderBy: [{ lowerName: 'asc' }, { id: 'asc' }], skip: page.skip, take: page.limit }),
      this.prisma.team.count({ where }),
    ]);
    return { teams, total };
  }

  /** Name (and description unless `includeDesc` is false) contains `q`; non-admins find only their own teams. */
  async searchOrgTeams(caller: Caller | null, orgName: string, q: string, includeDesc: boolean | undefined, page: ListOptions): Promise<{ teams: TeamWithUnits[]; total: number }> {
    const { org, doer } = await this.orgForMember(caller, orgName);
    const keyword = q.trim().toLowerCase();
    // Rule 19: descriptions are searched unless include_desc says otherwise.
    const searchDescriptions = includeDesc ?? true;
    const candidates = await this.prisma.team.findMany({
      where: { orgId: org.id, ...(doer.isAdmin ? {} : { members: { some: { userId: doer.id } } }) },
      select: { id: true, lowerName: true, description: true },
    });
    // Descriptions have no lower-cased column; matching here keeps it case-insensitive on every database.
    const matching = candidates
      .filter((team) => team.lowerName.includes(keyword) || (searchDescriptions && team.description.toLowerCase().includes(keyword)))
      .sort((a, b) => (a.lowerName < b.lowerName ? -1 : a.lowerName > b.lowerName ? 1 : a.id - b.id));
    const pageIds = matching.slice(page.skip, page.skip + page.limit).map((team) => team.id);
    const teams = await this.prisma.team.findMany({ where: { id: { in: pageIds } }, include: UNITS_SELECT });
    teams.sort((a, b) => pageIds.indexOf(a.id) - pageIds.indexOf(b.id));
    return { teams, total: matching.length };
  }

  async listUserTeams(doer: User, page: ListOptions): Promise<{ teams: Array<TeamWithUnits & { org: User }>; total: number }> {
    const where = { members: { some: { userId: doer.id } } };
    const [teams, total] = await Promise.all([
      this.prisma.team.findMany({ where, include: { ...UNITS_SELECT, org: true }, orderBy: [{ lowerName: 'asc' }, { id: 'asc' }], skip: page.skip, take: page.limit }),
      this.prisma.team.count({ where }),
    ]);
    return { teams, total };
  }

  async get(caller: Caller | null, id: number): Promise<{ team: TeamWithUnits; org: User }> {
    const { team, org } = await this.teamFor(caller, id, 'member');
    return { team: await this.withUnits(team), org };
  }

  async create(caller: Caller | null, orgName: string, input: TeamInput): Promise<{ team: TeamWithUnits; org: User }> {
    const { org, doer, role } = await this.orgForMember(caller, orgName);
    if (!doer.isAdmin && !role.owner) throw new ForbiddenError('Must be an organization owner');
    validateTeamFields(input, true);
    const name = input.name!;
    const unitsMap = knownUnitsMap(input.unitsMap);
    const accessMode = teamAccessMode(input.permission, unitsMap);
    const units = teamUnitGrants(accessMode, input.units, unitsMap);
    // Forgejo answers 500 here; it is the caller's mistake.
    if (!units) throw new ValidationError('units permission should not be empty: give units or units_map, or permission admin');
    await this.ensureNameFree(org.id, name);
    const team = await this.prisma.$transaction(async (tx) => {
      const created = await tx.team.create({
        data: {
          orgId: org.id,
          name,
          lowerName: name.toLowerCase(),
          description: input.description ?? '',
          accessMode,
          includesAllRepositories: input.includesAllRepositories ?? false,
          canCreateOrgRepo: input.canCreateOrgRepo ?? false,
        },
      });
      await tx.teamUnit.createMany({ data: units.map((unit) => ({ orgId: org.id, teamId: created.id, ...unit })) });
      return created;
    });
    return { team: { ...team, units }, org };
  }

  private async ensureNameFree(orgId: number, name: string, exceptTeamId?: number): Promise<void> {
    const lowerName = name.toLowerCase();
    const existing = await this.prisma.team.findFirst({ where: { orgId, lowerName, ...(exceptTeamId ? { id: { not: exceptTeamId } } : {}) }, select: { id: true } });
    if (existing) throw new ValidationError(`team already exists [org_id: ${orgId}, name: ${lowerName}]`);
  }

  /**
   * Only fields that are sent change. Permission and includes_all_repositories change only together with
   * `permission` and never on the Owners team, which also always may create repositories and keeps its units.
   */
  async edit(caller: Caller | null, id: number, input: TeamInput): Promise<TeamWithUnits> {
    const { team, org } = await this.teamFor(caller, id, 'owner');
    validateTeamFields(input, false);
    const owners = isOwnerTeam(team);
    const name = input.name ? input.name : team.name;
    if (owners && name !== team.name) throw new ValidationError(`the ${OWNER_TEAM_NAME} team cannot be renamed`);
    if (name.toLowerCase() !== team.lowerName) await this.ensureNameFree(org.id, name, team.id);

    const unitsMap = knownUnitsMap(input.unitsMap);
    let { accessMode, includesAllRepositories } = team;
    if (!owners && input.permission) {
      accessMode = teamAccessMode(input.permission, unitsMap);
      if (input.includesAllRepositories !== undefined) includesAllRepositories = input.includesAllRepositories;
    }
    const units = owners ? null : teamUnitGrants(accessMode, input.units, unitsMap);
    const data: Prisma.TeamUpdateInput = {
      name,
      lowerName: name.toLowerCase(),
      description: input.description ?? team.description,
      canCreateOrgRepo: owners || (input.canCreateOrgRepo ?? team.canCreateOrgRepo),
      accessMode,
      includesAllRepositories,
      updatedAt: new Date(),
    };
    await this.prisma.$transaction(async (tx) => {
      if (units) {
        await tx.teamUnit.deleteMany({ where: { teamId: team.id } });
        await tx.teamUnit.createMany({ data: units.map((unit) => ({ orgId: org.id, teamId: team.id, ...unit })) });
      }
      if (includesAllRepositories && !team.includesAllRepositories) {
        // The flag covers every repository; explicit rows would only duplicate it.
        await tx.teamRepo.deleteMany({ where: { teamId: team.id } });
        data.numRepos = 0;
      } else if (!includesAllRepositories && team.includesAllRepositories) {
        // Leaving "all repositories" keeps the repositories the team had, as Forgejo's rows would.
        const repos = await tx.repository.findMany({ where: { ownerId: org.id }, select: { id: true } });
        await tx.teamRepo.deleteMany({ where: { teamId: team.id } });
        await tx.teamRepo.createMany({ data: repos.map((repo) => ({ orgId: org.id, teamId: team.id, repoId: repo.id })) });
        data.numRepos = repos.length;
      }
      await tx.team.update({ where: { id: team.id }, data });
    });
    const updated = await this.prisma.team.findUniqueOrThrow({ where: { id: team.id } });
    return this.withUnits(updated);
  }

  /** Members left in no team of the organization stop being members. */
  async delete(caller: Caller | null, id: number): Promise<void> {
    const { team, org } = await this.teamFor(caller, id, 'owner');
    if (isOwnerTeam(team)) throw new ValidationError(`the ${OWNER_TEAM_NAME} team of an organization cannot be deleted`);
    await this.prisma.$transaction(async (tx) => {
      const members = await tx.teamUser.findMany({ where: { teamId: team.id }, select: { userId: true } });
      await tx.team.delete({ where: { id: team.id } });
      await this.dropMembershipsWithoutTeam(tx, org.id, members.map((member) => member.userId));
    });
  }

  private async dropMembershipsWithoutTeam(tx: Prisma.TransactionClient, orgId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await tx.orgUser.deleteMany({ where: { orgId, userId: { in: userIds }, user: { is: { teamUsers: { none: { orgId } } } } } });
  }

  // ---- members ----

  async listMembers(caller: Caller | null, id: number, page: ListOptions): Promise<{ users: User[]; total: number }> {
    const { team, org, doer } = await this.teamFor(caller, id, 'member');
    if (!doer.isAdmin && !(await this.orgRole(org.id, doer.id)).member) throw new NotFoundError();
    const where = { teamUsers: { some: { teamId: team.id } } };
    const [users, total] = await Promise.all([
      this.prisma.user.findMany({ where, orderBy: [{ fullName: 'asc' }, { lowerName: 'asc' }], skip: page.skip, take: page.limit }),
      this.prisma.user.count({ where }),
    ]);
    return { users, total };
  }

  private async userByName(name: string): Promise<User> {
    const userNotFound = () => new NotFoundError(`user does not exist [name: ${name}]`);
    const user = await this.deps.db.hot.userByLowerName(lookupKey(name, userNotFound));
    if (!user) throw userNotFound();
    return user;
  }

  async getMember(caller: Caller | null, id: number, username: string): Promise<User> {
    const { team } = await this.teamFor(caller, id, 'member');
    const user = await this.userByName(username);
    if (!(await this.isTeamMember(team.id, user.id))) throw new NotFoundError();
    return user;
  }

  /** Joining a team makes the user an org member when needed; users the org blocks cannot join. */
  async addMember(caller: Caller | null, id: number, username: string): Promise<void> {
    const { team, org } = await this.teamFor(caller, id, 'owner');
    const user = await this.userByName(username);
    if (user.type !== 0) throw new ValidationError(`${user.name} is an organization, not a user`);
    await this.orgs.assertNotBlocked(org.id, user.id);
    await this.prisma.$transaction(async (tx) => {
      if (await tx.teamUser.findUnique({ where: { teamId_userId: { teamId: team.id, userId: user.id } }, select: { id: true } })) return;
      await tx.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: user.id } });
      await tx.team.update({ where: { id: team.id }, data: { numMembers: { increment: 1 } } });
      await tx.orgUser.upsert({
        where: { userId_orgId: { userId: user.id, orgId: org.id } },
        create: { userId: user.id, orgId: org.id, isPublic: this.deps.settings.service.DEFAULT_ORG_MEMBER_VISIBLE },
        update: {},
      });
    });
  }

  /** Leaving the last team ends the org membership; the Owners team keeps at least one member. */
  async removeMember(caller: Caller | null, id: number, username: string): Promise<void> {
    const { team, org } = await this.teamFor(caller, id, 'owner');
    const user = await this.userByName(username);
    await this.prisma.$transaction(async (tx) => {
      const removed = await tx.teamUser.deleteMany({ where: { teamId: team.id, userId: user.id } });
      if (removed.count === 0) return;
      // Updating the team row first serialises concurrent removals, so the count below sees the others' work.
      const updated = await tx.team.update({ where: { id: team.id }, data: { numMembers: { decrement: 1 } } });
      const remaining = await tx.teamUser.count({ where: { teamId: team.id } });
      if (remaining === 0 && isOwnerTeam(team)) throw new ValidationError('cannot remove the last member of the Owners team: an organization needs an owner');
      if (updated.numMembers !== remaining) await tx.team.update({ where: { id: team.id }, data: { numMembers: remaining } });
      await this.dropMembershipsWithoutTeam(tx, org.id, [user.id]);
    });
  }

  // ---- repositories ----

  private teamRepoFilter(team: Team): Prisma.RepositoryWhereInput {
    return team.includesAllRepositories ? { ownerId: team.orgId } : { ownerId: team.orgId, teamRepos: { some: { teamId: team.id } } };
  }

  /** The team's repositories with the caller's own permission on each (not the team's). */
  async listRepos(caller: Caller | null, id: number, page: ListOptions): Promise<{ repos: RepositoryDetails[]; total: number }> {
    const { team, doer } = await this.teamFor(caller, id, 'member');
    const where = this.teamRepoFilter(team);
    const [repos, total] = await Promise.all([
      this.prisma.repository.findMany({ where, include: repoInclude, orderBy: [{ lowerName: 'asc' }, { id: 'asc' }], skip: page.skip, take: page.limit }),
      this.prisma.repository.count({ where }),
    ]);
    return { repos: await this.repositories.details(doer, repos), total };
  }

  private async teamHasRepo(team: Team, repo: RepoWithOwner): Promise<boolean> {
    if (repo.ownerId !== team.orgId) return false;
    if (team.includesAllRepositories) return true;
    return (await this.prisma.teamRepo.findUnique({ where: { teamId_repoId: { teamId: team.id, repoId: repo.id } }, select: { id: true } })) !== null;
  }

  /** The repository is looked up in the team's organization; the `{org}` path segment is not used (as Forgejo). */
  async getRepo(caller: Caller | null, id: number, repoName: string): Promise<RepositoryDetails> {
    const { team, org, doer } = await this.teamFor(caller, id, 'member');
    const repo = await this.repoInOrg(org, repoName);
    if (!(await this.teamHasRepo(team, repo))) throw new NotFoundError();
    return (await this.repositories.details(doer, [repo]))[0];
  }

  async addRepo(caller: Caller | null, id: number, repoName: string): Promise<void> {
    const { team, org, doer } = await this.teamFor(caller, id, 'member');
    const repo = await this.repoInOrg(org, repoName);
    await this.requireRepoAdmin(doer, repo);
    if (team.includesAllRepositories) return;
    await this.prisma.$transaction(async (tx) => {
      if (await tx.teamRepo.findUnique({ where: { teamId_repoId: { teamId: team.id, repoId: repo.id } }, select: { id: true } })) return;
      await tx.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId: repo.id } });
      await tx.team.update({ where: { id: team.id }, data: { numRepos: { increment: 1 } } });
    });
  }

  /** Removes the repository from the team only. */
  async removeRepo(caller: Caller | null, id: number, repoName: string): Promise<void> {
    const { team, org, doer } = await this.teamFor(caller, id, 'member');
    const repo = await this.repoInOrg(org, repoName);
    await this.requireRepoAdmin(doer, repo);
    if (team.includesAllRepositories) {
      throw new ValidationError('the team includes all repositories of the organization: switch includes_all_repositories off first');
    }
    await this.prisma.$transaction(async (tx) => {
      const removed = await tx.teamRepo.deleteMany({ where: { teamId: team.id, repoId: repo.id } });
      if (removed.count > 0) await tx.team.update({ where: { id: team.id }, data: { numRepos: { decrement: 1 } } });
    });
  }

  // ---- activity ----

  /**
   * Actions on the team's repositories from the organization's feed, private ones included, newest first;
   * `date` (YYYY-MM-DD) limits them to that day (UTC). Non-admins do not see actors who hide their activity
   * or are private, except themselves and the organization.
   */
  async feeds(caller: Caller | null, id: number, date: string | undefined, page: ListOptions): Promise<{ activities: FeedEntry[]; total: number }> {
    const { team, org, doer } = await this.teamFor(caller, id, 'member');
    const repoIds = (await this.prisma.repository.findMany({ where: this.teamRepoFilter(team), select: { id: true } })).map((repo) => repo.id);
    const { items, total } = await this.orgFeeds.listForTeam(doer, org.id, repoIds, date, page);
    return { activities: items, total };
  }
}
