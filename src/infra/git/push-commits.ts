// The commits a webhook push payload lists (Forgejo: modules/repository/push.go ToAPIPayloadCommits): newest
// first, full messages, and the files each added, removed or modified.
import { immutableAnswer, isFullObjectId } from './immutable-answers.ts';
import { runGit } from './run.ts';

export interface PushedCommit {
  sha: string;
  message: string;
  authorName: string;
  authorEmail: string;
  committerName: string;
  committerEmail: string;
  timestamp: string;
  added: string[];
  removed: string[];
  modified: string[];
  /** The first parent, or null for a root commit. */
  parent: string | null;
}

const FORMAT = '%x1e%H%x00%P%x00%an%x00%ae%x00%cn%x00%ce%x00%aI%x00%B%x00';

function parse(record: string): PushedCommit | null {
  const fields = record.split('\x00');
  if (fields.length < 9) return null;
  const [sha, parents, authorName, authorEmail, committerName, committerEmail, timestamp, message, files] = fields;
  const commit: PushedCommit = {
    sha,
    message,
    authorName,
    authorEmail,
    committerName,
    committerEmail,
    timestamp,
    added: [],
    removed: [],
    modified: [],
    parent: parents.split(' ').filter(Boolean)[0] ?? null,
  };
  const lines = files.split('\n').filter(Boolean);
  for (const line of lines) {
    const [status, ...paths] = line.split('\t');
    const file = paths[paths.length - 1];
    if (!file) continue;
    if (status.startsWith('A')) commit.added.push(file);
    else if (status.startsWith('D')) commit.removed.push(file);
    else commit.modified.push(file);
  }
  return commit;
}

/** Up to `limit` commits reachable from `head` and from none of `exclude`, with the number there are in all. */
export async function pushedCommits(
  dir: string,
  head: string,
  exclude: readonly string[],
  limit: number,
): Promise<{ commits: PushedCommit[]; total: number }> {
  const revisions = [head, ...exclude.map((sha) => `^${sha}`)].join('\n') + '\n';
  const total = Number(
    (await runGit(['--git-dir', dir, 'rev-list', '--count', '--stdin'], { input: revisions })).trim(),
  );
  if (total === 0 || limit === 0) return { commits: [], total };
  const output = await runGit(
    [
      '--git-dir',
      dir,
      'log',
      `--max-count=${limit}`,
      `--format=${FORMAT}`,
      '--name-status',
      '--no-renames',
      '--first-parent',
      '-m',
      '--stdin',
    ],
    { input: revisions },
  );
  const commits = output
    .split('\x1e')
    .filter(Boolean)
    .map(parse)
    .filter((commit): commit is PushedCommit => commit !== null);
  return { commits, total };
}

/** One commit, for a new tag's head commit. */
export async function readCommit(dir: string, sha: string): Promise<PushedCommit | null> {
  if (!isFullObjectId(sha)) return readCommitFromGit(dir, sha);
  // A copy: callers put the commit into payloads they may change.
  const commit = await immutableAnswer(
    dir,
    `pushed ${sha}`,
    () => readCommitFromGit(dir, sha),
    (found) => JSON.stringify(found).length,
  );
  return commit && structuredClone(commit);
}

async function readCommitFromGit(dir: string, sha: string): Promise<PushedCommit | null> {
  const output = await runGit([
    '--git-dir',
    dir,
    'log',
    '-1',
    `--format=${FORMAT}`,
    '--name-status',
    '--no-renames',
    '--first-parent',
    '-m',
    `${sha}^{commit}`,
    '--',
  ]);
  return parse(output.split('\x1e').filter(Boolean)[0] ?? '');
}
