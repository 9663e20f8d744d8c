// Forgejo's PullRequest record (services/convert/pull.go), for pull requests whose branches share one repository.
import type { components } from '../../generated/api.d.ts';
import type { PullDetails } from '../db/pull-request.repository.ts';
import { toIssue } from './issue.ts';
import { toRepository } from './repository.ts';
import { toUser, type UserView } from './user.ts';

export type ApiPullRequest = components['schemas']['PullRequest'];

export function toPullRequest(details: PullDetails, view: UserView): ApiPullRequest {
  const issue = toIssue(details, view);
  const { pull, repoDetails } = details;
  const repository = toRepository(repoDetails, view);
  const htmlUrl = issue.html_url!;
  const branch = (ref: string, sha: string) => ({ label: ref, ref, sha, repo_id: details.repo.id, repo: repository });
  return {
    id: pull.id,
    url: htmlUrl,
    number: issue.number,
    user: issue.user,
    title: issue.title,
    body: issue.body,
    labels: issue.labels,
    ...(issue.milestone ? { milestone: issue.milestone } : {}),
    ...(issue.assignee ? { assignee: issue.assignee } : {}),
    assignees: issue.assignees,
    requested_reviewers: details.requestedReviewers?.length
      ? details.requestedReviewers.map((user) => toUser(user, view))
      : null,
    requested_reviewers_teams: null,
    state: issue.state,
    draft: false,
    is_locked: false,
    comments: issue.comments,
    review_comments: 0,
    additions: 0,
    deletions: 0,
    changed_files: 0,
    html_url: htmlUrl,
    diff_url: `${htmlUrl}.diff`,
    patch_url: `${htmlUrl}.patch`,
    mergeable: !pull.hasMerged,
    merged: pull.hasMerged,
    merged_at: issue.pull_request?.merged_at ?? null,
    ...(details.mergedBy ? { merged_by: toUser(details.mergedBy, view) } : {}),
    merge_commit_sha: pull.hasMerged ? pull.mergedCommitId : null,
    allow_maintainer_edit: false,
    base: branch(pull.baseBranch, details.baseSha),
    head: branch(pull.headBranch, pull.headCommitId),
    merge_base: pull.mergeBase,
    due_date: issue.due_date ?? null,
    created_at: issue.created_at,
    updated_at: issue.updated_at,
    closed_at: issue.closed_at ?? null,
    pin_order: 0,
  } as ApiPullRequest;
}
