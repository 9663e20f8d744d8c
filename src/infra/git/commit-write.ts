// A commit written straight into a bare repository, without a work tree: the parent's tree is read into a temporary
// index (GIT_INDEX_FILE), the changes applied with `update-index`, the tree and commit written, and the branch moved
// with update-ref against the value it had when the commit was built — a branch that moved meanwhile is refused.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { updateRef } from './refs.ts';
import { runGit } from './run.ts';

export interface FileWrite {
  path: string;
  /** New bytes; absent removes the path. */
  content?: Buffer;
}

export interface CommitIdentity {
  name: string;
  email: string;
  /** Seconds since the epoch. */
  time: number;
}

export interface NewCommit {
  /** The branch to move, e.g. refs/heads/main. */
  ref: string;
  /** The commit the change builds on, which `ref` must still hold; null: `ref` must not exist (an empty repository). */
  parent: string | null;
  /** What `ref` holds now when it differs from `parent` (a new branch: ''). */
  expectedRef?: string;
  changes: readonly FileWrite[];
  message: string;
  author: CommitIdentity;
  committer: CommitIdentity;
}

/** A name or address as git keeps it in a commit: no angle brackets or line breaks. */
const identPart = (value: string) => value.replace(/[<>\n]/g, '').trim();

function identityEnv(role: 'AUTHOR' | 'COMMITTER', who: CommitIdentity): NodeJS.ProcessEnv {
  return {
    [`GIT_${role}_NAME`]: identPart(who.name),
    [`GIT_${role}_EMAIL`]: identPart(who.email),
    [`GIT_${role}_DATE`]: `@${who.time} +0000`,
  };
}

/** Writes the commit and moves the branch; resolves with the new commit's id. RefConflictError if the branch moved. */
export async function writeCommit(dir: string, commit: NewCommit): Promise<string> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'anvil-index-'));
  try {
    const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
    const git = (args: string[], input?: string | Buffer) =>
      runGit(['--literal-pathspecs', '--git-dir', dir, ...args], { env, input });
    await git(commit.parent ? ['read-tree', commit.parent] : ['read-tree', '--empty']);
    const records: string[] = [];
    for (const change of commit.changes) {
      if (change.content === undefined) {
        records.push(`0 ${'0'.repeat(40)}\t${change.path}`);
        continue;
      }
      const sha = (await git(['hash-object', '-w', '--stdin'], change.content)).trim();
      records.push(`100644 ${sha}\t${change.path}`);
    }
    await git(['update-index', '-z', '--index-info'], records.map((record) => `${record}\0`).join(''));
    const tree = (await git(['write-tree'])).trim();
    const parents = commit.parent ? ['-p', commit.parent] : [];
    const message = commit.message.endsWith('\n') ? commit.message : `${commit.message}\n`;
    const sha = (
      await runGit(['--git-dir', dir, 'commit-tree', tree, ...parents, '-F', '-'], {
        input: message,
        env: { ...identityEnv('AUTHOR', commit.author), ...identityEnv('COMMITTER', commit.committer) },
      })
    ).trim();
    await updateRef(dir, commit.ref, sha, commit.expectedRef ?? commit.parent ?? '');
    return sha;
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}
