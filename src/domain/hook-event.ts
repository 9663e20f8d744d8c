// The webhook events Anvil reports, which hooks want them, and the names their headers carry
// (Forgejo: modules/webhook/type.go, models/webhook/webhook.go EventCheckers, services/webhook/webhook.go).
import { compileGlob, MAX_GLOB_LENGTH } from './glob.ts';
import type { HookEventFlag, HookEvents } from './webhook.ts';

export const HOOK_EVENT_TYPES = [
  'create',
  'delete',
  'push',
  'repository',
  'issues',
  'issue_label',
  'issue_assign',
  'issue_comment',
  'pull_request',
  'pull_request_label',
  'pull_request_assign',
  'pull_request_comment',
  'pull_request_review_approved',
  'pull_request_review_rejected',
  'pull_request_review_comment',
  'package',
  'release',
  'status',
] as const;
export type HookEventType = (typeof HOOK_EVENT_TYPES)[number];

/** The review events and their X-Forgejo-Event names (Forgejo: HookEventType.Event). */
const REVIEW_EVENT_HEADERS: Partial<Record<HookEventType, string>> = {
  pull_request_review_approved: 'pull_request_approved',
  pull_request_review_rejected: 'pull_request_rejected',
  pull_request_review_comment: 'pull_request_comment',
};

/** X-Forgejo-Event: comments on pull requests are `issue_comment` events, as on GitHub; label changes are `issues` and `pull_request` events. */
export function hookEventHeader(type: HookEventType): string {
  if (type === 'issue_label' || type === 'issue_assign') return 'issues';
  if (type === 'pull_request_label' || type === 'pull_request_assign') return 'pull_request';
  return type === 'pull_request_comment' ? 'issue_comment' : (REVIEW_EVENT_HEADERS[type] ?? type);
}

/** The switch of a hook's events that lets an event through: the three review events share one. */
function flagOf(type: Exclude<HookEventType, 'push' | 'status'>): HookEventFlag {
  return type in REVIEW_EVENT_HEADERS ? 'pull_request_review' : (type as HookEventFlag);
}

/** The hook columns the decision reads. */
export interface HookSubscription {
  events: string;
  branchFilter: string;
}

function storedEvents(text: string): Partial<HookEvents> {
  try {
    return JSON.parse(text) as Partial<HookEvents>;
  } catch {
    return {};
  }
}

/** Why a branch filter cannot be stored (Forgejo's GlobPattern binding, plus a length bound), or null. */
export function branchFilterProblem(filter: string): string | null {
  if (filter.length > MAX_GLOB_LENGTH) return `[branch_filter]: longer than ${MAX_GLOB_LENGTH} characters`;
  if (compileGlob(filter) === null) return '[branch_filter]: not a valid glob pattern';
  return null;
}

/** Whether the hook's branch filter lets a branch through; an empty filter or `*` lets everything through. */
export function branchFilterMatches(filter: string, branch: string): boolean {
  if (filter === '' || filter === '*') return true;
  return compileGlob(filter)?.test(branch) ?? false;
}

/**
 * Whether a hook wants an event: `send_everything` wants all, `push_only` only pushes, `choose_events` the chosen
 * ones. `branch` is the branch a push, create or delete is about (null for tags and other events), and only
 * then does the branch filter apply.
 */
export function hookWantsEvent(hook: HookSubscription, type: HookEventType, branch: string | null): boolean {
  const stored = storedEvents(hook.events);
  const chosen = (flag: HookEventFlag) =>
    stored.send_everything === true || (stored.choose_events === true && stored.events?.[flag] === true);
  // Commit statuses have no flag of their own among the hook's events: only hooks that want everything hear them.
  const wanted =
    type === 'push'
      ? stored.push_only === true || chosen('push')
      : type === 'status'
        ? stored.send_everything === true
        : chosen(flagOf(type));
  if (!wanted) return false;
  return branch === null || branchFilterMatches(hook.branchFilter, branch);
}

export const BRANCH_PREFIX = 'refs/heads/';
export const TAG_PREFIX = 'refs/tags/';

/** The branch a ref names, or null for tags and other refs. */
export function branchOfRef(ref: string): string | null {
  return ref.startsWith(BRANCH_PREFIX) ? ref.slice(BRANCH_PREFIX.length) : null;
}

/** git's RefName.ShortName for branches and tags. */
export function shortRefName(ref: string): string {
  if (ref.startsWith(BRANCH_PREFIX)) return ref.slice(BRANCH_PREFIX.length);
  if (ref.startsWith(TAG_PREFIX)) return ref.slice(TAG_PREFIX.length);
  return ref;
}
