// Commits and git objects of a repository for the API (Forgejo: routers/api/v1/repo/commits.go, tree.go, blob.go,
// git_ref.go, compare.go): single commits, paged history by ref and path, comparisons, trees, blobs and refs.
import type { RepoWithOwner } from '../db/repository-details.ts';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { concurrencyLimit } from '../lib/bounded-concurrency.ts';
import { type ChangedFile, changedFiles, type CommitInfo, listCommits, readCommitInfo } from '../infra/git/commits.ts';
import { type GitRef, listRefs } from '../infra/git/refs.ts';
import { resolveRevision } from '../infra/git/revision.ts';
import { objectId, readBlob, readTreeObject, type TreeEntry } from '../infra/git/tree.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface CommitWithFiles {
  commit: CommitInfo;
  /** Present when asked for (stat or files). */
  files?: ChangedFile[];
}

export interface CommitQuery {
  sha?: string;
  path?: string;
  not?: string;
  withFiles: boolean;
}

export interface TreePage {
  sha: string;
  entries: TreeEntry[];
  total: number;
  truncated: boolean;
}

/** Commits whose changed files are read at once for a commit list. */
const FILES_AT_ONCE = 4;

const REF_PATTERN = /^[^\0\s~^:?*[\\]+$/;

export class RepoCommitService {
  constructor(private readonly deps: ServiceDeps) {}

  private dir(repo: RepoWithOwner): string {
    return this.deps.stores.repositories.directory(repo.ownerName, repo.name);
  }

  private async withFiles(dir: string, commit: CommitInfo, files: boolean): Promise<CommitWithFiles> {
    return files ? { commit, files: await changedFiles(dir, commit) } : { commit };
  }

  /** A commit by id or ref (Forgejo's /git/commits/{sha}); 422 for what cannot name a ref, 404 for a missing one. */
  async single(repo: RepoWithOwner, sha: string, files: boolean): Promise<CommitWithFiles> {
    if (!REF_PATTERN.test(sha)) throw new ValidationError(`no valid ref or sha: ${sha}`);
    const dir = this.dir(repo);
    const revision = await resolveRevision(dir, sha);
    const commit = revision ? await readCommitInfo(dir, revision.sha) : null;
    if (!commit) throw new NotFoundError(`commit does not exist [id: ${sha}]`);
    return this.withFiles(dir, commit, files);
  }

  async list(
    repo: RepoWithOwner,
    query: CommitQuery,
    page: ListOptions,
  ): Promise<{ commits: CommitWithFiles[]; total: number }> {
    if (repo.isEmpty) throw new ConflictError('Git Repository is empty.');
    const dir = this.dir(repo);
    const head = await resolveRevision(dir, query.sha || repo.defaultBranch);
    if (!head) throw new NotFoundError(`commit does not exist [id: ${query.sha}]`);
    const exclude: string[] = [];
    if (query.not) {
      const not = await resolveRevision(dir, query.not);
      if (!not) throw new NotFoundError(`commit does not exist [id: ${query.not}]`);
      exclude.push(not.sha);
    }
    const { commits, total } = await listCommits(dir, { head: head.sha, path: query.path || undefined, exclude }, page);
    // A page of commits with their files is two git processes per commit: a few at a time, not the page at once.
    const limit = concurrencyLimit(FILES_AT_ONCE, Infinity, () => new Error('unreachable'));
    const withFiles = commits.map((commit) => limit.run(() => this.withFiles(dir, commit, query.withFiles)));
    return { commits: await Promise.all(withFiles), total };
  }

  /** `base...head` (or `base..head`): the commits head has that base has not, oldest first as Forgejo lists them. */
  async compare(repo: RepoWithOwner, basehead: string): Promise<{ commits: CommitInfo[]; total: number }> {
    const [base, head] = basehead.includes('...') ? basehead.split('...') : basehead.split('..');
    if (!base || !head) throw new NotFoundError(`no comparison in "${basehead}": expected base...head`);
    const dir = this.dir(repo);
    const [from, to] = await Promise.all([resolveRevision(dir, base), resolveRevision(dir, head)]);
    if (!from || !to) throw new NotFoundError(`ref does not exist [name: ${from ? head : base}]`);
    const { commits, total } = await listCommits(
      dir,
      { head: to.sha, exclude: [from.sha] },
      { skip: 0, limit: 10_000 },
    );
    return { commits: commits.reverse(), total };
  }

  async tree(repo: RepoWithOwner, sha: string, recursive: boolean, page: ListOptions): Promise<TreePage> {
    if (!sha) throw new ValidationError('sha not provided');
    const dir = this.dir(repo);
    const entries = await readTreeObject(dir, sha, recursive);
    const id = entries ? await objectId(dir, `${sha}^{tree}`) : null;
    if (!entries || !id) throw new NotFoundError(`sha not found [sha: ${sha}]`);
    const slice = entries.slice(page.skip, page.skip + page.limit);
    return { sha: id, entries: slice, total: entries.length, truncated: page.skip + slice.length < entries.length };
  }

  async blob(repo: RepoWithOwner, sha: string): Promise<{ sha: string; bytes: Buffer }> {
    if (!sha) throw new ValidationError('sha not provided');
    const bytes = await readBlob(this.dir(repo), sha);
    if (!bytes) throw new NotFoundError(`blob does not exist [sha: ${sha}]`);
    return { sha: (await objectId(this.dir(repo), sha)) ?? sha, bytes };
  }

  /** Refs whose name starts with `refs/<prefix>` (every ref without one); 404 when a prefix matches none. */
  async refs(repo: RepoWithOwner, prefix?: string): Promise<GitRef[]> {
    const refs = await listRefs(this.dir(repo));
    if (prefix === undefined) return refs;
    const wanted = `refs/${prefix.replace(/^refs\//, '')}`;
    const matching = refs.filter((ref) => ref.ref.startsWith(wanted));
    if (matching.length === 0) throw new NotFoundError(`no ref matches [name: ${wanted}]`);
    return matching;
  }
}
