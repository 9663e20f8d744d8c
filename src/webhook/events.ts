// What a webhook event is made of before it has a JSON shape: the rows it involves and what git said. The events
// service decides which hooks hear an event and hands it to a HookPayloadRenderer for the text each delivery
// stores; the renderer is the converter src/convert/hook-payload.ts, given to the services by bootstrap.ts.
import type { User } from '../db/prisma.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import type { PushedCommit } from '../git/push-commits.ts';
import type { ApiComment, ApiIssue, ApiPackage, ApiPullRequest, ChangesPayload, IssueAction } from './payload.ts';

export type RefType = 'branch' | 'tag';

export interface RepositoryEvent {
  type: 'repository';
  action: 'created' | 'deleted';
  repo: RepoWithOwner;
  sender: User;
}

export interface PushEvent {
  type: 'push';
  repo: RepoWithOwner;
  pusher: User;
  ref: string;
  before: string;
  after: string;
  /** Newest first, at most [webhook] PAYLOAD_COMMIT_LIMIT. */
  commits: PushedCommit[];
  totalCommits: number;
  headCommit: PushedCommit | null;
  /** `owner/repo/compare/a...b`, or empty; the payload prefixes ROOT_URL as Forgejo does. */
  comparePath: string;
}

export interface CreateEvent {
  type: 'create';
  repo: RepoWithOwner;
  sender: User;
  ref: string;
  refType: RefType;
  sha: string;
}

export interface DeleteEvent {
  type: 'delete';
  repo: RepoWithOwner;
  sender: User;
  ref: string;
  refType: RefType;
}

// The issue, comment, pull request and package records come as the API shows them, from whoever raises the event.

export interface IssuesEvent {
  type: 'issues';
  repo: RepoWithOwner;
  sender: User;
  action: IssueAction;
  issue: ApiIssue;
  changes?: ChangesPayload;
  commitId?: string;
}

export interface IssueCommentEvent {
  /** pull_request_comment when the issue is a pull request (then `pullRequest` is given). */
  type: 'issue_comment' | 'pull_request_comment';
  repo: RepoWithOwner;
  sender: User;
  action: 'created' | 'edited' | 'deleted';
  issue: ApiIssue;
  comment: ApiComment;
  pullRequest?: ApiPullRequest;
  changes?: ChangesPayload;
}

export interface PullRequestEvent {
  type: 'pull_request';
  repo: RepoWithOwner;
  sender: User;
  action: IssueAction;
  number: number;
  pullRequest: ApiPullRequest;
  changes?: ChangesPayload;
  commitId?: string;
}

export interface PackageEvent {
  type: 'package';
  sender: User;
  action: 'created' | 'deleted';
  package: ApiPackage;
}

export type HookEvent =
  | RepositoryEvent | PushEvent | CreateEvent | DeleteEvent | IssuesEvent | IssueCommentEvent | PullRequestEvent | PackageEvent;

/** The payload text a delivery of the event stores (and sends, per hook type). */
export type HookPayloadRenderer = (event: HookEvent) => string;
