// Branches and tags of a bare repository: read with for-each-ref, written with update-ref against the value the
// caller saw (an empty old value: the ref must not exist yet), so two writers cannot both win.
import { immutableAnswer, isFullObjectId } from './immutable-answers.ts';
import { GitError, runGit } from './run.ts';

export interface GitPerson {
  name: string;
  email: string;
  /** RFC 3339. */
  date: string;
}

export interface RefCommit {
  sha: string;
  message: string;
  author: GitPerson;
  committer: GitPerson;
}

export interface BranchRef {
  name: string;
  commit: RefCommit;
}

export interface TagRef {
  name: string;
  /** The tag object for an annotated tag, else the commit. */
  id: string;
  /** The annotated tag's message; for a lightweight tag the commit's. */
  message: string;
  commitSha: string;
  /** The tagger's date for an annotated tag, else the commit's. */
  created: string;
}

const FIELD = '%00';
const RECORD = '%1e';
const COMMIT_FIELDS = [
  '%(objectname)',
  '%(authorname)',
  '%(authoremail:trim)',
  '%(authordate:iso-strict)',
  '%(committername)',
  '%(committeremail:trim)',
  '%(committerdate:iso-strict)',
  '%(contents)',
];

function records(output: string): string[][] {
  return output
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter(Boolean)
    .map((record) => record.split('\x00'));
}

function commitOf(fields: string[]): RefCommit {
  const [sha, authorName, authorEmail, authorDate, committerName, committerEmail, committerDate, message] = fields;
  return {
    sha,
    message: message ?? '',
    author: { name: authorName, email: authorEmail, date: authorDate },
    committer: { name: committerName, email: committerEmail, date: committerDate },
  };
}

/** Branches by name, each with its head commit. */
export async function readBranches(dir: string, exactName?: string): Promise<BranchRef[]> {
  const format = ['%(refname:strip=2)', ...COMMIT_FIELDS].join(FIELD) + RECORD;
  const pattern = exactName === undefined ? 'refs/heads/' : `refs/heads/${exactName}`;
  const output = await runGit(['--git-dir', dir, 'for-each-ref', '--sort=refname', `--format=${format}`, pattern]);
  const branches = records(output).map(([name, ...fields]) => ({ name, commit: commitOf(fields) }));
  // A pattern also matches the refs below it (a/b under a): keep the one asked for.
  return exactName === undefined ? branches : branches.filter((branch) => branch.name === exactName);
}

/** Tags, newest first (by the tagger's or the commit's date), then by name. */
export async function readTags(dir: string, exactName?: string): Promise<TagRef[]> {
  const fields = [
    '%(refname:strip=2)',
    '%(objectname)',
    '%(objecttype)',
    '%(*objectname)',
    '%(creatordate:iso-strict)',
    '%(contents)',
  ];
  const pattern = exactName === undefined ? 'refs/tags/' : `refs/tags/${exactName}`;
  const args = [
    '--git-dir',
    dir,
    'for-each-ref',
    '--sort=-creatordate',
    `--format=${fields.join(FIELD)}${RECORD}`,
    pattern,
  ];
  const tags = records(await runGit(args)).map(([name, id, type, peeled, created, message]) => ({
    name,
    id,
    message: message ?? '',
    commitSha: type === 'tag' ? peeled : id,
    created,
  }));
  return exactName === undefined ? tags : tags.filter((tag) => tag.name === exactName);
}

/** The commit a revision names (branch, tag, sha), or null when it names none. */
export async function resolveCommit(dir: string, revision: string): Promise<string | null> {
  if (revision === '' || revision.startsWith('-')) return null;
  if (isFullObjectId(revision)) return immutableAnswer(dir, `commit ${revision}`, () => revParseCommit(dir, revision));
  return revParseCommit(dir, revision);
}

async function revParseCommit(dir: string, revision: string): Promise<string | null> {
  try {
    return (
      (
        await runGit(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`])
      ).trim() || null
    );
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** Whether `name` may name a ref under `refs/<kind>/` (git check-ref-format). */
export async function isValidRefName(kind: 'heads' | 'tags', name: string): Promise<boolean> {
  if (name === '' || name.startsWith('-')) return false;
  try {
    await runGit(['check-ref-format', `refs/${kind}/${name}`]);
    return true;
  } catch {
    return false;
  }
}

export class RefConflictError extends Error {}

/**
 * Sets `ref` to `sha` when it still holds `expected` (empty: when it does not exist). A ref that moved, exists, or
 * clashes with another's path (a/b beside a) is RefConflictError.
 */
export async function updateRef(dir: string, ref: string, sha: string, expected: string): Promise<void> {
  try {
    await runGit(['--git-dir', dir, 'update-ref', '--no-deref', ref, sha, expected]);
  } catch (error) {
    if (error instanceof GitError) throw new RefConflictError(error.stderr.trim());
    throw error;
  }
}

/** Removes `ref` when it still holds `expected`. */
export async function deleteRef(dir: string, ref: string, expected: string): Promise<void> {
  try {
    await runGit(['--git-dir', dir, 'update-ref', '--no-deref', '-d', ref, expected]);
  } catch (error) {
    if (error instanceof GitError) throw new RefConflictError(error.stderr.trim());
    throw error;
  }
}

/** Writes an annotated tag object for `sha` and returns its id (the ref is set apart, with updateRef). */
export async function writeTagObject(
  dir: string,
  name: string,
  sha: string,
  message: string,
  tagger: { name: string; email: string },
): Promise<string> {
  const date = `${Math.floor(Date.now() / 1000)} +0000`;
  // Angle brackets and line breaks would end the tagger's fields early: git would refuse the object.
  const clean = (text: string) => text.replace(/[<>\n]/g, '').trim();
  const body = `object ${sha}\ntype commit\ntag ${name}\ntagger ${clean(tagger.name)} <${clean(tagger.email)}> ${date}\n\n${message.endsWith('\n') ? message : `${message}\n`}`;
  return (await runGit(['--git-dir', dir, 'mktag'], { input: body })).trim();
}

export interface GitRef {
  /** Full name, refs/heads/main. */
  ref: string;
  sha: string;
  type: string;
}

/** Every ref under `prefix` (refs/ for all), by name. */
export async function listRefs(dir: string, prefix = 'refs/'): Promise<GitRef[]> {
  const output = await runGit([
    '--git-dir',
    dir,
    'for-each-ref',
    '--format=%(objectname) %(objecttype) %(refname)',
    prefix,
  ]);
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [sha, type, ...ref] = line.split(' ');
      return { sha, type, ref: ref.join(' ') };
    });
}
