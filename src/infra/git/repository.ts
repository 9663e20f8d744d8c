// Git operations on a bare repository's directory (where the directories live: repository-store.ts).
import fs from 'node:fs';
import path from 'node:path';
import { repositorySize } from './object-size.ts';
import { readBranches, readHeadBranch } from './ref-files.ts';
import { GitError, runGit } from './run.ts';

export interface InitOptions {
  defaultBranch: string;
  objectFormat?: 'sha1' | 'sha256';
}

export async function initBare(dir: string, options: InitOptions): Promise<void> {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const args = ['init', '--bare', '--quiet', `--initial-branch=${options.defaultBranch}`];
  if (options.objectFormat === 'sha256') args.push('--object-format=sha256');
  await runGit([...args, '--', dir]);
}

export interface InitialFile {
  name: string;
  content: string;
}

export interface Signature {
  name: string;
  email: string;
}

/** A name or address as git keeps it in a commit: no angle brackets or line breaks (git drops them too). */
function identPart(value: string): string {
  return value.replace(/[<>\n]/g, '').trim();
}

/**
 * Writes the first commit straight into the bare repository (no work tree) with one `git fast-import`: the blobs,
 * the tree, the commit and the branch, then points HEAD at the branch unless it already does.
 */
export async function commitInitialFiles(
  dir: string,
  branch: string,
  files: readonly InitialFile[],
  author: Signature,
  message = 'Initial commit',
): Promise<void> {
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const ident = `${identPart(author.name)} <${identPart(author.email)}> ${Math.floor(Date.now() / 1000)} +0000`;
  const stream = [
    `commit refs/heads/${branch}\n`,
    `author ${ident}\ncommitter ${ident}\n`,
    data(`${message}\n`),
    ...[...files]
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((file) => `M 100644 inline ${file.name}\n${data(file.content)}`),
    'done\n',
  ].join('');
  await runGit(['--git-dir', dir, 'fast-import', '--quiet', '--done'], { input: stream });
  if ((await readHeadBranch(dir)) !== branch) await setHeadBranch(dir, branch);
}

export async function setHeadBranch(dir: string, branch: string): Promise<void> {
  await runGit(['--git-dir', dir, 'symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
}

export interface RepositoryState {
  size: number;
  isEmpty: boolean;
  /** The branch HEAD names when it exists, else the first branch; null for an empty repository. */
  defaultBranch: string | null;
}

/**
 * Whether a repository's files name any branch (loose refs under refs/heads, or packed-refs), read without running
 * git: cheap enough to ask of every empty repository at start.
 */
export function hasBranchRefs(dir: string): boolean {
  const loose = path.join(dir, 'refs', 'heads');
  if (
    fs.existsSync(loose) &&
    fs.readdirSync(loose, { recursive: true, withFileTypes: true }).some((entry) => entry.isFile())
  )
    return true;
  const packed = path.join(dir, 'packed-refs');
  return fs.existsSync(packed) && / refs\/heads\//.test(fs.readFileSync(packed, 'utf8'));
}

/** What the database keeps about a repository's content, read from disk. */
export async function readRepositoryState(dir: string): Promise<RepositoryState> {
  const [size, branches, head] = await Promise.all([repositorySize(dir), readBranches(dir), readHeadBranch(dir)]);
  if (branches.length === 0) return { size, isEmpty: true, defaultBranch: null };
  return { size, isEmpty: false, defaultBranch: head && branches.includes(head) ? head : branches[0] };
}

export interface RemoteOptions {
  /** Protocols git may use for this remote (GIT_ALLOW_PROTOCOL). */
  allowProtocols: readonly string[];
  /** host:port:address entries that pin the addresses that were checked (http.curloptResolve). */
  pinnedAddresses?: readonly string[];
  /** [prefix, replacement] URL rewrites (url.<replacement>.insteadOf=<prefix>): pins git:// to a checked address. */
  rewrites?: readonly (readonly [string, string])[];
  timeoutMs?: number;
}

function remoteConfig(options: RemoteOptions): string[] {
  // Redirects could lead a checked URL to an address that was never checked.
  const args = ['-c', 'http.followRedirects=false', '-c', 'credential.helper='];
  for (const entry of options.pinnedAddresses ?? []) args.push('-c', `http.curloptResolve=${entry}`);
  for (const [prefix, replacement] of options.rewrites ?? []) args.push('-c', `url.${replacement}.insteadOf=${prefix}`);
  return args;
}

/** git clone --mirror of a remote into dir. */
export async function cloneMirror(url: string, dir: string, options: RemoteOptions): Promise<void> {
  await runGit([...remoteConfig(options), 'clone', '--mirror', '--quiet', '--', url, dir], {
    env: { GIT_ALLOW_PROTOCOL: options.allowProtocols.join(':') },
    timeoutMs: options.timeoutMs ?? 10 * 60_000,
  });
}

/** Fetches every ref of a mirror from its origin, pruning refs the origin no longer has. */
export async function fetchMirror(dir: string, options: RemoteOptions): Promise<void> {
  await runGit(['--git-dir', dir, ...remoteConfig(options), 'fetch', '--prune', '--quiet', 'origin'], {
    env: { GIT_ALLOW_PROTOCOL: options.allowProtocols.join(':') },
    timeoutMs: options.timeoutMs ?? 10 * 60_000,
  });
}

/** The origin URL recorded in a mirror's configuration (it may carry credentials). */
export async function remoteUrl(dir: string): Promise<string> {
  return (await runGit(['--git-dir', dir, 'config', '--get', 'remote.origin.url'])).trim();
}

/** A bare copy of a local repository, with no remote left behind (a fork's git directory). */
export async function cloneBare(from: string, dir: string): Promise<void> {
  await runGit(['clone', '--bare', '--quiet', '--no-hardlinks', from, dir], { timeoutMs: 10 * 60_000 });
  await removeOrigin(dir);
}

export async function removeOrigin(dir: string): Promise<void> {
  await runGit(['--git-dir', dir, 'remote', 'remove', 'origin']);
}

/** Every ref with the object it points at (`git for-each-ref`), for comparing a repository before and after a write. */
export async function readRefs(
  dir: string,
  prefixes: readonly string[] = ['refs/heads/', 'refs/tags/'],
): Promise<Map<string, string>> {
  const output = await runGit(['--git-dir', dir, 'for-each-ref', '--format=%(objectname) %(refname)', ...prefixes]);
  const refs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0) refs.set(line.slice(space + 1), line.slice(0, space));
  }
  return refs;
}

