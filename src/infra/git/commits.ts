// Commits of a bare repository read with `git log` / `rev-list`, and what each commit changed (`diff-tree`).
import type { GitPerson } from './refs.ts';
import { GitError, runGit } from './run.ts';

export interface CommitInfo {
  sha: string;
  tree: string;
  parents: string[];
  author: GitPerson;
  committer: GitPerson;
  message: string;
}

export interface ChangedFile {
  filename: string;
  /** Forgejo's words: added, removed, modified, renamed, copied. */
  status: string;
  additions: number;
  deletions: number;
}

export interface CommitRange {
  /** Where the walk starts (a commit id). */
  head: string;
  /** Only commits that changed this path. */
  path?: string;
  /** Commits reachable from these are left out. */
  exclude?: readonly string[];
}

const FORMAT = '%H%x00%T%x00%P%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x1e';

function parseCommits(output: string): CommitInfo[] {
  return output
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter(Boolean)
    .map((record) => {
      const [sha, tree, parents, an, ae, ad, cn, ce, cd, message] = record.split('\x00');
      return {
        sha,
        tree,
        parents: parents ? parents.split(' ') : [],
        author: { name: an, email: ae, date: ad },
        committer: { name: cn, email: ce, date: cd },
        message: message ?? '',
      };
    });
}

function rangeArgs(range: CommitRange): string[] {
  const args = [range.head, ...(range.exclude ?? []).map((sha) => `^${sha}`), '--'];
  if (range.path) args.push(range.path);
  return args;
}

/** One commit by id, or null. */
export async function readCommitInfo(dir: string, sha: string): Promise<CommitInfo | null> {
  if (sha.startsWith('-')) return null;
  try {
    const output = await runGit(['--git-dir', dir, 'log', '-1', '--no-walk', `--format=${FORMAT}`, `${sha}^{commit}`]);
    return parseCommits(output)[0] ?? null;
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** A page of the commits of a range, newest first, and how many the range has. */
export async function listCommits(
  dir: string,
  range: CommitRange,
  page: { skip: number; limit: number },
): Promise<{ commits: CommitInfo[]; total: number }> {
  const base = ['--literal-pathspecs', '--git-dir', dir];
  const [count, output] = await Promise.all([
    runGit([...base, 'rev-list', '--count', ...rangeArgs(range)]),
    runGit([
      ...base,
      'log',
      `--skip=${page.skip}`,
      `--max-count=${page.limit}`,
      `--format=${FORMAT}`,
      ...rangeArgs(range),
    ]),
  ]);
  return { commits: parseCommits(output), total: Number(count.trim()) };
}

const STATUS: Record<string, string> = {
  A: 'added',
  D: 'removed',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'modified',
};

/** The files a commit changed against its first parent (everything, for a root commit), with line counts. */
export async function changedFiles(dir: string, commit: CommitInfo): Promise<ChangedFile[]> {
  const against = commit.parents[0] ? [commit.parents[0], commit.sha] : ['--root', commit.sha];
  const base = ['--git-dir', dir, 'diff-tree', '-r', '-z', '--no-commit-id'];
  const [statuses, counts] = await Promise.all([
    runGit([...base, '--name-status', ...against]),
    runGit([...base, '--numstat', ...against]),
  ]);
  const fields = statuses.split('\0').filter(Boolean);
  const files: ChangedFile[] = [];
  for (let i = 0; i < fields.length; i += 2) {
    files.push({ filename: fields[i + 1], status: STATUS[fields[i][0]] ?? 'modified', additions: 0, deletions: 0 });
  }
  const numbers = counts.split('\0').filter(Boolean);
  for (const [index, record] of numbers.entries()) {
    const [added, deleted] = record.split('\t');
    if (files[index]) {
      // Binary files count no lines ("-").
      files[index].additions = Number(added) || 0;
      files[index].deletions = Number(deleted) || 0;
    }
  }
  return files;
}

/** Whether `ancestor` is reachable from `descendant`. */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await runGit(['--git-dir', dir, 'merge-base', '--is-ancestor', ancestor, descendant]);
    return true;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
}
