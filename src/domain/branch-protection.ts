// Branch protection rules (Forgejo: models/git/protected_branch.go): which rule applies to a branch (an exact name
// before any glob), and whether a user may push to it, force-push or delete it.
import { compileGlob } from './glob.ts';

/** A rule's options as stored; users and teams by id (names are resolved when the rule is written). */
export interface ProtectionOptions {
  enablePush: boolean;
  enablePushWhitelist: boolean;
  pushWhitelistUserIds: number[];
  pushWhitelistTeamIds: number[];
  pushWhitelistDeployKeys: boolean;
  enableMergeWhitelist: boolean;
  mergeWhitelistUserIds: number[];
  mergeWhitelistTeamIds: number[];
  enableStatusCheck: boolean;
  statusCheckContexts: string[];
  requiredApprovals: number;
  enableApprovalsWhitelist: boolean;
  approvalsWhitelistUserIds: number[];
  approvalsWhitelistTeamIds: number[];
  blockOnRejectedReviews: boolean;
  blockOnOfficialReviewRequests: boolean;
  blockOnOutdatedBranch: boolean;
  dismissStaleApprovals: boolean;
  ignoreStaleApprovals: boolean;
  requireSignedCommits: boolean;
  protectedFilePatterns: string;
  unprotectedFilePatterns: string;
  applyToAdmins: boolean;
}

export const DEFAULT_PROTECTION: ProtectionOptions = {
  enablePush: false,
  enablePushWhitelist: false,
  pushWhitelistUserIds: [],
  pushWhitelistTeamIds: [],
  pushWhitelistDeployKeys: false,
  enableMergeWhitelist: false,
  mergeWhitelistUserIds: [],
  mergeWhitelistTeamIds: [],
  enableStatusCheck: false,
  statusCheckContexts: [],
  requiredApprovals: 0,
  enableApprovalsWhitelist: false,
  approvalsWhitelistUserIds: [],
  approvalsWhitelistTeamIds: [],
  blockOnRejectedReviews: false,
  blockOnOfficialReviewRequests: false,
  blockOnOutdatedBranch: false,
  dismissStaleApprovals: false,
  ignoreStaleApprovals: false,
  requireSignedCommits: false,
  protectedFilePatterns: '',
  unprotectedFilePatterns: '',
  applyToAdmins: false,
};

export interface ProtectionRule {
  ruleName: string;
  options: ProtectionOptions;
}

export function parseProtectionOptions(text: string): ProtectionOptions {
  try {
    return { ...DEFAULT_PROTECTION, ...(JSON.parse(text) as Partial<ProtectionOptions>) };
  } catch {
    return { ...DEFAULT_PROTECTION };
  }
}

/** Whether a rule name is a glob (Forgejo: IsRuleNameSpecial). */
export function isGlobRule(ruleName: string): boolean {
  return /[*?[\]{}\\]/.test(ruleName);
}

/** The rule that protects `branch`: the one named exactly, else the first glob that matches, else none. */
export function ruleForBranch<R extends { ruleName: string }>(rules: readonly R[], branch: string): R | null {
  const exact = rules.find((rule) => rule.ruleName === branch);
  if (exact) return exact;
  return rules.find((rule) => isGlobRule(rule.ruleName) && compileGlob(rule.ruleName)?.test(branch)) ?? null;
}

/** What the pusher is, for the push rule: their id, their teams in the repository's owner, and whether admin. */
export interface Pusher {
  userId: number;
  teamIds: readonly number[];
  /** Administers the repository (or the site): exempt unless the rule applies to admins. */
  isRepoAdmin: boolean;
}

/** Whether a pusher may update a protected branch directly (Forgejo: ProtectedBranch.CanUserPush). */
export function canPushToProtected(options: ProtectionOptions, pusher: Pusher): boolean {
  if (!options.enablePush) return false;
  if (!options.enablePushWhitelist) return true;
  return (
    options.pushWhitelistUserIds.includes(pusher.userId) ||
    pusher.teamIds.some((team) => options.pushWhitelistTeamIds.includes(team))
  );
}

export type RefUpdateKind = 'create' | 'update' | 'force' | 'delete';

/**
 * Why an update of a protected branch is refused, or null when it may go ahead (Forgejo:
 * routers/private/hook_pre_receive.go preReceiveBranch): no deletion, no force-push, pushes only by who may push.
 */
export function protectedPushRefusal(
  branch: string,
  options: ProtectionOptions,
  kind: RefUpdateKind,
  pusher: Pusher,
): string | null {
  if (kind === 'delete') return `branch ${branch} is protected from deletion`;
  if (kind === 'force') return `branch ${branch} is protected from force push`;
  if (pusher.isRepoAdmin && !options.applyToAdmins && options.enablePush) return null;
  if (!canPushToProtected(options, pusher)) return `Not allowed to push to protected branch ${branch}`;
  return null;
}
