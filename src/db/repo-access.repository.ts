// The rows that give users access to repositories: collaborations, org memberships and the teams of an org
// as they apply to its repositories.
import type { DbClient, User } from './prisma.ts';
import type { OrgRepositoryFactsRow, RepositoryHotQueries } from './hot-repository-queries.ts';
import type { RepoWithOwner } from './repository-details.ts';
import { repoInclude } from './repository-rows.repository.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';

const TEAM_COLUMNS = { id: true, orgId: true, accessMode: true, includesAllRepositories: true } as const;

/** A team as it gives access: its level, its unit modes, and which of the asked repositories it holds. */
export interface TeamAccess {
  id: number;
  orgId: number;
  accessMode: number;
  includesAllRepositories: boolean;
  units: Array<{ type: number; accessMode: number }>;
  repos: Array<{ repoId: number }>;
}

/** What gives one user access to repositories: collaborations, org memberships and teams. */
export interface AccessFacts {
  collaborations: Array<{ repoId: number; accessMode: number }>;
  orgIds: number[];
  teams: TeamAccess[];
}

/** The facts one statement read on a repository of an org, in the shape the lists of facts answer. */
function accessFactsOf(row: OrgRepositoryFactsRow, repoId: number, orgId: number): AccessFacts {
  return {
    collaborations: row.collaboration === null ? [] : [{ repoId, accessMode: row.collaboration }],
    orgIds: row.member ? [orgId] : [],
    teams: row.teams.map(({ holdsRepository, ...team }) => ({ ...team, repos: holdsRepository ? [{ repoId }] : [] })),
  };
}

/** A repository read with the facts of orgRepositoryFacts: in an org all of them, elsewhere the collaboration alone. */
function withOwnersFacts(found: { repo: RepoWithOwner; facts: OrgRepositoryFactsRow }): {
  repo: RepoWithOwner;
  facts: AccessFacts;
} {
  const facts = accessFactsOf(found.facts, found.repo.id, found.repo.ownerId);
  return { repo: found.repo, facts: isOrganization(found.repo.owner) ? facts : { ...facts, orgIds: [], teams: [] } };
}

export class RepoAccessRepository {
  constructor(
    private readonly client: DbClient,
    /** Prepared statements for one repository's facts (every repository request asks); absent inside a transaction. */
    private readonly hot?: RepositoryHotQueries,
  ) {}

  /**
   * The user's collaboration on one repository of an org, their membership and their teams there: what
   * listCollaborations, listMemberOrgIds and listMemberTeams answer for it, read by one hot statement.
   */
  async factsOnOrgRepository(userId: number, repoId: number, orgId: number): Promise<AccessFacts> {
    if (this.hot) return accessFactsOf(await this.hot.orgRepositoryFacts(userId, repoId, orgId), repoId, orgId);
    const [collaborations, memberships, teams] = await Promise.all([
      this.listCollaborations(userId, [repoId]),
      this.listMemberOrgIds(userId, [orgId]),
      this.listMemberTeams(userId, [orgId], [repoId]),
    ]);
    return { collaborations, orgIds: memberships.map((m) => m.orgId), teams };
  }

  /**
   * A repository by id with the user's facts on it: what factsOnOrgRepository answers in an org, the collaboration
   * alone elsewhere (as the lists of facts answer for a user's repository).
   */
  async repositoryByIdWithFacts(
    id: number,
    userId: number,
  ): Promise<{ repo: RepoWithOwner; facts: AccessFacts } | null> {
    if (!this.hot) {
      const repo = await this.client.repository.findUnique({ where: { id }, include: repoInclude });
      if (!repo) return null;
      if (isOrganization(repo.owner)) return { repo, facts: await this.factsOnOrgRepository(userId, id, repo.ownerId) };
      return { repo, facts: { collaborations: await this.listCollaborations(userId, [id]), orgIds: [], teams: [] } };
    }
    const found = await this.hot.repositoryByIdWithFacts(id, userId);
    return found && withOwnersFacts(found);
  }

  /** The repositories of those ids that exist, each with the user's facts on it as repositoryByIdWithFacts answers. */
  async repositoriesByIdsWithFacts(
    ids: readonly number[],
    userId: number,
  ): Promise<Array<{ repo: RepoWithOwner; facts: AccessFacts }>> {
    if (this.hot) return (await this.hot.repositoriesByIdsWithFacts(ids, userId)).map(withOwnersFacts);
    const found = await Promise.all(ids.map((id) => this.repositoryByIdWithFacts(id, userId)));
    return found.filter((one) => one !== null);
  }

  /** A repository of the org by lower name, with the user's facts on it: what factsOnOrgRepository answers. */
  async repositoryInOrgWithFacts(
    org: User,
    lowerName: string,
    userId: number,
  ): Promise<{ repo: RepoWithOwner; facts: AccessFacts } | null> {
    if (this.hot) {
      const found = await this.hot.repositoryInOrgWithFacts(org, lowerName, userId);
      return found && { repo: found.repo, facts: accessFactsOf(found.facts, found.repo.id, org.id) };
    }
    const repo = await this.client.repository.findUnique({
      where: { ownerId_lowerName: { ownerId: org.id, lowerName } },
      include: repoInclude,
    });
    return repo && { repo, facts: await this.factsOnOrgRepository(userId, repo.id, org.id) };
  }

