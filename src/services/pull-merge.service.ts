// Merging a pull request (Forgejo: routers/api/v1/repo/pull.go MergePullRequest, services/pull/merge.go): the new
// commit is written with git (src/infra/git/pull-merge.ts), the base branch moved only if it still points where it
// was read (else 409), and the push is recorded like any other (feeds, push webhooks). The pull request is then
// marked merged and its issue closed in one transaction, which announces it (pull_request closed, merged).
import type { User } from '../db/entities.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import type { PullDetails } from '../db/pull-request.repository.ts';
import { ConflictError, NotAllowedError, ValidationError } from '../domain/errors.ts';
import { compareBranches } from '../infra/git/compare.ts';
import {
  commitTree,
  type GitIdentity,
  isAncestor,
  MergeConflictError,
  mergedTree,
  rebasedOnto,
} from '../infra/git/pull-merge.ts';
import { deleteRef, RefConflictError, resolveCommit, updateRef } from '../infra/git/refs.ts';
import type { IssueService } from './issue.service.ts';
import type { PullMergeCheck } from './pull-merge-check.ts';
import type { PullReadService } from './pull-read.service.ts';
import type { PushService } from './push.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export type MergeStyle = 'merge' | 'rebase' | 'rebase-merge' | 'squash' | 'fast-forward-only' | 'manually-merged';

export interface MergeRequest {
  Do: MergeStyle;
  MergeTitleField?: string;
  MergeMessageField?: string;
  MergeCommitID?: string;
  head_commit_id?: string;
  delete_branch_after_merge?: boolean;
  /** Past a blocking branch protection rule, for who Forgejo lets (site and, unless it applies to them, repo admins). */
  force_merge?: boolean;
}

function identity(user: User): GitIdentity {
  return { name: user.fullName || user.name, email: user.email };
}

export class PullMergeService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly reads: PullReadService,
    private readonly pushes: PushService,
    private readonly check: PullMergeCheck,
  ) {}

  async merge(access: RepoWithPermission, index: number, doer: User, request: MergeRequest): Promise<void> {
    const details = await this.reads.get(access, index, doer);
    const { pull, issue } = details;
    if (pull.hasMerged) throw new NotAllowedError('PR already merged');
    if (issue.isClosed) throw new NotAllowedError('PR is closed');
    const kind = request.Do === 'manually-merged' ? 'mark-merged' : 'merge';
    await this.check.assertMergeable(access, details, doer, { kind, force: request.force_merge });
    const dir = this.reads.dir(access);
    const baseSha = details.baseSha;
    const headSha = pull.headCommitId;
    if (!baseSha) throw new ConflictError(`base branch does not exist: ${pull.baseBranch}`);
    if (request.head_commit_id && request.head_commit_id !== headSha)
      throw new ConflictError('head out of date: the pull request changed since head_commit_id');
    const merged = await this.commit(dir, details, doer, request);
    // Marked merged by hand: the commit named, which the base branch already holds.
    const mergeCommit =
      request.Do === 'manually-merged' ? ((await resolveCommit(dir, request.MergeCommitID ?? '')) ?? merged) : merged;
    const pending = await this.pushes.beginPush(doer, access.repo, dir);
    try {
      if (merged !== baseSha) await updateRef(dir, `refs/heads/${pull.baseBranch}`, merged, baseSha);
      if (request.delete_branch_after_merge && pull.headBranch !== access.repo.defaultBranch) {
        await deleteRef(dir, `refs/heads/${pull.headBranch}`, headSha).catch(() => undefined);
      }
    } catch (error) {
      if (error instanceof RefConflictError) throw new ConflictError('the base branch moved meanwhile; try again');
      throw error;
    } finally {
      await pending.finish();
    }
    const { mergeBase } = await compareBranches(dir, baseSha, headSha);
    await this.deps.transactions.run(async (repos) => {
      await repos.pulls.update(pull.id, {
        hasMerged: true,
        mergedAt: new Date(),
        mergedById: doer.id,
        mergedCommitId: mergeCommit,
        headCommitId: headSha,
        mergeBase: mergeBase || pull.mergeBase,
      });
      await this.issues.changeState(repos, access.repo, doer, issue, true);
    });
  }

  /** The commit the base branch will point at. */
  private async commit(dir: string, details: PullDetails, doer: User, request: MergeRequest): Promise<string> {
    const { pull, issue } = details;
    const base = details.baseSha;
    const head = pull.headCommitId;
    const message = (title: string) =>
      `${request.MergeTitleField?.trim() || title}\n${request.MergeMessageField ? `\n${request.MergeMessageField}\n` : ''}`;
    const committer = identity(doer);
    try {
      switch (request.Do) {
        case 'merge': {
          const tree = await mergedTree(dir, base, head);
          const title = `Merge pull request '${issue.title}' (#${issue.index}) from ${pull.headBranch} into ${pull.baseBranch}`;
          return await commitTree(dir, tree, [base, head], message(title), committer, committer);
        }
        case 'squash': {
          const tree = await mergedTree(dir, base, head);
          const author = details.poster ? identity(details.poster) : committer;
          return await commitTree(dir, tree, [base], message(`${issue.title} (#${issue.index})`), author, committer);
        }
        case 'fast-forward-only':
          if (!(await isAncestor(dir, base, head)))
            throw new MergeConflictError('the base branch is not an ancestor of the head');
          return head;
        case 'rebase':
          return await rebasedOnto(dir, base, head, committer);
        case 'rebase-merge': {
          const rebased = await rebasedOnto(dir, base, head, committer);
          const tree = await mergedTree(dir, base, rebased);
          const title = `Merge pull request '${issue.title}' (#${issue.index}) from ${pull.headBranch} into ${pull.baseBranch}`;
          return await commitTree(dir, tree, [base, rebased], message(title), committer, committer);
        }
        case 'manually-merged': {
          const commit = request.MergeCommitID ? await resolveCommit(dir, request.MergeCommitID) : null;
          if (!commit || !(await isAncestor(dir, commit, base)))
            throw new ValidationError('MergeCommitID must name a commit of the base branch');
          return base;
        }
      }
    } catch (error) {
      if (error instanceof MergeConflictError) throw new ConflictError(`merge conflicts: ${error.message}`);
      throw error;
    }
  }
}
