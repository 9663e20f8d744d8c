// Trees and blobs of a bare repository: entries with `ls-tree`, bytes with `cat-file`. Paths are literal (no pathspec
// magic), so a file named `:(glob)*` is that file.
import { immutableAnswer, isFullObjectId } from './immutable-answers.ts';
import { GitError, runGit, runGitBytes, spawnGit } from './run.ts';

/** Blobs up to this size are kept in memory once read (immutable-answers.ts). */
const CACHED_BLOB_BYTES = 256 * 1024;

export type EntryType = 'blob' | 'tree' | 'commit';

export interface TreeEntry {
  /** Octal mode as git writes it: 100644, 100755, 120000 (symlink), 040000 (tree), 160000 (submodule). */
  mode: string;
  type: EntryType;
  sha: string;
  /** Bytes of a blob; 0 for trees and submodules. */
  size: number;
  /** The full path from the root of the tree. */
  path: string;
}

const git = (dir: string) => ['--literal-pathspecs', '--git-dir', dir];

function parseEntries(output: string): TreeEntry[] {
  return output
    .split('\0')
    .filter(Boolean)
    .map((record) => {
      const tab = record.indexOf('\t');
      const [mode, type, sha, size] = record.slice(0, tab).split(/\s+/);
      return { mode, type: type as EntryType, sha, size: size === '-' ? 0 : Number(size), path: record.slice(tab + 1) };
    });
}

async function lsTree(args: string[]): Promise<TreeEntry[]> {
  try {
    return parseEntries(await runGit(args));
  } catch (error) {
    if (error instanceof GitError) return [];
    throw error;
  }
}

/** The entry at `path` in a commit or tree, or null; the empty path is the root tree itself. */
export async function entryAt(dir: string, treeish: string, path: string): Promise<TreeEntry | null> {
  if (isFullObjectId(treeish)) {
    const entry = await immutableAnswer(dir, `entry ${treeish} ${path}`, () => readEntryAt(dir, treeish, path));
    return entry && { ...entry };
  }
  return readEntryAt(dir, treeish, path);
}

async function readEntryAt(dir: string, treeish: string, path: string): Promise<TreeEntry | null> {
  if (path === '') {
    const sha = await objectId(dir, `${treeish}^{tree}`);
    return sha ? { mode: '040000', type: 'tree', sha, size: 0, path: '' } : null;
  }
  const [entry] = await lsTree([...git(dir), 'ls-tree', '-z', '-l', '--full-tree', treeish, '--', path]);
  return entry && entry.path === path ? entry : null;
}

/**
 * What one `ls-tree` of a commit or tree lists for `pathspecs` (a lookup of several candidates is one process, not
 * one each), kept as an immutable answer when `treeish` is a full object id; null when `treeish` names nothing.
 */
async function lsTreeOnce(dir: string, treeish: string, pathspecs: string[]): Promise<TreeEntry[] | null> {
  const read = async () => {
    try {
      return parseEntries(
        await runGit([...git(dir), 'ls-tree', '-z', '-l', '--full-tree', treeish, '--', ...pathspecs]),
      );
    } catch (error) {
      if (error instanceof GitError) return null;
      throw error;
    }
  };
  const entries = isFullObjectId(treeish)
    ? await immutableAnswer(dir, `ls-tree ${treeish} ${pathspecs.join('\0')}`, read, (found) => 64 * (found.length + 1))
    : await read();
  return entries && entries.map((entry) => ({ ...entry }));
}

/** The entries at those of `paths` that exist in a commit or tree, by path; null when `treeish` names nothing. */
export async function entriesAt(dir: string, treeish: string, paths: string[]): Promise<Map<string, TreeEntry> | null> {
  const entries = await lsTreeOnce(dir, treeish, paths);
  const wanted = new Set(paths);
  return entries && new Map(entries.filter((entry) => wanted.has(entry.path)).map((entry) => [entry.path, entry]));
}

/**
 * The entries directly inside each of the trees at `folders` (absent folders: none), by folder; null when `treeish`
 * names nothing.
 */
export async function listTrees(
  dir: string,
  treeish: string,
  folders: string[],
): Promise<Map<string, TreeEntry[]> | null> {
  const entries = await lsTreeOnce(
    dir,
    treeish,
    folders.map((folder) => `${folder}/`),
  );
  if (!entries) return null;
  const byFolder = new Map(folders.map((folder) => [folder, [] as TreeEntry[]]));
  for (const entry of entries) byFolder.get(entry.path.slice(0, entry.path.lastIndexOf('/')))?.push(entry);
  return byFolder;
}

