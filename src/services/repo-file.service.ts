// File writes through the API as real commits (Forgejo: services/repository/files/update.go ChangeRepoFiles): each
// operation checked against the branch's tree (a stale `sha` is refused), one commit written with git plumbing, the
// branch moved only if it still holds the commit the change was built on, and the push reported as a git push is.
import type { User } from '../db/entities.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { cleanTreePath, type ContentEntry } from '../domain/repo-content.ts';
import { type CommitInfo, readCommitInfo } from '../infra/git/commits.ts';
import { type CommitIdentity, type FileWrite, writeCommit } from '../infra/git/commit-write.ts';
import { isValidRefName, RefConflictError, resolveCommit } from '../infra/git/refs.ts';
import { entryAt } from '../infra/git/tree.ts';
import type { PushService } from './push.service.ts';
import type { RepoContentService } from './repo-content.service.ts';

export interface FileOperation {
  operation: 'create' | 'update' | 'delete';
  path: string;
  /** Base64 of the new bytes (create, update). */
  content?: string;
  /** The blob the caller saw (update, delete). */
  sha?: string;
  /** An update that moves the file from here. */
  fromPath?: string;
}

export interface Person {
  name?: string;
  email?: string;
}

export interface FileChanges {
  branch?: string;
  newBranch?: string;
  message?: string;
  author?: Person;
  committer?: Person;
  dates?: { author?: string; committer?: string };
  signoff?: boolean;
  files: FileOperation[];
}

export interface FilesWritten {
  commit: CommitInfo;
  branch: string;
  /** Per operation, the entry written (null for a deletion). */
  files: (ContentEntry | null)[];
}

/** Whether `doer` may write to `branch` directly (branch protection); throws ForbiddenError when not. */
export interface BranchPushCheck {
  assertMayPush(doer: User, repo: RepoWithOwner, branch: string): Promise<void>;
}

/** A `sha` that is not the file's current blob; the delete route answers it with 400, the others with 422. */
export class StaleShaError extends ValidationError {}

const VERBS = { create: 'Add', update: 'Update', delete: 'Delete' } as const;

function seconds(date: string | undefined, fallback: number): number {
  if (!date) return fallback;
  const time = Date.parse(date);
  if (Number.isNaN(time)) throw new ValidationError(`invalid date: ${date}`);
  return Math.floor(time / 1000);
}

function identities(doer: User, changes: FileChanges): { author: CommitIdentity; committer: CommitIdentity } {
  const now = Math.floor(Date.now() / 1000);
  const given = (person?: Person) => (person?.name || person?.email ? person : undefined);
  const author = given(changes.author) ?? given(changes.committer);
  const committer = given(changes.committer) ?? author;
  const who = (person: Person | undefined) => ({
    name: person?.name || doer.fullName || doer.name,
    email: person?.email || doer.email,
  });
  return {
    author: { ...who(author), time: seconds(changes.dates?.author, now) },
    committer: { ...who(committer), time: seconds(changes.dates?.committer, now) },
  };
}

export class RepoFileService {
  constructor(
    private readonly contents: RepoContentService,
    private readonly pushes: PushService,
    private readonly protection: BranchPushCheck,
  ) {}

