// Repository directories without a database row (Forgejo: services/repository/adopt.go): list, adopt, delete.
// The file system is read at request time; names that are not valid owner/repo names never become paths.
import type { User } from '../db/entities.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { compileGlob, type GlobMatcher } from '../domain/glob.ts';
import { ownerNameProblem, repoNameProblem } from '../domain/names.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { RepositoryCreationService } from './repository-creation.service.ts';
import { userNotFound } from '../domain/name-not-found.ts';

/** Everything, where Forgejo skips a query half that is not a valid glob. */
const ANY_NAME: GlobMatcher = { test: () => true };

export class UnadoptedService {
  private readonly repos: RepositoryRowsRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly repoCreation: RepositoryCreationService,
  ) {
    this.repos = deps.repos.repositories;
  }

  private get store() {
    return this.deps.stores.repositories;
  }

  async list(pattern: string, page: ListOptions): Promise<{ names: string[]; total: number }> {
    const [ownerGlob, repoGlob] = pattern
      ? [pattern.split('/')[0], pattern.includes('/') ? pattern.slice(pattern.indexOf('/') + 1) : '*']
      : ['*', '*'];
    const ownerMatch = compileGlob(ownerGlob) ?? ANY_NAME;
    const repoMatch = compileGlob(repoGlob) ?? ANY_NAME;
    const folders = this.store
      .list()
      .filter(
        ({ owner, name }) =>
          owner === owner.toLowerCase() &&
          name === name.toLowerCase() &&
          ownerNameProblem(owner) === null &&
          repoNameProblem(name) === null &&
          ownerMatch.test(owner) &&
          repoMatch.test(name),
      );
    if (folders.length === 0) return { names: [], total: 0 };
    const ownerNames = [...new Set(folders.map((f) => f.owner))];
    const owners = await this.repos.listOwnersByLowerNames(ownerNames);
    const ownerIds = new Map(owners.map((o) => [o.lowerName, o.id]));
    const rows = await this.repos.listNamesByOwners(owners.map((o) => o.id));
    const known = new Set(rows.map((r) => `${r.ownerId}/${r.lowerName}`));
    const names = folders
      .filter(({ owner, name }) => ownerIds.has(owner) && !known.has(`${ownerIds.get(owner)}/${name}`))
      .map(({ owner, name }) => `${owner}/${name}`);
    return { names: names.slice(page.skip, page.skip + page.limit), total: names.length };
  }

  /** The owner and directory of an unadopted repository; 404 for invalid names, unknown owners, rows that exist, or no directory. */
  private async locate(ownerName: string, repoName: string): Promise<{ owner: User }> {
    if (ownerNameProblem(ownerName) !== null || repoNameProblem(repoName) !== null)
      throw new NotFoundError(`repository does not exist [${ownerName}/${repoName}]`);
    const owner = await this.deps.repos.users.byLowerName(ownerName.toLowerCase());
    if (!owner) throw userNotFound(ownerName);
    const existing = await this.repos.findIdByOwner(owner.id, repoName.toLowerCase());
    if (existing) throw new NotFoundError(`repository already exists [${owner.name}/${repoName}]`);
    if (!this.store.exists(owner.name, repoName))
      throw new NotFoundError(`repository files do not exist [${owner.name}/${repoName}]`);
    return { owner };
  }

  /** The directory becomes a private repository of the owner. */
  async adopt(doer: User, ownerName: string, repoName: string): Promise<RepoWithOwner> {
    const { owner } = await this.locate(ownerName, repoName);
    return this.repoCreation.insert(
      doer,
      owner,
      { name: repoName.toLowerCase(), isPrivate: true, defaultBranch: this.deps.settings.repository.DEFAULT_BRANCH },
      { adopt: true },
    );
  }

  async delete(ownerName: string, repoName: string): Promise<void> {
    const { owner } = await this.locate(ownerName, repoName);
    this.store.remove(owner.name, repoName);
  }
}
