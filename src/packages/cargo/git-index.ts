// Cargo's git index (Forgejo: services/packages/cargo/index.go): the owner's repository `_cargo-index`, made when
// the owner asks for it, holding config.json and one file per crate at the index path of its name — the same
// lines the sparse index serves. Once it exists, every publish, yank, unyank and deletion of a crate commits its
// new file (or removes it with the crate's last version). An owner's commits are written one after another in this
// process, and a branch moved by another process meanwhile makes the commit be written again on top of it, so
// concurrent changes never lose one another's commits.
import type { User } from '../../db/entities.ts';
import { ConflictError, NotFoundError } from '../../domain/errors.ts';
import { type CommitIdentity, type FileWrite, writeCommit } from '../../infra/git/commit-write.ts';
import { RefConflictError, resolveCommit } from '../../infra/git/refs.ts';
import { listTree } from '../../infra/git/tree.ts';
import type { PushService } from '../../services/push.service.ts';
import type { RepositoryCreationService } from '../../services/repository-creation.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { indexFile, indexPath, type RegistryConfig } from './sparse-index.ts';

export const INDEX_REPOSITORY = '_cargo-index';
const CONFIG_FILE = 'config.json';
/** Commits lost to another process's in a row before the change is given up. */
const WRITE_TRIES = 5;

export class CargoGitIndex {
  /** The tail of each owner's chain of writes. */
  private readonly writes = new Map<number, Promise<unknown>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly creation: RepositoryCreationService,
    private readonly pushes: PushService,
  ) {}

  /** Makes the owner's index repository if it has none, then writes config.json and every crate's file. */
  async initialize(doer: User, owner: User, config: RegistryConfig): Promise<void> {
    if (!(await this.repository(owner))) {
      try {
        await this.creation.create(doer, owner, { name: INDEX_REPOSITORY, description: 'Cargo registry index' });
      } catch (error) {
        // Made meanwhile by another request: it is written below all the same.
        if (!(error instanceof ConflictError)) throw error;
      }
    }
    await this.rebuild(doer, owner, config);
  }

  /** Writes config.json and every crate's file anew, removing the files of crates that are gone. */
  async rebuild(doer: User, owner: User, config: RegistryConfig): Promise<void> {
    const names = await this.deps.repos.packageIndex.listNames(owner.id, 'cargo');
    await this.commit(doer, owner, 'Rebuild Cargo index', async (dir, parent) => {
      const kept = new Set([CONFIG_FILE]);
      const changes: FileWrite[] = [{ path: CONFIG_FILE, content: Buffer.from(`${JSON.stringify(config)}\n`) }];
      for (const name of names) {
        const change = await this.crateChange(owner, name);
        kept.add(change.path);
        changes.push(change);
      }
      const present = parent ? await listTree(dir, parent, '', { recursive: true }) : [];
      for (const { path } of present) if (!kept.has(path)) changes.push({ path });
      return changes;
    });
  }

  /** After a change to the crate: its file written anew, when the owner has an index repository. */
  async update(doer: User, owner: User, name: string): Promise<void> {
    if (!(await this.repository(owner))) return;
    await this.commit(doer, owner, `Update ${name}`, async () => [await this.crateChange(owner, name)]);
  }

  private repository(owner: User) {
    return this.deps.repos.repositories.findInOwner(owner, INDEX_REPOSITORY.toLowerCase());
  }

  /** The crate's file as the sparse index serves it, or its removal when the crate has no versions left. */
  private async crateChange(owner: User, name: string): Promise<FileWrite> {
    const rows = await this.deps.repos.cargo.crateRows(owner.id, name.toLowerCase());
    const path = indexPath(name);
    return rows && rows.versions.length > 0 ? { path, content: Buffer.from(indexFile(rows)) } : { path };
  }

  /** Runs after the owner's earlier writes: the changes, made on the branch's head, committed and reported. */
  private commit(
    doer: User,
    owner: User,
    message: string,
    changes: (dir: string, parent: string | null) => Promise<FileWrite[]>,
  ): Promise<void> {
    const previous = this.writes.get(owner.id) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(() => this.write(doer, owner, message, changes));
    this.writes.set(owner.id, next);
    const forget = () => {
      if (this.writes.get(owner.id) === next) this.writes.delete(owner.id);
    };
    next.then(forget, forget);
    return next;
  }

  private async write(
    doer: User,
    owner: User,
    message: string,
    changes: (dir: string, parent: string | null) => Promise<FileWrite[]>,
  ): Promise<void> {
    const repo = await this.repository(owner);
    if (!repo) throw new NotFoundError('the owner has no Cargo index repository');
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    const ref = `refs/heads/${repo.defaultBranch}`;
    const push = await this.pushes.beginPush(doer, repo, dir);
    for (let attempt = 1; ; attempt++) {
      const parent = await resolveCommit(dir, ref);
      const who = this.identity(doer);
      try {
        await writeCommit(dir, {
          ref,
          parent,
          changes: await changes(dir, parent),
          message,
          author: who,
          committer: who,
        });
        break;
      } catch (error) {
        if (!(error instanceof RefConflictError) || attempt >= WRITE_TRIES) throw error;
      }
    }
    await push.finish();
  }

  private identity(doer: User): CommitIdentity {
    const email = doer.email || `${doer.lowerName}@${this.deps.settings.service.NO_REPLY_ADDRESS}`;
    return { name: doer.fullName || doer.name, email, time: Math.floor(Date.now() / 1000) };
  }
}
