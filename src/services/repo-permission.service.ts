// A viewer's permission on repositories: the database facts about the viewer (src/db/repo-permissions.ts), then the
// pure rule of src/domain/access/repo-permission.ts. The same rule as a filter for lists is readableRepositoriesWhere()
// (db/access-filters.ts).
import type { User } from '../db/entities.ts';
import type { RepoWithOwner, RepoWithPermission } from '../db/repository-details.ts';
import type { RepoAccessRepository } from '../db/repo-access.repository.ts';
import { permissionsOnRepos, permissionWithFacts, repoFactsOf, viewerTeam } from '../db/repo-permissions.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { canSeeContent, type ContentUnit } from '../domain/access/content-visibility.ts';
import { NO_FACTS, type RepoPermission, repoPermission, type ViewerFacts } from '../domain/access/repo-permission.ts';
import type { ServiceDeps } from './service-deps.ts';

export * from '../domain/access/repo-permission.ts';

export type { RepoWithOwner, RepoWithPermission };

export class RepoPermissionService {
  private readonly access: RepoAccessRepository;

  constructor(deps: ServiceDeps) {
    this.access = deps.repos.repoAccess;
  }

  /** `access` reads inside a caller's transaction when given. */
  async forRepo(viewer: User | null, repo: RepoWithOwner, access = this.access): Promise<RepoPermission> {
    return (await this.forRepos(viewer, [repo], access)).get(repo.id)!;
  }

  /** A repository of the org by lower name with the viewer's permission on it, read together. */
  async inOrg(viewer: User, org: User, lowerName: string): Promise<RepoWithPermission | null> {
    const found = await this.access.repositoryInOrgWithFacts(org, lowerName, viewer.id);
    return found && { repo: found.repo, permission: permissionWithFacts(viewer, found.repo, found.facts) };
  }

  /** Permissions for many repositories in a fixed number of queries. */
  forRepos(
    viewer: User | null,
    repos: readonly RepoWithOwner[],
    access = this.access,
  ): Promise<Map<number, RepoPermission>> {
    return permissionsOnRepos(access, viewer, repos);
  }

  /** Each user's permission on one repository, in a fixed number of queries (the readers of an issue event). */
  async forUsers(
    users: readonly User[],
    repo: RepoWithOwner,
    access = this.access,
  ): Promise<Map<number, RepoPermission>> {
    const asked = users.filter((user) => !user.isAdmin).map((user) => user.id);
    const facts = asked.length > 0 ? await this.usersFacts(asked, repo, access) : new Map<number, ViewerFacts>();
    const repoFacts = repoFactsOf(repo);
    return new Map(users.map((user) => [user.id, repoPermission(user, repoFacts, facts.get(user.id) ?? NO_FACTS)]));
  }

  /**
   * Of `users`, those who see `unit` of the repository (content-visibility.ts). Facts only ever add access, so they
   * are asked only for users the repository's own access does not let in already (a public repository: none).
   */
  async usersWhoSee(
    users: readonly User[],
    repo: RepoWithOwner,
    unit: ContentUnit,
    access = this.access,
  ): Promise<User[]> {
    const repoFacts = repoFactsOf(repo);
    const undecided = users.filter((user) => !canSeeContent(repoPermission(user, repoFacts, NO_FACTS), unit));
    const permissions = undecided.length > 0 ? await this.forUsers(undecided, repo, access) : new Map();
    const asked = new Set(undecided);
    return users.filter((user) => !asked.has(user) || canSeeContent(permissions.get(user.id)!, unit));
  }

  private async usersFacts(
    userIds: number[],
    repo: RepoWithOwner,
    access: RepoAccessRepository,
  ): Promise<Map<number, ViewerFacts>> {
    const inOrg = isOrganization(repo.owner);
    const [collaborators, members, teams] = await Promise.all([
      access.listCollaborators(userIds, repo.id),
      inOrg ? access.listOrgMembers(userIds, repo.ownerId) : [],
      inOrg ? access.listTeamsOfMembers(userIds, repo.ownerId, repo.id) : [],
    ]);
    const memberIds = new Set(members.map((member) => member.userId));
    const facts = new Map<number, ViewerFacts>();
    for (const userId of userIds) {
      facts.set(userId, {
        collaborations: new Map(
          collaborators.filter((c) => c.userId === userId).map((c) => [repo.id, c.accessMode] as const),
        ),
        orgMemberships: new Set(memberIds.has(userId) ? [repo.ownerId] : []),
        teams: teams.filter((team) => team.members.some((member) => member.userId === userId)).map(viewerTeam),
      });
    }
    return facts;
  }
}
