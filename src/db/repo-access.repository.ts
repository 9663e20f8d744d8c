// The rows that give users access to repositories: collaborations, org memberships and the teams of an org
// as they apply to its repositories.
import type { DbClient } from './prisma.ts';

export class RepoAccessRepository {
  constructor(private readonly client: DbClient) {}

  listCollaborations(userId: number, repoIds: number[]) {
    return this.client.collaboration.findMany({
      where: { userId, repoId: { in: repoIds } },
      select: { repoId: true, accessMode: true },
    });
  }

  listMemberOrgIds(userId: number, orgIds: number[]) {
    return this.client.orgUser.findMany({ where: { userId, orgId: { in: orgIds } }, select: { orgId: true } });
  }

  /** The user's teams in these orgs, with their unit modes and which of these repositories they hold. */
  listMemberTeams(userId: number, orgIds: number[], repoIds: number[]) {
    return this.client.team.findMany({
      where: { orgId: { in: orgIds }, members: { some: { userId } } },
      select: {
        orgId: true,
        accessMode: true,
        includesAllRepositories: true,
        units: { select: { type: true, accessMode: true } },
        repos: { where: { repoId: { in: repoIds } }, select: { repoId: true } },
      },
    });
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
  listTeamsOfMembers(userIds: number[], orgId: number, repoId: number) {
    return this.client.team.findMany({
      where: { orgId, members: { some: { userId: { in: userIds } } } },
      select: {
        orgId: true,
        accessMode: true,
        includesAllRepositories: true,
        members: { where: { userId: { in: userIds } }, select: { userId: true } },
        units: { select: { type: true, accessMode: true } },
        repos: { where: { repoId }, select: { repoId: true } },
      },
    });
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
