// Teams of organizations: the Team rows with their units (TeamUnit), members (TeamUser) and repository links
// (TeamRepo), the counters on Team that count them, and the org memberships that team membership implies.
// A team with includesAllRepositories has no TeamRepo rows: it covers every repository of its organization.
import { translated } from '../infra/database/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { TeamUnitGrant } from '../domain/access/team-units.ts';
import type { TeamChangesRow } from './entities.ts';
import type { DbClient, Prisma, Team, User } from './prisma.ts';

/** A team with its unit grants, as team answers show it. */
export interface TeamWithUnits extends Team {
  units: TeamUnitGrant[];
}

/** A unit grant as a team stores it. */
export interface TeamUnitRow {
  type: number;
  accessMode: number;
}

type TeamRepositoryScope = Pick<Team, 'id' | 'orgId' | 'includesAllRepositories'>;

const UNITS_SELECT = { units: { select: { type: true, accessMode: true } } } as const;
// The shape of RepoWithOwner (repository-details.ts).
const REPOSITORY_INCLUDE = { owner: true, units: true } as const;
const BY_NAME = [{ lowerName: 'asc' }, { id: 'asc' }] satisfies Prisma.TeamOrderByWithRelationInput[];

export class TeamRepository {
  constructor(private readonly client: DbClient) {}

  // ---- teams ----

  findById(id: number): Promise<Team | null> {
    return this.client.team.findUnique({ where: { id } });
  }

  findByIdOrThrow(id: number): Promise<Team> {
    return this.client.team.findUniqueOrThrow({ where: { id } });
  }

  async pageByOrg(orgId: number, page: ListOptions) {
    const where = { orgId };
    const [teams, total] = await Promise.all([
      this.client.team.findMany({ where, include: UNITS_SELECT, orderBy: BY_NAME, skip: page.skip, take: page.limit }),
      this.client.team.count({ where }),
    ]);
    return { teams, total };
  }

  /** The user's teams, in organizations of the given visibilities when `orgVisibilities` is set. */
  async pageByMember(userId: number, orgVisibilities: number[] | null, page: ListOptions) {
    const where = {
      members: { some: { userId } },
      ...(orgVisibilities ? { org: { visibility: { in: orgVisibilities } } } : {}),
    };
    const [teams, total] = await Promise.all([
      this.client.team.findMany({
        where,
        include: { ...UNITS_SELECT, org: true },
        orderBy: BY_NAME,
        skip: page.skip,
        take: page.limit,
      }),
      this.client.team.count({ where }),
    ]);
    return { teams, total };
  }

  /** Names and descriptions of an org's teams, of those `memberId` is in when given. */
  listSearchFields(
    orgId: number,
    memberId: number | null,
  ): Promise<Array<{ id: number; lowerName: string; description: string }>> {
    return this.client.team.findMany({
      where: { orgId, ...(memberId === null ? {} : { members: { some: { userId: memberId } } }) },
      select: { id: true, lowerName: true, description: true },
    });
  }

  /** The teams with their units, in no particular order. */
  findManyWithUnits(ids: number[]) {
    return this.client.team.findMany({ where: { id: { in: ids } }, include: UNITS_SELECT });
  }

  async existsByLowerName(orgId: number, lowerName: string, exceptTeamId?: number): Promise<boolean> {
    const existing = await this.client.team.findFirst({
      where: { orgId, lowerName, ...(exceptTeamId ? { id: { not: exceptTeamId } } : {}) },
      select: { id: true },
    });
    return existing !== null;
  }

  create(data: Prisma.TeamUncheckedCreateInput): Promise<Team> {
    return translated({ taken: 'team name' }, () => this.client.team.create({ data }));
  }

  update(teamId: number, data: TeamChangesRow): Promise<Team> {
    return translated({ taken: 'team name', gone: 'team' }, () =>
      this.client.team.update({ where: { id: teamId }, data }),
    );
  }

  /** Units, members and repository links cascade with the team. */
  async delete(teamId: number): Promise<void> {
    await translated({ gone: 'team' }, () => this.client.team.delete({ where: { id: teamId } }));
  }

  // ---- units ----

  listUnits(teamId: number): Promise<TeamUnitRow[]> {
    return this.client.teamUnit.findMany({ where: { teamId }, select: { type: true, accessMode: true } });
  }

  async addUnits(orgId: number, teamId: number, units: readonly TeamUnitRow[]): Promise<void> {
    await this.client.teamUnit.createMany({ data: units.map((unit) => ({ orgId, teamId, ...unit })) });
  }

  async replaceUnits(orgId: number, teamId: number, units: readonly TeamUnitRow[]): Promise<void> {
    await this.client.teamUnit.deleteMany({ where: { teamId } });
    await this.addUnits(orgId, teamId, units);
  }

  // ---- members ----

  async isMember(teamId: number, userId: number): Promise<boolean> {
    return (
      (await this.client.teamUser.findUnique({
        where: { teamId_userId: { teamId, userId } },
        select: { id: true },
      })) !== null
    );
  }

  async memberIds(teamId: number): Promise<number[]> {
    const members = await this.client.teamUser.findMany({ where: { teamId }, select: { userId: true } });
    return members.map((member) => member.userId);
  }

