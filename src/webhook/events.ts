// What a webhook event is made of before it has a JSON shape: the rows it involves and what git said. The events
// service decides which hooks hear an event and hands it to a HookPayloadRenderer for the text each delivery
// stores; the renderer is the converter src/convert/hook-payload.ts, given to the services by bootstrap.ts.
import type { User } from '../db/prisma.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import type { PushedCommit } from '../infra/git/push-commits.ts';
import type { CommentRow, IssueDetails } from '../db/issue.repository.ts';
import type { PackageView } from '../db/package.repository.ts';
import type { CommitStatusRow } from '../db/commit-status.repository.ts';
import type { AttachmentRow, ReleaseRow } from '../db/release.repository.ts';
import type { ChangesPayload, IssueAction } from './payload.ts';

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

// Issues, comments, pull requests and packages come as rows with what their records show; the renderer shapes them.

export interface IssuesEvent {
  type: 'issues' | 'issue_label' | 'issue_assign';
  repo: RepoWithOwner;
  sender: User;
  action: IssueAction;
  issue: IssueDetails;
  changes?: ChangesPayload;
  commitId?: string;
}

export interface IssueCommentEvent {
  /** pull_request_comment when the issue is a pull request (then `pullRequest` is given). */
  type: 'issue_comment' | 'pull_request_comment';
  repo: RepoWithOwner;
  sender: User;
  action: 'created' | 'edited' | 'deleted';
  issue: IssueDetails;
  comment: { row: CommentRow; poster: User | null };
  /** For a pull request's comment: the commit its base branch points at. */
  baseSha?: string;
  changes?: ChangesPayload;
}

export type PullRequestReviewEventType =
  'pull_request_review_approved' | 'pull_request_review_rejected' | 'pull_request_review_comment';

export interface PullRequestEvent {
  /** A review event carries `review` and names the reviewer as `requestedReviewer`. */
  type: 'pull_request' | 'pull_request_label' | 'pull_request_assign' | PullRequestReviewEventType;
  repo: RepoWithOwner;
  sender: User;
  action: IssueAction;
  number: number;
  /** The pull request's issue with its pull row. */
  pullRequest: IssueDetails;
  /** The commit the base branch points at. */
  baseSha: string;
  changes?: ChangesPayload;
  commitId?: string;
  review?: { content: string };
  requestedReviewer?: User;
}

export interface PackageEvent {
  type: 'package';
  sender: User;
  action: 'created' | 'deleted';
  package: PackageView;
}

export interface ReleaseEvent {
  type: 'release';
  repo: RepoWithOwner;
  sender: User;
  action: 'published' | 'updated' | 'deleted';
  release: { release: ReleaseRow; publisher: User | null; attachments: AttachmentRow[] };
}

export interface StatusEvent {
  type: 'status';
  repo: RepoWithOwner;
  sender: User;
  status: CommitStatusRow;
  /** The commit the status is about, as a push lists it. */
  commit: PushedCommit | null;
}

export type HookEvent =
  | RepositoryEvent
  | PushEvent
  | CreateEvent
  | DeleteEvent
  | IssuesEvent
  | IssueCommentEvent
  | PullRequestEvent
  | PackageEvent
  | ReleaseEvent
  | StatusEvent;

/** The payload text a delivery of the event stores (and sends, per hook type). */
export type HookPayloadRenderer = (event: HookEvent) => string;
