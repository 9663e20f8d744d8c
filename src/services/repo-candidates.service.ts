// Who may be assigned to a repository's issues and pull requests, and who may be asked to review (Forgejo:
// routers/api/v1/repo/collaborators.go GetAssignees, GetReviewers): the owner, collaborators and members of the
// organization's teams that reach the repository, each kept by their permission computed by the access rules.
import type { User } from '../db/entities.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { UnitType } from '../domain/access/modes.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { canReadUnit, canWriteUnit, type RepoPermission } from '../domain/access/repo-permission.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** Every collaborator in one page: a repository's collaborators are a short list. */
const ALL = { page: 1, skip: 0, limit: 100_000 };

export class RepoCandidatesService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly permissions: RepoPermissionService,
  ) {}

  /** Users who may write issues or pull requests, by name. */
  assignees(repo: RepoWithOwner): Promise<User[]> {
    return this.keep(repo, (p) => canWriteUnit(p, UnitType.issues) || canWriteUnit(p, UnitType.pulls));
  }

  /** Users who may read pull requests, but not the caller (Forgejo leaves the doer out). */
  async reviewers(repo: RepoWithOwner, doer: User): Promise<User[]> {
    return (await this.keep(repo, (p) => canReadUnit(p, UnitType.pulls))).filter((user) => user.id !== doer.id);
  }

  private async keep(repo: RepoWithOwner, rule: (permission: RepoPermission) => boolean): Promise<User[]> {
    const kept: User[] = [];
    for (const user of await this.candidates(repo)) {
      if (user.isActive && !user.prohibitLogin && rule(await this.permissions.forRepo(user, repo))) kept.push(user);
    }
    return kept.sort((a, b) => a.lowerName.localeCompare(b.lowerName));
  }

  private async candidates(repo: RepoWithOwner): Promise<User[]> {
    const { collaborations, teams, users } = this.deps.repos;
    const found = new Map<number, User>();
    if (!isOrganization(repo.owner)) found.set(repo.owner.id, repo.owner);
    for (const user of (await collaborations.list(repo.id, ALL)).items) found.set(user.id, user);
    if (isOrganization(repo.owner)) {
      const memberIds = new Set<number>();
      for (const team of await teams.withRepository(repo.ownerId, repo.id))
        for (const id of await teams.memberIds(team.id)) memberIds.add(id);
      for (const id of memberIds) {
        const user = found.has(id) ? null : await users.byId(id);
        if (user) found.set(id, user);
      }
    }
    return [...found.values()];
  }
}
