// The one check before a pull request is merged, by the API or by a scheduled merge (Forgejo: services/pull/check.go
// CheckPullMergeable): who may merge, work in progress, and the protected base branch's rule — required status
// checks, approvals, requested changes, an outdated head — which `force_merge` lets admins past as Forgejo allows.
import type { User } from '../db/entities.ts';
import type { PullDetails } from '../db/pull-request.repository.ts';
import type { RepoWithOwner, RepoWithPermission } from '../db/repository-details.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { canWriteCode, isRepoAdmin } from '../domain/access/repo-permission.ts';
import { NotAllowedError } from '../domain/errors.ts';
import { compileGlob } from '../domain/glob.ts';
import {
  isWorkInProgress,
  latestDecisions,
  mayForceMerge,
  mayMerge,
  protectionBlock,
  requiredContextsState,
} from '../domain/merge-protection.ts';
import type { CommitStatusState } from '../domain/commit-status.ts';
import { commitsBehind } from '../infra/git/compare.ts';
import type { BranchProtectionService } from './branch-protection.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/**
 * `merge`: every check; `mark-merged` (manually merged) and `schedule` (merge when checks succeed) check only the
 * doer's right to merge, as Forgejo does; a scheduled merge is checked in full when it is carried out.
 */
export type MergeCheckKind = 'merge' | 'mark-merged' | 'schedule';

const globMatches = (pattern: string, context: string) => compileGlob(pattern)?.test(context) ?? false;

export class PullMergeCheck {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly protections: BranchProtectionService,
  ) {}

  /** Refuses (405, Forgejo's messages) a merge this doer may not make now. */
  async assertMergeable(
    access: RepoWithPermission,
    details: PullDetails,
    doer: User,
    options: { kind: MergeCheckKind; force?: boolean },
  ): Promise<void> {
    const { repo, permission } = access;
    const rule = await this.protections.ruleFor(repo, details.pull.baseBranch);
    const doerTeams = rule ? await this.teamIdsOf(repo, doer.id) : [];
    const writer = doer.isAdmin || canWriteCode(permission);
    if (!mayMerge(rule, writer, { userId: doer.id, teamIds: doerTeams }))
      throw new NotAllowedError('User not allowed to merge PR');
    if (options.kind !== 'merge') return;
    if (isWorkInProgress(details.issue.title)) throw new NotAllowedError('Work in progress PRs cannot be merged');
    if (!rule) return;
    const block = protectionBlock(rule, await this.facts(repo, details, rule.statusCheckContexts));
    if (!block) return;
    if (options.force && mayForceMerge(rule, doer.isAdmin, isRepoAdmin(permission))) return;
    throw new NotAllowedError(`not allowed to merge [reason: ${block}]`);
  }

  /** The state of the head's statuses against `required` context patterns (none: every status counts). */
  async statusState(
    repo: RepoWithOwner,
    headSha: string,
    required: readonly string[],
  ): Promise<CommitStatusState | null> {
    const latest = await this.deps.repos.commitStatuses.latestPerContext(repo.id, headSha);
    return requiredContextsState(latest, required, globMatches);
  }

  private async facts(repo: RepoWithOwner, details: PullDetails, required: readonly string[]) {
    const headSha = details.pull.headCommitId;
    const dir = this.deps.stores.repositories.directoryOf(repo);
    const [statusState, reviews, behind] = await Promise.all([
      this.statusState(repo, headSha, required),
      this.deps.repos.reviews.listDecisions(details.issue.id),
      details.baseSha ? commitsBehind(dir, details.baseSha, headSha) : Promise.resolve(0),
    ]);
    const decisions = latestDecisions(reviews);
    const reviewerTeams = new Map<number, number[]>();
    for (const decision of decisions)
      reviewerTeams.set(decision.reviewerId, await this.teamIdsOf(repo, decision.reviewerId));
    return { statusState, decisions, reviewerTeams, headSha, commitsBehind: behind };
  }

  private async teamIdsOf(repo: RepoWithOwner, userId: number): Promise<number[]> {
    return isOrganization(repo.owner) ? this.deps.repos.teams.teamIdsOfMember(repo.ownerId, userId) : [];
  }
}
