// What a pull request changes, read from git: its files with line counts, its commits, its diff or patch text.
import { runGit } from './run.ts';

export interface ChangedFileStat {
  filename: string;
  previousFilename: string;
  status: 'added' | 'deleted' | 'modified' | 'renamed' | 'copied' | 'changed';
  additions: number;
  deletions: number;
}

const STATUS: Record<string, ChangedFileStat['status']> = {
  A: 'added',
  D: 'deleted',
  M: 'modified',
  R: 'renamed',
  C: 'copied',
  T: 'changed',
};

/** Files changed between two commits, renames found, in path order. */
export async function changedFiles(dir: string, from: string, to: string): Promise<ChangedFileStat[]> {
  const base = ['--git-dir', dir, 'diff', '-M', '-z', from, to];
  const [names, stats] = await Promise.all([runGit([...base, '--name-status']), runGit([...base, '--numstat'])]);
  const files: ChangedFileStat[] = [];
  const fields = names.split('\0');
  for (let i = 0; i < fields.length - 1;) {
    const code = fields[i++];
    const renamed = code.startsWith('R') || code.startsWith('C');
    const previous = renamed ? fields[i++] : '';
    const filename = fields[i++];
    files.push({
      filename,
      previousFilename: previous,
      status: STATUS[code[0]] ?? 'changed',
      additions: 0,
      deletions: 0,
    });
  }
  // numstat -z: "add\tdel\tpath\0", or "add\tdel\t\0old\0new\0" for a rename.
  const parts = stats.split('\0');
  let index = 0;
  for (let i = 0; i < parts.length - 1; index++) {
    const [add, del, file] = parts[i++].split('\t');
    if (file === '') i += 2;
    const entry = files[index];
    if (!entry) break;
    entry.additions = add === '-' ? 0 : Number(add);
    entry.deletions = del === '-' ? 0 : Number(del);
  }
  return files;
}

export interface CommitInfo {
  sha: string;
  parents: string[];
  tree: string;
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerName: string;
  committerEmail: string;
  committerDate: string;
  message: string;
}

/** Commits reachable from `to` and not from `from`, oldest first (as Forgejo lists a pull request's commits). */
export async function commitsBetween(dir: string, from: string, to: string): Promise<CommitInfo[]> {
  const format = '%H%x00%P%x00%T%x00%an%x00%ae%x00%aI%x00%cn%x00%ce%x00%cI%x00%B%x1e';
  const output = await runGit(['--git-dir', dir, 'log', '--reverse', `--format=${format}`, `${from}..${to}`]);
  return output
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter((record) => record !== '')
    .map((record) => {
      const [
        sha,
        parents,
        tree,
        authorName,
        authorEmail,
        authorDate,
        committerName,
        committerEmail,
        committerDate,
        message,
      ] = record.split('\0');
      return {
        sha,
        parents: parents.split(' ').filter(Boolean),
        tree,
        authorName,
        authorEmail,
        authorDate,
        committerName,
        committerEmail,
        committerDate,
        message,
      };
    });
}

/** `git diff` (`diff`) or `git format-patch` (`patch`) text of the changes between two commits. */
export async function diffText(dir: string, from: string, to: string, kind: 'diff' | 'patch', binary: boolean) {
  const extra = binary ? ['--binary'] : [];
  if (kind === 'diff') return runGit(['--git-dir', dir, 'diff', ...extra, from, to]);
  return runGit(['--git-dir', dir, 'format-patch', '--stdout', ...extra, `${from}..${to}`]);
}
