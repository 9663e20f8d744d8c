// Branches of a repository over its git refs (Forgejo: routers/api/v1/repo/branch.go, services/repository/branch.go):
// list, get, create from a branch, tag or commit, delete. Writes are update-ref against the value read.
import type { User } from '../db/entities.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { type ListOptions, type Page, pageOf } from '../domain/page.ts';
import {
  type BranchRef,
  deleteRef,
  isValidRefName,
  readBranches,
  RefConflictError,
  resolveCommit,
  updateRef,
} from '../infra/git/refs.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewBranch {
  name: string;
  /** A branch to start from (Forgejo's deprecated old_branch_name). */
  fromBranch?: string;
  /** A branch, tag or commit to start from; wins over fromBranch. */
  fromRef?: string;
}

export class RepoBranchService {
  constructor(private readonly deps: ServiceDeps) {}

  async list(repo: RepoWithOwner, page: ListOptions): Promise<Page<BranchRef>> {
    return pageOf(await readBranches(this.deps.stores.repositories.directoryOf(repo)), page);
  }

  async get(repo: RepoWithOwner, name: string): Promise<BranchRef> {
    const [branch] = await readBranches(this.deps.stores.repositories.directoryOf(repo), name);
    if (!branch) throw new NotFoundError(`branch does not exist [name: ${name}]`);
    return branch;
  }

  async create(_doer: User, repo: RepoWithOwner, input: NewBranch): Promise<BranchRef> {
    const dir = this.deps.stores.repositories.directoryOf(repo);
    if (!(await isValidRefName('heads', input.name))) throw new ValidationError(`invalid branch name: ${input.name}`);
    const from =
      input.fromRef || (input.fromBranch ? `refs/heads/${input.fromBranch}` : `refs/heads/${repo.defaultBranch}`);
    const sha = await resolveCommit(dir, from);
    if (!sha)
      throw new NotFoundError(
        `the starting point does not exist [ref: ${input.fromRef || input.fromBranch || repo.defaultBranch}]`,
      );
    try {
      await updateRef(dir, `refs/heads/${input.name}`, sha, '');
    } catch (error) {
      if (error instanceof RefConflictError)
        throw new ConflictError(`branch already exists or clashes with one [name: ${input.name}]`);
      throw error;
    }
    return this.get(repo, input.name);
  }

  async delete(repo: RepoWithOwner, name: string): Promise<void> {
    if (name === repo.defaultBranch) throw new ForbiddenError('can not delete the default branch');
    const branch = await this.get(repo, name);
    try {
      await deleteRef(this.deps.stores.repositories.directoryOf(repo), `refs/heads/${name}`, branch.commit.sha);
    } catch (error) {
      if (error instanceof RefConflictError)
        throw new ConflictError(`branch moved while it was deleted [name: ${name}]`);
      throw error;
    }
  }
}
