// Branch protection rules as Forgejo shows them (services/convert/convert.go ToBranchProtection).
import type { components } from '../../generated/api.d.ts';
import type { ProtectionOptions } from '../domain/branch-protection.ts';
import type { ProtectedBranchRow } from '../db/protected-branch.repository.ts';

export type ApiBranchProtection = components['schemas']['BranchProtection'];

export function toBranchProtection(view: {
  row: ProtectedBranchRow;
  options: ProtectionOptions;
  userNames: Map<number, string>;
  teamNames: Map<number, string>;
}): ApiBranchProtection {
  const { row, options: o } = view;
  const users = (ids: number[]) => ids.flatMap((id) => view.userNames.get(id) ?? []);
  const teams = (ids: number[]) => ids.flatMap((id) => view.teamNames.get(id) ?? []);
  return {
    branch_name: row.ruleName,
    rule_name: row.ruleName,
    enable_push: o.enablePush,
    enable_push_whitelist: o.enablePushWhitelist,
    push_whitelist_usernames: users(o.pushWhitelistUserIds),
    push_whitelist_teams: teams(o.pushWhitelistTeamIds),
    push_whitelist_deploy_keys: o.pushWhitelistDeployKeys,
    enable_merge_whitelist: o.enableMergeWhitelist,
    merge_whitelist_usernames: users(o.mergeWhitelistUserIds),
    merge_whitelist_teams: teams(o.mergeWhitelistTeamIds),
    enable_status_check: o.enableStatusCheck,
    status_check_contexts: o.statusCheckContexts,
    required_approvals: o.requiredApprovals,
    enable_approvals_whitelist: o.enableApprovalsWhitelist,
    approvals_whitelist_username: users(o.approvalsWhitelistUserIds),
    approvals_whitelist_teams: teams(o.approvalsWhitelistTeamIds),
    block_on_rejected_reviews: o.blockOnRejectedReviews,
    block_on_official_review_requests: o.blockOnOfficialReviewRequests,
    block_on_outdated_branch: o.blockOnOutdatedBranch,
    dismiss_stale_approvals: o.dismissStaleApprovals,
    ignore_stale_approvals: o.ignoreStaleApprovals,
    require_signed_commits: o.requireSignedCommits,
    protected_file_patterns: o.protectedFilePatterns,
    unprotected_file_patterns: o.unprotectedFilePatterns,
    apply_to_admins: o.applyToAdmins,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
