// Forks (Forgejo: routers/api/v1/repo/fork.go, services/repository/fork.go): a new repository of the caller or of
// one of their organizations, whose git directory is a clone of the original's, marked as its fork.
import type { User } from '../db/entities.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { ConflictError, ForbiddenError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { cloneBare } from '../infra/git/repository.ts';
import type { OrgService } from './org.service.ts';
import type { RepositoryCreationService } from './repository-creation.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export class RepoForkService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly creation: RepositoryCreationService,
    private readonly orgs: OrgService,
  ) {}

  list(repo: RepoWithOwner, viewer: User | null, publicOnly: boolean, page: ListOptions): Promise<Page<RepoWithOwner>> {
    return this.deps.repos.repositories.listForks(repo.id, viewer, publicOnly, page.skip, page.limit);
  }

  /** Into `organization` when named (the caller must be able to create repositories there), else the caller's. */
  async fork(
    source: RepoWithOwner,
    doer: User,
    input: { organization?: string; name?: string },
  ): Promise<RepoWithOwner> {
    let owner = doer;
    if ((input.organization ?? '') !== '') {
      const org = await this.deps.repos.users.byLowerName(input.organization!.toLowerCase());
      if (!org || !isOrganization(org))
        throw new ValidationError(`organization does not exist [name: ${input.organization}]`);
      if (!doer.isAdmin && !(await this.orgs.canCreateRepo(org.id, doer.id)))
        throw new ForbiddenError(`User is not allowed to create repositories in organization ${org.name}`);
      owner = org;
    }
    if (owner.id === source.ownerId) throw new ConflictError('a repository cannot be forked into its own owner');
    if (await this.deps.repos.repositories.findForkOf(source.id, owner.id))
      throw new ConflictError(
        `repository is already forked by user [uname: ${owner.name}, repo path: ${source.ownerName}/${source.name}]`,
      );
    const from = this.deps.stores.repositories.directory(source.ownerName, source.name);
    return this.creation.insert(
      doer,
      owner,
      {
        name: (input.name ?? '').trim() || source.name,
        description: source.description,
        website: source.website,
        isPrivate: source.isPrivate,
        defaultBranch: source.defaultBranch,
        forkOf: source.id,
      },
      { build: (dir) => cloneBare(from, dir) },
    );
  }
}
