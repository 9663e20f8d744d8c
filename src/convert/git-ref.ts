// Branches and tags as Forgejo shows them (services/convert ToBranch, ToTag, ToPayloadCommit).
import type { components } from '../../generated/api.d.ts';
import type { ProtectionRule } from '../domain/branch-protection.ts';
import type { BranchRef, RefCommit, TagRef } from '../infra/git/refs.ts';

export type ApiBranch = components['schemas']['Branch'];
export type ApiTag = components['schemas']['Tag'];
export type ApiPayloadCommit = components['schemas']['PayloadCommit'];

interface RepoNames {
  ownerName: string;
  name: string;
}

export function toPayloadCommit(commit: RefCommit, rootUrl: string, repo: RepoNames): ApiPayloadCommit {
  return {
    id: commit.sha,
    message: commit.message,
    url: `${rootUrl}${repo.ownerName}/${repo.name}/commit/${commit.sha}`,
    author: { name: commit.author.name, email: commit.author.email, username: '' },
    committer: { name: commit.committer.name, email: commit.committer.email, username: '' },
    timestamp: commit.author.date,
    verification: { verified: false, reason: 'gpg.error.not_signed_commit', signature: '', payload: '' },
  };
}

/**
 * `access`: whether the viewer may push to the branch and merge into it (a protected branch may refuse pushes to
 * writers who may still merge pull requests); `rule`: the protection rule that applies, if any.
 */
export function toBranch(
  branch: BranchRef,
  rootUrl: string,
  repo: RepoNames,
  access: { canPush: boolean; canMerge: boolean },
  rule: ProtectionRule | null = null,
): ApiBranch {
  return {
    name: branch.name,
    commit: toPayloadCommit(branch.commit, rootUrl, repo),
    protected: rule !== null,
    required_approvals: rule?.options.requiredApprovals ?? 0,
    enable_status_check: rule?.options.enableStatusCheck ?? false,
    status_check_contexts: rule?.options.statusCheckContexts ?? [],
    user_can_push: access.canPush,
    user_can_merge: access.canMerge,
    effective_branch_protection_name: rule?.ruleName ?? '',
  };
}

export function toTag(tag: TagRef, rootUrl: string, repo: RepoNames): ApiTag {
  const htmlBase = `${rootUrl}${repo.ownerName}/${repo.name}`;
  return {
    name: tag.name,
    id: tag.id,
    message: tag.message,
    commit: {
      sha: tag.commitSha,
      url: `${rootUrl}api/v1/repos/${repo.ownerName}/${repo.name}/git/commits/${tag.commitSha}`,
      created: tag.created,
    },
    zipball_url: `${htmlBase}/archive/${tag.name}.zip`,
    tarball_url: `${htmlBase}/archive/${tag.name}.tar.gz`,
    archive_download_count: { zip: 0, tar_gz: 0 },
  };
}
