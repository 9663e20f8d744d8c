// Webhook payloads from an event's rows (Forgejo: services/webhook/notifier.go with services/convert): users and
// repositories as an anonymous viewer sees them, commits as modules/repository/push.go ToAPIPayloadCommits lists
// them. HookEventsService decides who hears an event; this decides what they hear. bootstrap.ts hands it over.
import type { IssueDetails } from '../db/issue.repository.ts';
import type { User } from '../db/prisma.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { AccessMode } from '../domain/access/modes.ts';
import type { RepoPermission } from '../domain/access/repo-permission.ts';
import type { PushedCommit } from '../infra/git/push-commits.ts';
import type { HookEvent, HookPayloadRenderer } from '../webhook/events.ts';
import { type HookPayload, type PayloadCommit, payloadText } from '../webhook/payload.ts';
import { toComment, toIssue } from './issue.ts';
import { toPackage } from './package.ts';
import { toPullRequest } from './pull-request.ts';
import { toRelease } from './release.ts';
import { type ApiRepository, toRepository } from './repository.ts';
import { type ApiUser, toUser, type UserView } from './user.ts';

export interface HookPayloadView {
  rootUrl: string;
  noReplyAddress: string;
}

export function hookPayloadRenderer({ rootUrl, noReplyAddress }: HookPayloadView): HookPayloadRenderer {
  const view: UserView = { rootUrl, noReplyAddress, viewer: null };
  const user = (account: User): ApiUser => toUser(account, view);
  /** With owner permissions unless Forgejo shows it without (create events). */
  const repository = (repo: RepoWithOwner, mode: number = AccessMode.owner): ApiRepository => {
    const permission: RepoPermission = { mode, unitModes: null, units: repo.units.map((unit) => unit.type) };
    return toRepository({ repo, permission }, view);
  };
  const commit =
    (repo: RepoWithOwner) =>
    (pushed: PushedCommit): PayloadCommit => ({
      id: pushed.sha,
      message: pushed.message,
      url: `${rootUrl}${repo.ownerName}/${repo.name}/commit/${pushed.sha}`,
      author: { name: pushed.authorName, email: pushed.authorEmail, username: '' },
      committer: { name: pushed.committerName, email: pushed.committerEmail, username: '' },
      verification: null,
      // Go writes UTC as Z.
      timestamp: pushed.timestamp.replace(/\+00:00$/, 'Z'),
      added: pushed.added,
      removed: pushed.removed,
      modified: pushed.modified,
    });

  /** Forgejo's PullRequest record of a pull request's issue, its repository as its owner sees it. */
  const pull = (repo: RepoWithOwner, details: IssueDetails, baseSha: string) => {
    const permission: RepoPermission = {
      mode: AccessMode.owner,
      unitModes: null,
      units: repo.units.map((unit) => unit.type),
    };
    return toPullRequest({ ...details, pull: details.pull!, baseSha, repoDetails: { repo, permission } }, view);
  };

  const payload = (event: HookEvent): HookPayload => {
    switch (event.type) {
      case 'repository':
        return {
          action: event.action,
          repository: repository(event.repo),
          organization: user(event.repo.owner),
          sender: user(event.sender),
        };
      case 'push': {
        const pusher = user(event.pusher);
        return {
          ref: event.ref,
          before: event.before,
          after: event.after,
          compare_url: rootUrl + event.comparePath,
          commits: event.commits.map(commit(event.repo)),
          total_commits: event.totalCommits,
          head_commit: event.headCommit && commit(event.repo)(event.headCommit),
          repository: repository(event.repo),
          pusher,
          sender: pusher,
        };
      }
      case 'create':
        return {
          sha: event.sha,
          ref: event.ref,
          ref_type: event.refType,
          repository: repository(event.repo, AccessMode.none),
          sender: user(event.sender),
        };
      case 'delete':
        return {
          ref: event.ref,
          ref_type: event.refType,
          pusher_type: 'user',
          repository: repository(event.repo),
          sender: user(event.sender),
        };
      case 'issues':
      case 'issue_label':
      case 'issue_assign':
        return {
          action: event.action,
          number: event.issue.issue.index,
          ...(event.changes ? { changes: event.changes } : {}),
          issue: toIssue(event.issue, view),
          repository: repository(event.repo),
          sender: user(event.sender),
          commit_id: event.commitId ?? '',
        };
      case 'issue_comment':
      case 'pull_request_comment': {
        const isPull = event.type === 'pull_request_comment';
        return {
          action: event.action,
          issue: toIssue(event.issue, view),
          ...(isPull ? { pull_request: pull(event.repo, event.issue, event.baseSha ?? '') } : {}),
          comment: toComment(event.comment.row, event.comment.poster, event.issue.issue, event.issue.repo, view),
          ...(event.changes ? { changes: event.changes } : {}),
          repository: repository(event.repo),
          sender: user(event.sender),
          is_pull: isPull,
        };
      }
      case 'pull_request':
      case 'pull_request_label':
      case 'pull_request_assign':
      case 'pull_request_review_approved':
      case 'pull_request_review_rejected':
      case 'pull_request_review_comment':
        return {
          action: event.action,
          number: event.number,
          ...(event.changes ? { changes: event.changes } : {}),
          pull_request: pull(event.repo, event.pullRequest, event.baseSha),
          requested_reviewer: event.requestedReviewer ? user(event.requestedReviewer) : null,
          repository: repository(event.repo),
          sender: user(event.sender),
          commit_id: event.commitId ?? '',
          review: event.review ? { type: event.type, content: event.review.content } : null,
        };
      case 'package':
        // Forgejo leaves `repository` and `organization` empty in this payload (notifier.go notifyPackage).
        return {
          action: event.action,
          repository: null,
          package: toPackage(event.package, view),
          organization: null,
          sender: user(event.sender),
        };
      case 'release': {
        const links = { rootUrl, ownerName: event.repo.ownerName, name: event.repo.name };
        return {
          action: event.action,
          release: toRelease(event.release, links, view),
          repository: repository(event.repo),
          sender: user(event.sender),
        };
      }
      case 'status':
        return {
          commit: event.commit && commit(event.repo)(event.commit),
          context: event.status.context,
          created_at: event.status.createdAt.toISOString(),
          description: event.status.description,
          id: event.status.id,
          repository: repository(event.repo),
          sender: user(event.sender),
          sha: event.status.sha,
          state: event.status.state,
          target_url: event.status.targetUrl,
          updated_at: event.status.updatedAt.toISOString(),
        };
    }
  };

  return (event) => payloadText(event.type, payload(event));
}
