// Two branches of one bare repository, as a pull request compares them.
import { runGit } from './run.ts';

export interface BranchComparison {
  baseSha: string;
  headSha: string;
  mergeBase: string;
  /** Commits on head that base does not have. */
  ahead: number;
}

/** The commit a branch points at, or null when there is no such branch. */
export async function branchCommit(dir: string, branch: string): Promise<string | null> {
  try {
    return (
      (await runGit(['--git-dir', dir, 'rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`])).trim() ||
      null
    );
  } catch {
    return null;
  }
}

export async function compareBranches(dir: string, baseSha: string, headSha: string): Promise<BranchComparison> {
  const mergeBase = (await runGit(['--git-dir', dir, 'merge-base', baseSha, headSha]).catch(() => '')).trim();
  const ahead = Number((await runGit(['--git-dir', dir, 'rev-list', '--count', `${baseSha}..${headSha}`])).trim());
  return { baseSha, headSha, mergeBase, ahead };
}

/** How many commits the base has that the head does not (Forgejo: CommitsBehind). */
export async function commitsBehind(dir: string, baseSha: string, headSha: string): Promise<number> {
  return Number((await runGit(['--git-dir', dir, 'rev-list', '--count', `${headSha}..${baseSha}`])).trim());
}
