// Tags of a repository over its git refs (Forgejo: routers/api/v1/repo/tag.go): list, get, create (annotated when
// a message is given, tagged by the caller), delete. Writes are update-ref against the value read.
import type { User } from '../db/entities.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { type ListOptions, type Page, pageOf } from '../domain/page.ts';
import {
  deleteRef,
  isValidRefName,
  readTags,
  RefConflictError,
  resolveCommit,
  type TagRef,
  updateRef,
  writeTagObject,
} from '../infra/git/refs.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { TagProtectionService } from './tag-protection.service.ts';

export interface NewTag {
  name: string;
  /** A branch, tag or commit; the default branch when absent. */
  target?: string;
  message?: string;
}

export class RepoTagService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly protections: TagProtectionService,
  ) {}

  async list(repo: RepoWithOwner, page: ListOptions): Promise<Page<TagRef>> {
    return pageOf(await readTags(this.deps.stores.repositories.directoryOf(repo)), page);
  }

  async get(repo: RepoWithOwner, name: string): Promise<TagRef> {
    const [tag] = await readTags(this.deps.stores.repositories.directoryOf(repo), name);
    if (!tag) throw new NotFoundError(`tag does not exist [name: ${name}]`);
    return tag;
  }

  async create(doer: User, repo: RepoWithOwner, input: NewTag): Promise<TagRef> {
    const dir = this.deps.stores.repositories.directoryOf(repo);
    if (!(await isValidRefName('tags', input.name))) throw new ValidationError(`invalid tag name: ${input.name}`);
    await this.protections.assertMayControl(doer, repo, input.name, 'create');
    const target = input.target || repo.defaultBranch;
    const sha = await resolveCommit(dir, target);
    if (!sha) throw new NotFoundError(`target does not exist [ref: ${target}]`);
    const message = input.message?.trim() ?? '';
    const object = message
      ? await writeTagObject(dir, input.name, sha, message, { name: doer.name, email: doer.email })
      : sha;
    try {
      await updateRef(dir, `refs/tags/${input.name}`, object, '');
    } catch (error) {
      if (error instanceof RefConflictError) throw new ConflictError(`tag already exists [name: ${input.name}]`);
      throw error;
    }
    return this.get(repo, input.name);
  }

  async delete(doer: User, repo: RepoWithOwner, name: string): Promise<void> {
    const tag = await this.get(repo, name);
    await this.protections.assertMayControl(doer, repo, name, 'delete');
    try {
      await deleteRef(this.deps.stores.repositories.directoryOf(repo), `refs/tags/${name}`, tag.id);
    } catch (error) {
      if (error instanceof RefConflictError) throw new ConflictError(`tag moved while it was deleted [name: ${name}]`);
      throw error;
    }
  }
}
