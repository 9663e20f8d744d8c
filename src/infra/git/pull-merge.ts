// Merging a pull request in a bare repository without touching its refs: the new commit is written and its id
// returned; the caller moves the base branch with update-ref against the value it read. merge and squash use
// `git merge-tree --write-tree` (no work tree); rebase replays the head's commits in a temporary work tree whose
// objects are the repository's own (`git worktree add`), removed afterwards.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitError, runGit } from './run.ts';

export interface GitIdentity {
  name: string;
  email: string;
}

/** The two branches cannot be merged without a person's choice. */
export class MergeConflictError extends Error {}

function identityEnv(author: GitIdentity, committer: GitIdentity): NodeJS.ProcessEnv {
  const clean = (value: string) => value.replace(/[<>\n]/g, '').trim() || 'unknown';
  return {
    GIT_AUTHOR_NAME: clean(author.name),
    GIT_AUTHOR_EMAIL: clean(author.email),
    GIT_COMMITTER_NAME: clean(committer.name),
    GIT_COMMITTER_EMAIL: clean(committer.email),
  };
}

/** Whether `ancestor` is `descendant` or one of its ancestors. */
export async function isAncestor(dir: string, ancestor: string, descendant: string): Promise<boolean> {
  try {
    await runGit(['--git-dir', dir, 'merge-base', '--is-ancestor', ancestor, descendant]);
    return true;
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) return false;
    throw error;
  }
}

/** The tree of merging `head` into `base`; MergeConflictError when they conflict. */
export async function mergedTree(dir: string, base: string, head: string): Promise<string> {
  try {
    return (await runGit(['--git-dir', dir, 'merge-tree', '--write-tree', '--no-messages', base, head]))
      .split('\n')[0]
      .trim();
  } catch (error) {
    if (error instanceof GitError && error.exitCode === 1) throw new MergeConflictError('merge conflicts');
    throw error;
  }
}

export async function commitTree(
  dir: string,
  tree: string,
  parents: readonly string[],
  message: string,
  author: GitIdentity,
  committer: GitIdentity,
): Promise<string> {
  const args = ['--git-dir', dir, 'commit-tree', tree, ...parents.flatMap((p) => ['-p', p]), '-F', '-'];
  return (await runGit(args, { input: message, env: identityEnv(author, committer) })).trim();
}

/** The head's commits replayed onto `base` (authors kept, `committer` committing); the new tip. */
export async function rebasedOnto(dir: string, base: string, head: string, committer: GitIdentity): Promise<string> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-rebase-'));
  const tree = path.join(work, 'tree');
  const env = identityEnv(committer, committer);
  try {
    await runGit(['--git-dir', dir, 'worktree', 'add', '--detach', '--quiet', tree, head]);
    try {
      await runGit(['-C', tree, 'rebase', '--quiet', '--no-autostash', base], { env });
    } catch (error) {
      await runGit(['-C', tree, 'rebase', '--abort']).catch(() => undefined);
      if (error instanceof GitError) throw new MergeConflictError('rebase conflicts');
      throw error;
    }
    return (await runGit(['-C', tree, 'rev-parse', 'HEAD'])).trim();
  } finally {
    await runGit(['--git-dir', dir, 'worktree', 'remove', '--force', tree]).catch(() => undefined);
    fs.rmSync(work, { recursive: true, force: true });
    await runGit(['--git-dir', dir, 'worktree', 'prune']).catch(() => undefined);
  }
}
