// Forgejo's Issue, Comment, Milestone and issue Label records (services/convert/issue.go, issue_comment.go).
import type { components } from '../../generated/api.d.ts';
import { ghostUser } from '../db/ghost-user.ts';
import { toOrgLabel } from './label.ts';
import type { CommentRow, IssueDetails, IssueRow, LabelRow, MilestoneRow } from '../db/issue.repository.ts';
import type { Repository, User } from '../db/prisma.ts';
import { repoApiUrl } from './repository.ts';
import { isoTime } from './time.ts';
import { toUser, type UserView } from './user.ts';

export type ApiIssue = components['schemas']['Issue'];
export type ApiComment = components['schemas']['Comment'];

const nullableTime = (date: Date | null | undefined) => (date ? isoTime(date) : null);

export function issueApiUrl(
  rootUrl: string,
  repo: Pick<Repository, 'ownerName' | 'name'>,
  issue: Pick<IssueRow, 'index'>,
): string {
  return `${repoApiUrl(rootUrl, repo)}/issues/${issue.index}`;
}

/** Pull requests live under /pulls on the web, issues under /issues. */
export function issueHtmlUrl(
  rootUrl: string,
  repo: Pick<Repository, 'ownerName' | 'name'>,
  issue: Pick<IssueRow, 'index' | 'isPull'>,
): string {
  return `${rootUrl}${repo.ownerName}/${repo.name}/${issue.isPull ? 'pulls' : 'issues'}/${issue.index}`;
}

export function commentApiUrl(
  rootUrl: string,
  repo: Pick<Repository, 'ownerName' | 'name'>,
  comment: Pick<CommentRow, 'id'>,
): string {
  return `${repoApiUrl(rootUrl, repo)}/issues/comments/${comment.id}`;
}

export function commentHtmlUrl(
  rootUrl: string,
  repo: Pick<Repository, 'ownerName' | 'name'>,
  issue: Pick<IssueRow, 'index' | 'isPull'>,
  comment: Pick<CommentRow, 'id'>,
): string {
  return `${issueHtmlUrl(rootUrl, repo, issue)}#issuecomment-${comment.id}`;
}

export function toIssueLabel(
  label: LabelRow,
  repo: Repository & { owner: User },
  rootUrl: string,
): components['schemas']['Label'] {
  if (label.orgId > 0) return toOrgLabel(label, repo.owner, rootUrl);
  return { ...toOrgLabel(label, repo.owner, rootUrl), url: `${repoApiUrl(rootUrl, repo)}/labels/${label.id}` };
}

export function toMilestone(milestone: MilestoneRow): components['schemas']['Milestone'] {
  return {
    id: milestone.id,
    title: milestone.name,
    description: milestone.description,
    state: milestone.isClosed ? 'closed' : 'open',
    open_issues: milestone.numIssues - milestone.numClosedIssues,
    closed_issues: milestone.numClosedIssues,
    created_at: isoTime(milestone.createdAt),
    updated_at: isoTime(milestone.updatedAt),
    closed_at: nullableTime(milestone.closedAt),
    due_on: nullableTime(milestone.deadlineAt),
  };
}

export function toIssue(details: IssueDetails, view: UserView): ApiIssue {
  const { issue, repo, labels, assignees, milestone, pull } = details;
  const { rootUrl } = view;
  const htmlUrl = issueHtmlUrl(rootUrl, repo, issue);
  const users = assignees.map((user) => toUser(user, view));
  return {
    id: issue.id,
    url: issueApiUrl(rootUrl, repo, issue),
    html_url: htmlUrl,
    number: issue.index,
    user: toUser(details.poster ?? ghostUser(), view),
    original_author: '',
    original_author_id: 0,
    title: issue.title,
    body: issue.content,
    ref: '',
    assets: [],
    labels: labels.map((label) => toIssueLabel(label, repo, rootUrl)),
    ...(milestone ? { milestone: toMilestone(milestone) } : {}),
    ...(users.length > 0 ? { assignee: users[0] } : {}),
    assignees: users.length > 0 ? users : null,
    state: issue.isClosed ? 'closed' : 'open',
    is_locked: false,
    comments: issue.numComments,
    created_at: isoTime(issue.createdAt),
    updated_at: isoTime(issue.updatedAt),
    closed_at: nullableTime(issue.closedAt),
    due_date: nullableTime(issue.deadlineAt),
    pin_order: 0,
    ...(issue.isPull
      ? {
          pull_request: {
            merged: pull?.hasMerged ?? false,
            merged_at: nullableTime(pull?.mergedAt),
            draft: false,
            html_url: htmlUrl,
          },
        }
      : {}),
    repository: { id: repo.id, name: repo.name, owner: repo.ownerName, full_name: `${repo.ownerName}/${repo.name}` },
  } as ApiIssue;
}

export function toComment(
  comment: CommentRow,
  poster: User | null,
  issue: IssueRow,
  repo: Repository & { owner: User },
  view: UserView,
): ApiComment {
  const issueHtml = issueHtmlUrl(view.rootUrl, repo, issue);
  return {
    id: comment.id,
    html_url: commentHtmlUrl(view.rootUrl, repo, issue, comment),
    pull_request_url: issue.isPull ? issueHtml : '',
    issue_url: issue.isPull ? '' : issueHtml,
    user: toUser(poster ?? ghostUser(), view),
    original_author: '',
    original_author_id: 0,
    body: comment.content,
    assets: [],
    created_at: isoTime(comment.createdAt),
    updated_at: isoTime(comment.updatedAt),
  };
}