/** The entries directly inside the tree at `path` (empty: the root), or every entry below it when `recursive`. */
export async function listTree(
  dir: string,
  treeish: string,
  path: string,
  options: { recursive?: boolean; trees?: boolean } = {},
): Promise<TreeEntry[]> {
  const args = [...git(dir), 'ls-tree', '-z', '-l', '--full-tree'];
  if (options.recursive) args.push('-r');
  if (options.recursive && options.trees) args.push('-t');
  args.push(treeish, '--', path === '' ? '.' : `${path}/`);
  const prefix = path === '' ? '' : `${path}/`;
  return (await lsTree(args)).filter((entry) => entry.path.startsWith(prefix));
}

/** Entries of the tree object `sha` with paths relative to it (the git data API's view). */
export async function readTreeObject(dir: string, sha: string, recursive: boolean): Promise<TreeEntry[] | null> {
  if (!(await objectId(dir, `${sha}^{tree}`))) return null;
  const args = [...git(dir), 'ls-tree', '-z', '-l'];
  if (recursive) args.push('-r', '-t');
  return lsTree([...args, `${sha}^{tree}`]);
}

/** The object id a revision names (`abc^{tree}`, `main:path`), or null. */
export async function objectId(dir: string, revision: string): Promise<string | null> {
  if (revision.startsWith('-')) return null;
  try {
    return (
      (await runGit([...git(dir), 'rev-parse', '--verify', '--quiet', '--end-of-options', revision])).trim() || null
    );
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** A blob's bytes, or null when `sha` names no blob. */
export async function readBlob(dir: string, sha: string): Promise<Buffer | null> {
  if (!/^[0-9a-f]{4,64}$/i.test(sha)) return null;
  if (isFullObjectId(sha))
    return immutableAnswer(
      dir,
      `blob ${sha}`,
      () => readBlobBytes(dir, sha),
      (bytes) => bytes.length,
      CACHED_BLOB_BYTES,
    );
  return readBlobBytes(dir, sha);
}

async function readBlobBytes(dir: string, sha: string): Promise<Buffer | null> {
  try {
    return await runGitBytes([...git(dir), 'cat-file', 'blob', sha]);
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/** The last commit from `commit` back that changed `path` (the empty path: `commit` itself). */
export async function lastCommitOf(dir: string, commit: string, path: string): Promise<string | null> {
  if (isFullObjectId(commit))
    return immutableAnswer(dir, `last ${commit} ${path}`, () => readLastCommitOf(dir, commit, path));
  return readLastCommitOf(dir, commit, path);
}

async function readLastCommitOf(dir: string, commit: string, path: string): Promise<string | null> {
  const args = [...git(dir), 'rev-list', '-1', commit];
  if (path !== '') args.push('--', path);
  try {
    return (await runGit(args)).trim() || null;
  } catch (error) {
    if (error instanceof GitError) return null;
    throw error;
  }
}

/**
 * The last commit that changed each of `paths` (the entries of the directory `under`, '' for the root), from one `git log` walk that stops once
 * every path has its commit: a directory of many entries costs one process, not one per entry.
 */
export function lastCommitsOf(
  dir: string,
  commit: string,
  under: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (paths.length === 0) return Promise.resolve(found);
  const wanted = new Set(paths);
  const owner = (file: string): string | null => {
    // A changed file counts for the entry it is, or the directory entry it lies under.
    for (let end = file.length; end > 0; end = file.lastIndexOf('/', end - 1)) {
      const candidate = file.slice(0, end);
      if (wanted.has(candidate)) return candidate;
    }
    return null;
  };
  return new Promise((resolve, reject) => {
    const args = ['--literal-pathspecs', '--git-dir', dir, 'log', '--format=%x01%H', '--name-only', '-z', commit, '--'];
    // The directory as the pathspec, not every entry: a directory of thousands fits on one command line.
    const child = spawnGit(under ? [...args, under] : args, { stdio: ['ignore', 'pipe', 'ignore'] });
    let current = '';
    let rest = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      const fields = (rest + chunk).split('\0');
      rest = fields.pop() ?? '';
      for (const raw of fields) {
        // Records: "\x01<commit>", then "\n<file>" and "<file>" for the files it changed.
        const field = raw.replace(/^\n/, '');
        if (field.startsWith('\x01')) current = field.slice(1).trim();
        else if (field) record(field);
      }
      if (found.size === wanted.size) child.kill();
    });
    function record(file: string) {
      const path = owner(file);
      if (path && !found.has(path) && current) found.set(path, current);
    }
    child.on('error', reject);
    child.on('close', () => resolve(found));
  });
}
