// Teams of an organization: permission and units, members, repositories, search, feeds
// (Forgejo: routers/api/v1/org/team.go, models/org_team.go, routers/api/v1/api.go reqTeamMembership).
// A team with includesAllRepositories has no TeamRepo rows: it covers every repository of its organization,
// present and future, resolved when read.
import { type Caller, isPublicOnly } from '../auth/caller.ts';
import type { Team, TeamChangesRow, User } from '../db/entities.ts';
import type { RepositoryDetails } from '../db/repository-details.ts';
import type { TeamRepository, TeamWithUnits } from '../db/team.repository.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { isIndividual } from '../domain/access/owner-visibility.ts';
import { reachableOwnerVisibilities } from '../domain/access/token-reach.ts';
import { knownUnitsMap, teamAccessMode, teamUnitGrants } from '../domain/access/team-units.ts';
import { ForbiddenError, NotFoundError, RecordGoneError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { FeedEntry } from '../db/org-feed.repository.ts';
import type { OrgFeedService } from './org-feed.service.ts';
import { type OrgService, OWNER_TEAM_NAME } from './org.service.ts';
import { isRepoAdmin, type RepoPermissionService, type RepoWithOwner } from './repo-permission.service.ts';
import type { RepositoryLookupService } from './repository-lookup.service.ts';
import { repoNotFound, userNotFound } from '../domain/name-not-found.ts';

export interface TeamInput {
  name?: string;
  description?: string;
  includesAllRepositories?: boolean;
  canCreateOrgRepo?: boolean;
  permission?: string;
  units?: string[];
  unitsMap?: Record<string, string>;
}

const TEAM_NAME_PATTERN = /^[\w.-]+$/;
const MAX_TEAM_FIELD_LENGTH = 255;

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
  private readonly teams: TeamRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly orgs: OrgService,
    private readonly permissions: RepoPermissionService,
    private readonly repositories: RepositoryLookupService,
    private readonly orgFeeds: OrgFeedService,
  ) {
    this.teams = deps.repos.teams;
  }

  /** A team and its organization, for the `/teams/{id}` routes; null when there is none. */
  async findWithOrg(id: number): Promise<{ team: Team; org: User } | null> {
    const team = await this.teams.findById(id);
    const org = team && (await this.deps.repos.users.byId(team.orgId));
    return team && org ? { team, org } : null;
  }

  isMember(teamId: number, userId: number): Promise<boolean> {
    return this.teams.isMember(teamId, userId);
  }

  private async repoInOrg(org: User, repoName: string): Promise<RepoWithOwner> {
    const lowerName = lookupKey(repoName, () => repoNotFound(repoName));
    const repo = await this.teams.findOrgRepository(org.id, lowerName);
    if (!repo) throw repoNotFound(repoName);
    return repo;
  }

  private async requireRepoAdmin(doer: User, repo: RepoWithOwner): Promise<void> {
    // Here, not in a guard: the repository is the path's second name, found in the team's organization only here.
    if (!isRepoAdmin(await this.permissions.forRepo(doer, repo)))
      throw new ForbiddenError('Must have admin-level access to the repository');
  }

  private async withUnits(team: Team): Promise<TeamWithUnits> {
    return { ...team, units: await this.teams.listUnits(team.id) };
  }

  // ---- teams ----

  async listOrgTeams(org: User, page: ListOptions): Promise<{ teams: TeamWithUnits[]; total: number }> {
    return this.teams.pageByOrg(org.id, page);
  }

  /** Name (and description unless `includeDesc` is false) contains `q`; non-admins find only their own teams. */
  async searchOrgTeams(
    doer: User,
    org: User,
    q: string,
    includeDesc: boolean | undefined,
    page: ListOptions,
  ): Promise<{ teams: TeamWithUnits[]; total: number }> {
    const keyword = q.trim().toLowerCase();
    // Rule 19: descriptions are searched unless include_desc says otherwise.
    const searchDescriptions = includeDesc ?? true;
    // A filter per team of the list, so not a guard's: site admins search every team.
    const candidates = await this.teams.listSearchFields(org.id, doer.isAdmin ? null : doer.id);
    // Descriptions have no lower-cased column; matching here keeps it case-insensitive on every database.
    const matching = candidates
      .filter(
        (team) =>
          team.lowerName.includes(keyword) || (searchDescriptions && team.description.toLowerCase().includes(keyword)),
      )
      .sort((a, b) => (a.lowerName < b.lowerName ? -1 : a.lowerName > b.lowerName ? 1 : a.id - b.id));
    const pageIds = matching.slice(page.skip, page.skip + page.limit).map((team) => team.id);
    const teams = await this.teams.findManyWithUnits(pageIds);
    teams.sort((a, b) => pageIds.indexOf(a.id) - pageIds.indexOf(b.id));
    return { teams, total: matching.length };
  }

  /** The caller's teams; a public-only token sees those of public organizations only. */
  async listUserTeams(
    caller: Caller,
    page: ListOptions,
  ): Promise<{ teams: Array<TeamWithUnits & { org: User }>; total: number }> {
    // A filter per team of the list, so not a guard's.
    return this.teams.pageByMember(caller.user.id, reachableOwnerVisibilities(isPublicOnly(caller)), page);
  }

  async get(team: Team): Promise<TeamWithUnits> {
    return this.withUnits(team);
  }

  async create(org: User, input: TeamInput): Promise<TeamWithUnits> {
    validateTeamFields(input, true);
    const name = input.name!;
    const unitsMap = knownUnitsMap(input.unitsMap);
    const accessMode = teamAccessMode(input.permission, unitsMap);
    const units = teamUnitGrants(accessMode, input.units, unitsMap);
    // Forgejo answers 500 here; it is the caller's mistake.
    if (!units)
      throw new ValidationError('units permission should not be empty: give units or units_map, or permission admin');
    await this.ensureNameFree(org.id, name);
    const team = await this.deps.transactions.run(async (repos) => {
      const teams = repos.teams;
      const created = await teams.create({
        orgId: org.id,
        name,
        lowerName: name.toLowerCase(),
        description: input.description ?? '',
        accessMode,
        includesAllRepositories: input.includesAllRepositories ?? false,
        canCreateOrgRepo: input.canCreateOrgRepo ?? false,
      });
      await teams.addUnits(org.id, created.id, units);
      return created;
    });
    return { ...team, units };
  }

  private async ensureNameFree(orgId: number, name: string, exceptTeamId?: number): Promise<void> {
    const lowerName = name.toLowerCase();
    if (await this.teams.existsByLowerName(orgId, lowerName, exceptTeamId))
      throw new ValidationError(`team already exists [org_id: ${orgId}, name: ${lowerName}]`);
  }

  /**
   * Only fields that are sent change. Permission and includes_all_repositories change only together with
   * `permission` and never on the Owners team, which also always may create repositories and keeps its units.
   */
  async edit(team: Team, org: User, input: TeamInput): Promise<TeamWithUnits> {
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
    const data: TeamChangesRow = {
      name,
      lowerName: name.toLowerCase(),
      description: input.description ?? team.description,
      canCreateOrgRepo: owners || (input.canCreateOrgRepo ?? team.canCreateOrgRepo),
      accessMode,
      includesAllRepositories,
      updatedAt: new Date(),
    };
    await this.deps.transactions.run(async (repos) => {
      const teams = repos.teams;
      let repoIds: number[] | null = null;
      // The flag covers every repository; explicit rows would only duplicate it.
      if (includesAllRepositories && !team.includesAllRepositories) repoIds = [];
      // Leaving "all repositories" keeps the repositories the team had, as Forgejo's rows would.
      else if (!includesAllRepositories && team.includesAllRepositories) repoIds = await teams.orgRepositoryIds(org.id);
      if (repoIds) data.numRepos = repoIds.length;
      // The row first: that locks it, and a team deleted meanwhile answers 404 before rows are written for it.
      await teams.update(team.id, data);
      if (units) await teams.replaceUnits(org.id, team.id, units);
      if (repoIds) await teams.replaceRepositoryLinks(org.id, team.id, repoIds);
    });
    const updated = await this.teams.findByIdOrThrow(team.id);
    return this.withUnits(updated);
  }

  /** Members left in no team of the organization stop being members. */
  async delete(team: Team, org: User): Promise<void> {
    if (isOwnerTeam(team))
      throw new ValidationError(`the ${OWNER_TEAM_NAME} team of an organization cannot be deleted`);
    await this.deps.transactions.run(async (repos) => {
      await repos.orgMembers.lockMemberships(org.id);
      const teams = repos.teams;
      const memberIds = await teams.memberIds(team.id);
      await teams.delete(team.id);
      await teams.dropOrgMembershipsWithoutTeam(org.id, memberIds);
    });
  }

  // ---- members ----

  async listMembers(team: Team, page: ListOptions): Promise<{ users: User[]; total: number }> {
    return this.teams.pageMembers(team.id, page);
  }

  private async userByName(name: string): Promise<User> {
    const user = await this.deps.repos.users.byLowerName(lookupKey(name, () => userNotFound(name)));
    if (!user) throw userNotFound(name);
    return user;
  }

  async getMember(team: Team, username: string): Promise<User> {
    const user = await this.userByName(username);
    if (!(await this.teams.isMember(team.id, user.id))) throw new NotFoundError();
    return user;
  }

  /** Joining a team makes the user an org member when needed; users the org blocks cannot join. */
  async addMember(team: Team, org: User, username: string): Promise<void> {
    const user = await this.userByName(username);
    if (!isIndividual(user)) throw new ValidationError(`${user.name} is an organization, not a user`);
    await this.orgs.assertNotBlocked(org.id, user.id);
    await this.deps.transactions.run(async (repos) => {
      await repos.orgMembers.lockMemberships(org.id);
      const teams = repos.teams;
      // Deleted while this request waited for the lock.
      if (!(await teams.findById(team.id))) throw new RecordGoneError('team');
      if (await teams.isMember(team.id, user.id)) return;
      await teams.addMember(org.id, team.id, user.id);
      await teams.ensureOrgMembership(org.id, user.id, this.deps.settings.service.DEFAULT_ORG_MEMBER_VISIBLE);
    });
  }

  /** Leaving the last team ends the org membership; the Owners team keeps at least one member. */
  async removeMember(team: Team, org: User, username: string): Promise<void> {
    const user = await this.userByName(username);
    await this.deps.transactions.run(async (repos) => {
      await repos.orgMembers.lockMemberships(org.id);
      const teams = repos.teams;
      if ((await teams.deleteMember(team.id, user.id)) === 0) return;
      const remaining = await teams.countMembers(team.id);
      if (remaining === 0 && isOwnerTeam(team))
        throw new ValidationError('cannot remove the last member of the Owners team: an organization needs an owner');
      await teams.setMemberCount(team.id, remaining);
      await teams.dropOrgMembershipsWithoutTeam(org.id, [user.id]);
    });
  }

  // ---- repositories ----

  /** The team's repositories with the caller's own permission on each (not the team's). */
  async listRepos(doer: User, team: Team, page: ListOptions): Promise<{ repos: RepositoryDetails[]; total: number }> {
    const { repos, total } = await this.teams.pageRepositories(team, page);
    return { repos: await this.repositories.details(doer, repos), total };
  }

  private async teamHasRepo(team: Team, repo: RepoWithOwner): Promise<boolean> {
    if (repo.ownerId !== team.orgId) return false;
    if (team.includesAllRepositories) return true;
    return this.teams.hasRepositoryLink(team.id, repo.id);
  }

  /** The repository is looked up in the team's organization; the `{org}` path segment is not used (as Forgejo). */
  async getRepo(doer: User, team: Team, org: User, repoName: string): Promise<RepositoryDetails> {
    const repo = await this.repoInOrg(org, repoName);
    if (!(await this.teamHasRepo(team, repo))) throw new NotFoundError();
    return (await this.repositories.details(doer, [repo]))[0];
  }

  async addRepo(doer: User, team: Team, org: User, repoName: string): Promise<void> {
    const repo = await this.repoInOrg(org, repoName);
    await this.requireRepoAdmin(doer, repo);
    if (team.includesAllRepositories) return;
    await this.deps.transactions.run(async (repos) => {
      const teams = repos.teams;
      if (await teams.hasRepositoryLink(team.id, repo.id)) return;
      await teams.addRepositoryLink(org.id, team.id, repo.id);
    });
  }

  /** Removes the repository from the team only. */
  async removeRepo(doer: User, team: Team, org: User, repoName: string): Promise<void> {
    const repo = await this.repoInOrg(org, repoName);
    await this.requireRepoAdmin(doer, repo);
    if (team.includesAllRepositories) {
      throw new ValidationError(
        'the team includes all repositories of the organization: switch includes_all_repositories off first',
      );
    }
    await this.deps.transactions.run((repos) => repos.teams.removeRepositoryLink(team.id, repo.id));
  }

  // ---- activity ----

  /**
   * Actions on the team's repositories from the organization's feed, private ones included, newest first;
   * `date` (YYYY-MM-DD) limits them to that day (UTC). Non-admins do not see actors who hide their activity
   * or are private, except themselves and the organization. Only rows the caller may see now (its access to each
   * repository's units, `publicOnly` for a public-only token).
   */
  async feeds(
    doer: User,
    publicOnly: boolean,
    team: Team,
    org: User,
    date: string | undefined,
    page: ListOptions,
  ): Promise<{ activities: FeedEntry[]; total: number }> {
    const repoIds = await this.teams.repositoryIds(team);
    const { items, total } = await this.orgFeeds.listForTeam(doer, publicOnly, org.id, repoIds, date, page);
    return { activities: items, total };
  }
}