  async change(doer: User, repo: RepoWithOwner, changes: FileChanges): Promise<FilesWritten> {
    const dir = this.contents.dir(repo);
    const base = changes.branch || repo.defaultBranch;
    const baseSha = await resolveCommit(dir, `refs/heads/${base}`);
    // An empty repository takes its first commit on the branch asked for.
    if (!baseSha && (!repo.isEmpty || changes.branch)) throw new NotFoundError(`branch does not exist [name: ${base}]`);
    const target = changes.newBranch || base;
    if (changes.newBranch) {
      if (!(await isValidRefName('heads', changes.newBranch)))
        throw new ValidationError(`invalid branch name: ${changes.newBranch}`);
      if (await resolveCommit(dir, `refs/heads/${changes.newBranch}`))
        throw new ValidationError(`branch already exists [name: ${changes.newBranch}]`);
    }
    await this.protection.assertMayPush(doer, repo, target);
    const writes = await this.plan(dir, baseSha, changes.files);
    const { author, committer } = identities(doer, changes);
    let message = changes.message?.trim() || changes.files.map((op) => `${VERBS[op.operation]} ${op.path}`).join('\n');
    if (changes.signoff) message += `\n\nSigned-off-by: ${committer.name} <${committer.email}>`;
    const push = await this.pushes.beginPush(doer, repo, dir);
    let sha: string;
    try {
      sha = await writeCommit(dir, {
        ref: `refs/heads/${target}`,
        parent: baseSha,
        expectedRef: changes.newBranch ? '' : undefined,
        changes: writes,
        message,
        author,
        committer,
      });
    } catch (error) {
      if (error instanceof RefConflictError)
        throw new ConflictError(`the branch moved while the change was written; read it again [name: ${target}]`);
      throw error;
    }
    await push.finish();
    const commit = (await readCommitInfo(dir, sha))!;
    const files = await Promise.all(
      changes.files.map((op) =>
        op.operation === 'delete' ? null : this.contents.entryAtCommit(repo, sha, cleanTreePath(op.path)!),
      ),
    );
    return { commit, branch: target, files };
  }

  /** Checks every operation against the base tree and turns it into index writes. */
  private async plan(dir: string, baseSha: string | null, operations: FileOperation[]): Promise<FileWrite[]> {
    if (operations.length === 0) throw new ValidationError('no file operations given');
    const writes: FileWrite[] = [];
    const at = async (path: string) => (baseSha ? entryAt(dir, baseSha, path) : null);
    for (const op of operations) {
      const path = cleanTreePath(op.path);
      if (!path) throw new ValidationError(`path is invalid [path: ${op.path}]`);
      const current = await at(path);
      if (op.operation === 'create' || (op.operation === 'update' && op.fromPath && op.fromPath !== op.path)) {
        if (current) throw new ValidationError(`repository file already exists [path: ${path}]`);
        await this.assertNoFileAbove(path, at);
      }
      if (op.operation === 'create') {
        writes.push({ path, content: this.decode(op.content ?? '') });
        continue;
      }
      const sourcePath = op.operation === 'update' && op.fromPath ? cleanTreePath(op.fromPath) : path;
      if (!sourcePath) throw new ValidationError(`path is invalid [path: ${op.fromPath}]`);
      const source = sourcePath === path ? current : await at(sourcePath);
      if (!source || source.type !== 'blob')
        throw new NotFoundError(`repository file does not exist [path: ${sourcePath}]`);
      if (!op.sha) throw new ValidationError(`sha of the file is required [path: ${sourcePath}]`);
      if (op.sha !== source.sha)
        throw new StaleShaError(`sha does not match [given: ${op.sha}, expected: ${source.sha}]`);
      if (sourcePath !== path) writes.push({ path: sourcePath });
      writes.push(op.operation === 'delete' ? { path } : { path, content: this.decode(op.content ?? '') });
    }
    return writes;
  }

  /** A file cannot be created below a path that is a file (a/b when a is a file). */
  private async assertNoFileAbove(path: string, at: (path: string) => Promise<{ type: string } | null>) {
    const segments = path.split('/');
    for (let depth = 1; depth < segments.length; depth++) {
      const above = await at(segments.slice(0, depth).join('/'));
      if (above && above.type !== 'tree')
        throw new ValidationError(`a file is in the way [path: ${segments.slice(0, depth).join('/')}]`);
    }
  }

  private decode(base64: string): Buffer {
    if (!/^[A-Za-z0-9+/\r\n]*={0,2}[\r\n]*$/.test(base64)) throw new ValidationError('content is not valid base64');
    return Buffer.from(base64, 'base64');
  }
}
