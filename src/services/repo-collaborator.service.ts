// A repository's collaborators (Forgejo: routers/api/v1/repo/collaborators.go, services/repository/collaboration.go).
// A collaboration is a row the permission rule reads (src/domain/access/repo-permission.ts) and the list filters
// read (db/access-filters.ts): adding or removing one changes what the user may do over the API and git at once.
import type { User } from '../db/entities.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { AccessMode, accessModeName, parseAccessMode } from '../domain/access/modes.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { isRepoAdmin } from '../domain/access/repo-permission.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import type { RepoPermissionService, RepoWithPermission } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export class RepoCollaboratorService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly permissions: RepoPermissionService,
  ) {}

  list(repo: RepoWithOwner, page: ListOptions): Promise<Page<User>> {
    return this.deps.repos.collaborations.list(repo.id, page);
  }

  /** The user named; one that does not exist is a 422, as in Forgejo. */
  private async userNamed(name: string): Promise<User> {
    const user = await this.deps.repos.users.byLowerName(name.toLowerCase());
    if (!user) throw new ValidationError(`user does not exist [uid: 0, name: ${name}]`);
    return user;
  }

  async isCollaborator(repo: RepoWithOwner, name: string): Promise<boolean> {
    const user = await this.userNamed(name);
    return (await this.deps.repos.collaborations.find(repo.id, user.id)) !== null;
  }

  /** Adds the user, or changes their mode; `write` unless another is asked for. */
  async add(repo: RepoWithOwner, name: string, permission: string | undefined): Promise<void> {
    const user = await this.userNamed(name);
    if (isOrganization(user)) throw new ValidationError('an organization cannot be a collaborator');
    if (user.id === repo.ownerId) throw new ValidationError('the owner of a repository cannot be its collaborator');
    if (!user.isActive) throw new ValidationError(`collaborator's account is inactive [name: ${user.name}]`);
    if (await this.deps.repos.issueAudience.isBlocked(repo.ownerId, user.id))
      throw new ForbiddenError('user is blocked by the repository owner');
    const mode = permission === undefined ? AccessMode.write : parseAccessMode(permission);
    await this.deps.repos.collaborations.save(repo.id, user.id, mode);
  }

  async remove(repo: RepoWithOwner, name: string): Promise<void> {
    const user = await this.userNamed(name);
    await this.deps.repos.collaborations.remove(repo.id, user.id);
  }

  /**
   * What the named user may do in the repository. Site admins and repository admins may ask about anyone, others
   * about themselves (Forgejo: GetRepoPermissions).
   */
  async permissionOf(
    access: RepoWithPermission,
    doer: User,
    name: string,
  ): Promise<{ user: User; permission: string }> {
    const user = await this.deps.repos.users.byLowerName(name.toLowerCase());
    if (!user) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`);
    // Per caller and user named, so not a guard's.
    if (!doer.isAdmin && doer.id !== user.id && !isRepoAdmin(access.permission)) {
      throw new ForbiddenError(
        'Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own',
      );
    }
    const permission = await this.permissions.forRepo(user, access.repo);
    return { user, permission: accessModeName(permission.mode) };
  }
}