export interface CommitSummary {
  sha: string;
  authorName: string;
  authorEmail: string;
  committerName: string;
  committerEmail: string;
  /** Author date, RFC 3339. */
  timestamp: string;
  /** First line of the message. */
  subject: string;
}

/**
 * Commits reachable from `head` and from none of `exclude`, newest first: the first `max` of them and how many
 * there are. Revisions go through stdin, so any number of excluded refs fits.
 */
export async function newCommits(
  dir: string,
  head: string,
  exclude: readonly string[],
  max: number,
): Promise<{ commits: CommitSummary[]; total: number }> {
  const revisions = [head, ...exclude.map((sha) => `^${sha}`)].join('\n') + '\n';
  const total = Number(
    (await runGit(['--git-dir', dir, 'rev-list', '--count', '--stdin'], { input: revisions })).trim(),
  );
  const format = '%H%x00%an%x00%ae%x00%cn%x00%ce%x00%aI%x00%B%x1e';
  const output = await runGit(['--git-dir', dir, 'log', `--max-count=${max}`, `--format=${format}`, '--stdin'], {
    input: revisions,
  });
  const commits = output
    .split('\x1e')
    .map((record) => record.replace(/^\n/, ''))
    .filter(Boolean)
    .map((record) => {
      const [sha, authorName, authorEmail, committerName, committerEmail, timestamp, message] = record.split('\x00');
      return {
        sha,
        authorName,
        authorEmail,
        committerName,
        committerEmail,
        timestamp,
        subject: (message ?? '').split('\n')[0],
      };
    });
  return { commits, total };
}

/** git gc; Forgejo runs it with [git] GC_ARGS, empty by default. */
export async function collectGarbage(dir: string, timeoutMs = 10 * 60_000): Promise<void> {
  await runGit(['--git-dir', dir, 'gc', '--quiet'], { timeoutMs });
}

/** git fsck; resolves with the problems it reported, or null when the repository is sound. */
export async function checkIntegrity(dir: string, timeoutMs = 10 * 60_000): Promise<string | null> {
  try {
    await runGit(['--git-dir', dir, 'fsck', '--no-progress'], { timeoutMs });
    return null;
  } catch (error) {
    if (error instanceof GitError) return error.stderr.trim() || error.message;
    throw error;
  }
}
