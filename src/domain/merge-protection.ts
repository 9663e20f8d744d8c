// Whether a pull request may be merged into a protected branch (Forgejo: services/pull/check.go
// CheckPullMergeable, services/pull/merge.go IsUserAllowedToMerge and CheckPullBranchProtections,
// services/pull/commit_status.go, models/issues/pull.go HasEnoughApprovals and MergeBlockedBy*).
import type { ProtectionOptions } from './branch-protection.ts';
import { COMMIT_STATUS_STATES, type CommitStatusState } from './commit-status.ts';
import { ReviewType } from './review.ts';

/** A user in the repository's owner: their id and teams there. */
export interface Member {
  userId: number;
  teamIds: readonly number[];
}

/** A submitted review that decides (approve or request changes); only each reviewer's latest one counts. */
export interface Decision {
  reviewerId: number;
  type: number;
  /** The reviewer could write code when reviewing (Forgejo's `official` without an approvals whitelist). */
  official: boolean;
  /** The head commit reviewed. */
  commitId: string;
}

const inList = (member: Member, userIds: readonly number[], teamIds: readonly number[]) =>
  userIds.includes(member.userId) || member.teamIds.some((team) => teamIds.includes(team));

/** IsUserAllowedToMerge: writers of code without a rule; with a rule, its merge whitelist when enabled. */
export function mayMerge(rule: ProtectionOptions | null, canWriteCode: boolean, doer: Member): boolean {
  if (!rule || !rule.enableMergeWhitelist) return canWriteCode;
  return inList(doer, rule.mergeWhitelistUserIds, rule.mergeWhitelistTeamIds);
}

const rank = (state: string) => COMMIT_STATUS_STATES.indexOf(state as CommitStatusState);

/**
 * The state that decides a merge (Forgejo: MergeRequiredContextsCommitStatus): the worst latest status matching each
 * required context pattern, pending when a pattern matches none; without required contexts (or when none matched),
 * the combined state of every status, null when there are none.
 */
export function requiredContextsState(
  latest: ReadonlyArray<{ context: string; state: string }>,
  required: readonly string[],
  matches: (pattern: string, context: string) => boolean,
): CommitStatusState | null {
  let matched = 0;
  let result: CommitStatusState = 'success';
  for (const pattern of required) {
    const states = latest.filter((status) => matches(pattern, status.context)).map((status) => status.state);
    matched += states.length;
    if (states.length === 0) {
      if (rank('pending') < rank(result)) result = 'pending';
      break;
    }
    const worst = states.reduce((a, b) => (rank(b) < rank(a) ? b : a)) as CommitStatusState;
    if (rank(worst) < rank(result)) result = worst;
  }
  if (matched === 0 && result === 'success') {
    const states = latest.map((status) => status.state).filter((state) => rank(state) >= 0);
    return states.length === 0 ? null : (states.reduce((a, b) => (rank(b) < rank(a) ? b : a)) as CommitStatusState);
  }
  return result;
}

/** Each reviewer's latest decision, as Forgejo keeps `official` on the newest review of a reviewer only. */
export function latestDecisions(reviews: readonly Decision[]): Decision[] {
  const latest = new Map<number, Decision>();
  for (const review of reviews) {
    if (review.type === ReviewType.approve || review.type === ReviewType.reject) latest.set(review.reviewerId, review);
  }
  return [...latest.values()];
}

export interface MergeFacts {
  /** The state requiredContextsState gives for the head commit. */
  statusState: CommitStatusState | null;
  decisions: readonly Decision[];
  /** Teams of each reviewer in the repository's owner, for an approvals whitelist of teams. */
  reviewerTeams: ReadonlyMap<number, readonly number[]>;
  headSha: string;
  /** Commits on the base branch that the head does not have. */
  commitsBehind: number;
}

/** Whether a review counts for the rule (Forgejo: IsUserOfficialReviewer at review time). */
function isOfficial(rule: ProtectionOptions, decision: Decision, teams: ReadonlyMap<number, readonly number[]>) {
  if (!rule.enableApprovalsWhitelist) return decision.official;
  const member = { userId: decision.reviewerId, teamIds: teams.get(decision.reviewerId) ?? [] };
  return inList(member, rule.approvalsWhitelistUserIds, rule.approvalsWhitelistTeamIds);
}

/** Why the rule blocks the merge (Forgejo: CheckPullBranchProtections' reasons), or null. */
export function protectionBlock(rule: ProtectionOptions, facts: MergeFacts): string | null {
  if (rule.enableStatusCheck && facts.statusState !== 'success') return 'Not all required status checks successful';
  const official = facts.decisions.filter((decision) => isOfficial(rule, decision, facts.reviewerTeams));
  // A stale approval reviewed an older head; it does not count when the rule ignores or dismisses those.
  const dropStale = rule.ignoreStaleApprovals || rule.dismissStaleApprovals;
  const approvals = official.filter(
    (decision) => decision.type === ReviewType.approve && (!dropStale || decision.commitId === facts.headSha),
  );
  if (rule.requiredApprovals > 0 && approvals.length < rule.requiredApprovals) return 'Does not have enough approvals';
  if (rule.blockOnRejectedReviews && official.some((decision) => decision.type === ReviewType.reject))
    return 'There are requested changes';
  if (rule.blockOnOutdatedBranch && facts.commitsBehind > 0) return 'The head branch is behind the base branch';
  return null;
}

/** Whether `force_merge` lets this doer past a blocking rule: site admins, and repository admins unless it applies to them. */
export function mayForceMerge(rule: ProtectionOptions, isSiteAdmin: boolean, isRepoAdmin: boolean): boolean {
  return isSiteAdmin || (!rule.applyToAdmins && isRepoAdmin);
}

/** Forgejo's default [repository.pull-request] WORK_IN_PROGRESS_PREFIXES. */
const WORK_IN_PROGRESS_PREFIXES = ['WIP:', '[WIP]'];

export function isWorkInProgress(title: string): boolean {
  const upper = title.toUpperCase();
  return WORK_IN_PROGRESS_PREFIXES.some((prefix) => upper.startsWith(prefix));
}
