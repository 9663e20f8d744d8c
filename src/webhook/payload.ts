// Webhook payloads in Forgejo's shapes (modules/structs/hook.go), whose records are the API's (the converter
// src/convert/hook-payload.ts fills them), and their JSON text as Forgejo writes it (json.MarshalIndent, HTML
// characters escaped as Go does).
import type { components } from '../../generated/api.d.ts';
import type { HookEventType } from '../domain/hook-event.ts';

type ApiOrganization = components['schemas']['Organization'];
export type ApiRepository = components['schemas']['Repository'];
export type ApiUser = components['schemas']['User'];
export type ApiIssue = components['schemas']['Issue'];
export type ApiComment = components['schemas']['Comment'];
export type ApiPackage = components['schemas']['Package'];
/** Anvil's contract has no pull request record yet; the pull request branch passes Forgejo's PullRequest JSON. */
export type ApiPullRequest = Record<string, unknown>;

export interface PayloadUser {
  name: string;
  email: string;
  username: string;
}

export interface PayloadCommit {
  id: string;
  message: string;
  url: string;
  author: PayloadUser;
  committer: PayloadUser;
  verification: null;
  timestamp: string;
  added: string[];
  removed: string[];
  modified: string[];
}

export interface PushPayload {
  ref: string;
  before: string;
  after: string;
  compare_url: string;
  commits: PayloadCommit[];
  total_commits: number;
  head_commit: PayloadCommit | null;
  repository: ApiRepository;
  pusher: ApiUser;
  sender: ApiUser;
}

export interface CreatePayload {
  sha: string;
  ref: string;
  ref_type: 'branch' | 'tag';
  repository: ApiRepository;
  sender: ApiUser;
}

export interface DeletePayload {
  ref: string;
  ref_type: 'branch' | 'tag';
  pusher_type: 'user';
  repository: ApiRepository;
  sender: ApiUser;
}

export interface RepositoryPayload {
  action: 'created' | 'deleted';
  repository: ApiRepository;
  organization: ApiUser;
  sender: ApiUser;
}

export interface ChangesPayload {
  title?: { from: string };
  body?: { from: string };
  ref?: { from: string };
}

export type IssueAction =
  | 'opened'
  | 'closed'
  | 'reopened'
  | 'edited'
  | 'synchronized'
  | 'reviewed'
  | 'label_updated'
  | 'assigned'
  | 'unassigned';

export interface IssuePayload {
  action: IssueAction;
  number: number;
  changes?: ChangesPayload;
  issue: ApiIssue;
  repository: ApiRepository;
  sender: ApiUser;
  commit_id: string;
}

export interface IssueCommentPayload {
  action: 'created' | 'edited' | 'deleted';
  issue: ApiIssue;
  pull_request?: ApiPullRequest;
  comment: ApiComment;
  changes?: ChangesPayload;
  repository: ApiRepository;
  sender: ApiUser;
  is_pull: boolean;
}

export interface PullRequestPayload {
  action: IssueAction;
  number: number;
  changes?: ChangesPayload;
  pull_request: ApiPullRequest;
  requested_reviewer: ApiUser | null;
  repository: ApiRepository;
  sender: ApiUser;
  commit_id: string;
  /** For the review events: the event's type and the review's text (Forgejo: ReviewPayload). */
  review: { type: string; content: string } | null;
}

export interface PackagePayload {
  action: 'created' | 'deleted';
  repository: ApiRepository | null;
  package: ApiPackage;
  organization: ApiOrganization | ApiUser | null;
  sender: ApiUser;
}

export interface ReleasePayload {
  action: 'published' | 'updated' | 'deleted';
  release: components['schemas']['Release'];
  repository: ApiRepository;
  sender: ApiUser;
}

export interface StatusPayload {
  commit: PayloadCommit | null;
  context: string;
  created_at: string;
  description: string;
  id: number;
  repository: ApiRepository;
  sender: ApiUser;
  sha: string;
  state: string;
  target_url: string;
  updated_at: string;
}

export type HookPayload =
  | PushPayload
  | CreatePayload
  | DeletePayload
  | RepositoryPayload
  | IssuePayload
  | IssueCommentPayload
  | PullRequestPayload
  | PackagePayload
  | ReleasePayload
  | StatusPayload;

/** Go's encoding/json escapes these even inside strings; receivers that re-serialise expect the same bytes. */
export function goJsonEscape(text: string): string {
  return text.replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** json.MarshalIndent(payload, "", indent) with Go's HTML escaping. */
export function marshalIndent(value: unknown, indent: string): string {
  return goJsonEscape(JSON.stringify(value, null, indent));
}

/** The payload text stored with a delivery: repository payloads indent by one space, the others by two (as Forgejo). */
export function payloadText(type: HookEventType, payload: HookPayload): string {
  return marshalIndent(payload, type === 'repository' ? ' ' : '  ');
}

/** Go marshals a map with its keys sorted; Forgejo re-marshals some payloads through one before sending. */
export function sortKeysDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeysDeep);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeysDeep((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
