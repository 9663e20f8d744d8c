// Merges that wait for the checks (Forgejo: routers/api/v1/repo/pull.go MergePullRequest, services/automerge):
// `merge_when_checks_succeed` merges at once when the head's checks pass already, else records the merge (201),
// which a later commit status on the head carries out, as the user who asked, once the checks pass. The checks are
// the protected base branch's required status contexts when it has them, else every status of the head commit;
// a head with no statuses passes.
import type { User } from '../db/entities.ts';
import type { PullRequestRow } from '../db/issue.repository.ts';
import type { RepoWithOwner, RepoWithPermission } from '../db/repository-details.ts';
import { ConflictError, NotAllowedError, NotFoundError } from '../domain/errors.ts';
import { resolveRevision } from '../infra/git/revision.ts';
import type { BranchProtectionService } from './branch-protection.service.ts';
import type { PullMergeCheck } from './pull-merge-check.ts';
import type { MergeRequest, MergeStyle, PullMergeService } from './pull-merge.service.ts';
import type { PullReadService } from './pull-read.service.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface MergeOrScheduleRequest extends MergeRequest {
  merge_when_checks_succeed?: boolean;
}

export class PullAutoMergeService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly reads: PullReadService,
    private readonly merges: PullMergeService,
    private readonly protections: BranchProtectionService,
    private readonly permissions: RepoPermissionService,
    private readonly check: PullMergeCheck,
  ) {}

  /** Merges now, or schedules the merge when asked to wait for checks that have not passed yet. */
  async mergeOrSchedule(
    access: RepoWithPermission,
    index: number,
    doer: User,
    request: MergeOrScheduleRequest,
  ): Promise<'merged' | 'scheduled'> {
    const { merge_when_checks_succeed: whenChecksSucceed, ...merge } = request;
    if (!whenChecksSucceed || merge.Do === 'manually-merged') {
      await this.merges.merge(access, index, doer, merge);
      return 'merged';
    }
    const details = await this.reads.get(access, index, doer);
    const { pull, issue } = details;
    if (pull.hasMerged) throw new NotAllowedError('PR already merged');
    if (issue.isClosed) throw new NotAllowedError('PR is closed');
    await this.check.assertMergeable(access, details, doer, { kind: 'schedule' });
    if (await this.checksPass(access.repo, pull)) {
      await this.merges.merge(access, index, doer, merge);
      return 'merged';
    }
    if (await this.deps.repos.pullAutoMerges.findByPull(pull.id))
      throw new ConflictError('the pull request is already scheduled to merge when its checks succeed');
    await this.deps.repos.pullAutoMerges.create({
      pullId: pull.id,
      doerId: doer.id,
      mergeStyle: merge.Do,
      message: JSON.stringify({ title: merge.MergeTitleField ?? '', body: merge.MergeMessageField ?? '' }),
      deleteBranchAfterMerge: merge.delete_branch_after_merge ?? false,
    });
    return 'scheduled';
  }

  /** After a status on `sha`: the scheduled merges whose head it is and whose checks now pass are carried out. */
  async onStatus(repo: RepoWithOwner, sha: string): Promise<void> {
    for (const { schedule, pull } of await this.deps.repos.pullAutoMerges.pendingIn(repo.id)) {
      if ((await this.headOf(repo, pull)) !== sha || !(await this.checksPass(repo, pull))) continue;
      const [doer, issue] = await Promise.all([
        this.deps.repos.users.byId(schedule.doerId),
        this.deps.repos.issues.findById(pull.issueId),
      ]);
      if (!doer || !issue || issue.isClosed) {
        await this.deps.repos.pullAutoMerges.remove(pull.id);
        continue;
      }
      // The same check as a merge through the API, as the user who asked (who may have lost the right since); a
      // merge still blocked stays scheduled, as in Forgejo.
      const permission = await this.permissions.forRepo(doer, repo);
      const access = { repo, permission };
      try {
        await this.check.assertMergeable(access, await this.reads.get(access, issue.index, doer), doer, {
          kind: 'merge',
        });
      } catch (error) {
        if (error instanceof NotAllowedError || error instanceof NotFoundError) continue;
        throw error;
      }
      await this.deps.repos.pullAutoMerges.remove(pull.id);
      const message = JSON.parse(schedule.message) as { title: string; body: string };
      await this.merges.merge(access, issue.index, doer, {
        Do: schedule.mergeStyle as MergeStyle,
        MergeTitleField: message.title || undefined,
        MergeMessageField: message.body || undefined,
        delete_branch_after_merge: schedule.deleteBranchAfterMerge,
      });
    }
  }

  private async headOf(repo: RepoWithOwner, pull: PullRequestRow): Promise<string | null> {
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    return (await resolveRevision(dir, `refs/heads/${pull.headBranch}`))?.sha ?? null;
  }

  private async checksPass(repo: RepoWithOwner, pull: PullRequestRow): Promise<boolean> {
    const head = await this.headOf(repo, pull);
    if (!head) return false;
    const rule = await this.protections.ruleFor(repo, pull.baseBranch);
    const state = await this.check.statusState(repo, head, rule?.enableStatusCheck ? rule.statusCheckContexts : []);
    // Anvil merges at once a head with no statuses at all.
    return state === null || state === 'success';
  }
}