  /** Ids of the teams of an organization a user belongs to. */
  async teamIdsOfMember(orgId: number, userId: number): Promise<number[]> {
    const rows = await this.client.teamUser.findMany({ where: { orgId, userId }, select: { teamId: true } });
    return rows.map((row) => row.teamId);
  }

  /** The teams of an organization with these lower-case names. */
  listByLowerNames(orgId: number, lowerNames: readonly string[]): Promise<Team[]> {
    return this.client.team.findMany({ where: { orgId, lowerName: { in: [...lowerNames] } } });
  }

  countMembers(teamId: number): Promise<number> {
    return this.client.teamUser.count({ where: { teamId } });
  }

  async pageMembers(teamId: number, page: ListOptions): Promise<{ users: User[]; total: number }> {
    const where = { teamUsers: { some: { teamId } } };
    const [users, total] = await Promise.all([
      this.client.user.findMany({
        where,
        orderBy: [{ fullName: 'asc' }, { lowerName: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.user.count({ where }),
    ]);
    return { users, total };
  }

  /** The membership row and the team's member count. */
  async addMember(orgId: number, teamId: number, userId: number): Promise<void> {
    await this.client.teamUser.create({ data: { orgId, teamId, userId } });
    await this.client.team.update({ where: { id: teamId }, data: { numMembers: { increment: 1 } } });
  }

  /** Deletes the membership row; the number of rows deleted (0 or 1). */
  async deleteMember(teamId: number, userId: number): Promise<number> {
    const { count } = await this.client.teamUser.deleteMany({ where: { teamId, userId } });
    return count;
  }

  async setMemberCount(teamId: number, numMembers: number): Promise<void> {
    await this.client.team.update({ where: { id: teamId }, data: { numMembers } });
  }

  /** Makes the user an org member unless they are one already (then their visibility stays). */
  async ensureOrgMembership(orgId: number, userId: number, isPublic: boolean): Promise<void> {
    await this.client.orgUser.upsert({
      where: { userId_orgId: { userId, orgId } },
      create: { userId, orgId, isPublic },
      update: {},
    });
  }

  /** Ends the org membership of those of the users who are in no team of the org. */
  async dropOrgMembershipsWithoutTeam(orgId: number, userIds: number[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.client.orgUser.deleteMany({
      where: { orgId, userId: { in: userIds }, user: { is: { teamUsers: { none: { orgId } } } } },
    });
  }

  // ---- repositories ----

  /** A repository of the organization by its lower-cased name, with owner and units. */
  findOrgRepository(orgId: number, lowerName: string) {
    return this.client.repository.findUnique({
      where: { ownerId_lowerName: { ownerId: orgId, lowerName } },
      include: REPOSITORY_INCLUDE,
    });
  }

  async orgRepositoryIds(orgId: number): Promise<number[]> {
    const repos = await this.client.repository.findMany({ where: { ownerId: orgId }, select: { id: true } });
    return repos.map((repo) => repo.id);
  }

  private repositoryFilter(team: TeamRepositoryScope): Prisma.RepositoryWhereInput {
    return team.includesAllRepositories
      ? { ownerId: team.orgId }
      : { ownerId: team.orgId, teamRepos: { some: { teamId: team.id } } };
  }

  async pageRepositories(team: TeamRepositoryScope, page: ListOptions) {
    const where = this.repositoryFilter(team);
    const [repos, total] = await Promise.all([
      this.client.repository.findMany({
        where,
        include: REPOSITORY_INCLUDE,
        orderBy: [{ lowerName: 'asc' }, { id: 'asc' }],
        skip: page.skip,
        take: page.limit,
      }),
      this.client.repository.count({ where }),
    ]);
    return { repos, total };
  }

  async repositoryIds(team: TeamRepositoryScope): Promise<number[]> {
    const repos = await this.client.repository.findMany({ where: this.repositoryFilter(team), select: { id: true } });
    return repos.map((repo) => repo.id);
  }

  /** Whether the team has an explicit link to the repository (teams with all repositories have none). */
  async hasRepositoryLink(teamId: number, repoId: number): Promise<boolean> {
    return (
      (await this.client.teamRepo.findUnique({
        where: { teamId_repoId: { teamId, repoId } },
        select: { id: true },
      })) !== null
    );
  }

  /** The link row and the team's repository count. */
  async addRepositoryLink(orgId: number, teamId: number, repoId: number): Promise<void> {
    await this.client.teamRepo.create({ data: { orgId, teamId, repoId } });
    await this.client.team.update({ where: { id: teamId }, data: { numRepos: { increment: 1 } } });
  }

  /** The link row and the team's repository count, when there was a link. */
  async removeRepositoryLink(teamId: number, repoId: number): Promise<void> {
    const { count } = await this.client.teamRepo.deleteMany({ where: { teamId, repoId } });
    if (count > 0) await this.client.team.update({ where: { id: teamId }, data: { numRepos: { decrement: 1 } } });
  }

  /** Replaces the team's links (not its count) by links to the given repositories. */
  async replaceRepositoryLinks(orgId: number, teamId: number, repoIds: readonly number[]): Promise<void> {
    await this.client.teamRepo.deleteMany({ where: { teamId } });
    if (repoIds.length > 0)
      await this.client.teamRepo.createMany({ data: repoIds.map((repoId) => ({ orgId, teamId, repoId })) });
  }
}