  async listCollaborations(userId: number, repoIds: number[]): Promise<Array<{ repoId: number; accessMode: number }>> {
    if (this.hot && repoIds.length === 1) {
      const accessMode = await this.hot.collaboration(userId, repoIds[0]);
      return accessMode === null ? [] : [{ repoId: repoIds[0], accessMode }];
    }
    if (this.hot) return this.hot.collaborations(userId, repoIds);
    return this.client.collaboration.findMany({
      where: { userId, repoId: { in: repoIds } },
      select: { repoId: true, accessMode: true },
    });
  }

  async listMemberOrgIds(userId: number, orgIds: number[]): Promise<Array<{ orgId: number }>> {
    if (this.hot && orgIds.length === 1)
      return (await this.hot.isOrgMember(userId, orgIds[0])) ? [{ orgId: orgIds[0] }] : [];
    if (this.hot) return (await this.hot.memberOrgIds(userId, orgIds)).map((orgId) => ({ orgId }));
    return this.client.orgUser.findMany({ where: { userId, orgId: { in: orgIds } }, select: { orgId: true } });
  }

  /** The user's teams in these orgs, with their unit modes and which of these repositories they hold. */
  async listMemberTeams(userId: number, orgIds: number[], repoIds: number[]): Promise<TeamAccess[]> {
    const teams =
      this.hot && orgIds.length === 1
        ? await this.hot.memberTeams(userId, orgIds[0])
        : await this.client.team.findMany({
            where: { orgId: { in: orgIds }, members: { some: { userId } } },
            select: TEAM_COLUMNS,
          });
    return this.withUnitsAndRepos(teams, repoIds);
  }

  /** Which of these users collaborate on the repository, and how. */
  listCollaborators(userIds: number[], repoId: number) {
    return this.client.collaboration.findMany({
      where: { repoId, userId: { in: userIds } },
      select: { userId: true, accessMode: true },
    });
  }

  /** Which of these users belong to the org. */
  listOrgMembers(userIds: number[], orgId: number) {
    return this.client.orgUser.findMany({ where: { orgId, userId: { in: userIds } }, select: { userId: true } });
  }

  /** The org's teams any of these users belong to: which of them, the unit modes, and whether it holds the repository. */
  async listTeamsOfMembers(userIds: number[], orgId: number, repoId: number) {
    const teams = await this.client.team.findMany({
      where: { orgId, members: { some: { userId: { in: userIds } } } },
      select: TEAM_COLUMNS,
    });
    if (teams.length === 0) return [];
    // Asked apart: nested in the first query, Prisma asks for members even when it found no team.
    const members = await this.client.teamUser.findMany({
      where: { teamId: { in: teams.map((team) => team.id) }, userId: { in: userIds } },
      select: { teamId: true, userId: true },
    });
    const withMembers = teams.map((team) => ({
      ...team,
      members: members.filter((member) => member.teamId === team.id).map(({ userId }) => ({ userId })),
    }));
    return this.withUnitsAndRepos(withMembers, [repoId]);
  }

  /**
   * The teams with their unit modes and which of these repositories they hold. Asked apart, and only for teams
   * there are: nested in the first query, Prisma asks for both even when it found no team.
   */
  private async withUnitsAndRepos<T extends { id: number }>(
    teams: T[],
    repoIds: number[],
  ): Promise<Array<T & Pick<TeamAccess, 'units' | 'repos'>>> {
    if (teams.length === 0) return [];
    const teamIds = teams.map((team) => team.id);
    const [units, repos] = await Promise.all([
      this.client.teamUnit.findMany({
        where: { teamId: { in: teamIds } },
        select: { teamId: true, type: true, accessMode: true },
      }),
      this.client.teamRepo.findMany({
        where: { teamId: { in: teamIds }, repoId: { in: repoIds } },
        select: { teamId: true, repoId: true },
      }),
    ]);
    return teams.map((team) => ({
      ...team,
      units: units.filter((unit) => unit.teamId === team.id),
      repos: repos.filter((repo) => repo.teamId === team.id),
    }));
  }

  /** Teams of the org that include all repositories or that the user belongs to and may create repositories in. */
  listTeamsForNewRepo(orgId: number, userId: number) {
    return this.client.team.findMany({
      where: {
        orgId,
        OR: [{ includesAllRepositories: true }, { canCreateOrgRepo: true, members: { some: { userId } } }],
      },
      select: {
        id: true,
        accessMode: true,
        includesAllRepositories: true,
        members: { where: { userId }, select: { id: true } },
      },
    });
  }

  async addTeamRepo(orgId: number, teamId: number, repoId: number): Promise<void> {
    await this.client.teamRepo.create({ data: { orgId, teamId, repoId } });
    await this.client.team.update({ where: { id: teamId }, data: { numRepos: { increment: 1 } } });
  }

  addCollaborator(repoId: number, userId: number, accessMode: number) {
    return this.client.collaboration.create({ data: { repoId, userId, accessMode } });
  }
}
