// Branch protection rules (Forgejo: routers/api/v1/repo/branch.go, the *BranchProtection handlers).
import type { components } from '../../../../generated/api.d.ts';
import { toBranchProtection } from '../../../convert/branch-protection.ts';
import type { ProtectionInput } from '../../../services/branch-protection.service.ts';
import type { Handler } from '../../route.ts';

type Body = components['schemas']['EditBranchProtectionOption'] & { rule_name?: string; branch_name?: string };

/** The API's snake_case fields as the service's options; absent fields stay absent. */
function input(body: Body): ProtectionInput {
  return {
    ruleName: body.rule_name || body.branch_name,
    enablePush: body.enable_push,
    enablePushWhitelist: body.enable_push_whitelist,
    pushWhitelistUsernames: body.push_whitelist_usernames,
    pushWhitelistTeams: body.push_whitelist_teams,
    pushWhitelistDeployKeys: body.push_whitelist_deploy_keys,
    enableMergeWhitelist: body.enable_merge_whitelist,
    mergeWhitelistUsernames: body.merge_whitelist_usernames,
    mergeWhitelistTeams: body.merge_whitelist_teams,
    enableStatusCheck: body.enable_status_check,
    statusCheckContexts: body.status_check_contexts,
    requiredApprovals: body.required_approvals,
    enableApprovalsWhitelist: body.enable_approvals_whitelist,
    approvalsWhitelistUsernames: body.approvals_whitelist_username,
    approvalsWhitelistTeams: body.approvals_whitelist_teams,
    blockOnRejectedReviews: body.block_on_rejected_reviews,
    blockOnOfficialReviewRequests: body.block_on_official_review_requests,
    blockOnOutdatedBranch: body.block_on_outdated_branch,
    dismissStaleApprovals: body.dismiss_stale_approvals,
    ignoreStaleApprovals: body.ignore_stale_approvals,
    requireSignedCommits: body.require_signed_commits,
    protectedFilePatterns: body.protected_file_patterns,
    unprotectedFilePatterns: body.unprotected_file_patterns,
    applyToAdmins: body.apply_to_admins,
  };
}

export const repoListBranchProtection: Handler<'repoListBranchProtection'> = async (ctx) => {
  ctx.send(200, (await ctx.app.services.branchProtections.list(ctx.repo().repo)).map(toBranchProtection));
};

export const repoGetBranchProtection: Handler<'repoGetBranchProtection'> = async (ctx) => {
  ctx.send(200, toBranchProtection(await ctx.app.services.branchProtections.get(ctx.repo().repo, ctx.params.name)));
};

export const repoCreateBranchProtection: Handler<'repoCreateBranchProtection'> = async (ctx) => {
  const rule = await ctx.app.services.branchProtections.create(ctx.repo().repo, input(ctx.body));
  ctx.send(201, toBranchProtection(rule));
};

export const repoEditBranchProtection: Handler<'repoEditBranchProtection'> = async (ctx) => {
  const rule = await ctx.app.services.branchProtections.edit(ctx.repo().repo, ctx.params.name, input(ctx.body));
  ctx.send(200, toBranchProtection(rule));
};

export const repoDeleteBranchProtection: Handler<'repoDeleteBranchProtection'> = async (ctx) => {
  await ctx.app.services.branchProtections.delete(ctx.repo().repo, ctx.params.name);
  ctx.send(204);
};
