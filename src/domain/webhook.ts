// Webhook vocabulary (Forgejo: modules/webhook, models/webhook, routers/api/v1/utils/hook.go).
// Events are stored as Forgejo's HookEvent JSON so the delivery side reads what Forgejo would.

import { memberOf } from '../lib/member-of.ts';

export const HOOK_TYPES = [
  'forgejo',
  'gitea',
  'gogs',
  'slack',
  'discord',
  'dingtalk',
  'telegram',
  'msteams',
  'feishu',
  'matrix',
  'wechatwork',
  'packagist',
  'sourcehut_builds',
] as const;
export type HookType = (typeof HOOK_TYPES)[number];

export const isHookType = memberOf(HOOK_TYPES);

/** The types Anvil delivers; the others Forgejo knows are refused at creation. */
export const DELIVERED_HOOK_TYPES: readonly HookType[] = ['forgejo', 'gitea', 'gogs', 'slack', 'discord'];

export const HOOK_CONTENT_TYPES = ['', 'json', 'form'] as const;

/** Stored content type number (1 json, 2 form), or 0 when the name is unknown. */
export function hookContentTypeNumber(name: string): number {
  const index = HOOK_CONTENT_TYPES.indexOf(name as never);
  return index > 0 ? index : 0;
}

export function hookContentTypeName(value: number): string {
  return HOOK_CONTENT_TYPES[value] ?? '';
}

/** The event switches a hook stores (HookEvents). */
export const HOOK_EVENT_FLAGS = [
  'create',
  'delete',
  'fork',
  'issues',
  'issue_assign',
  'issue_label',
  'issue_milestone',
  'issue_comment',
  'push',
  'pull_request',
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
  'wiki',
  'repository',
  'release',
  'package',
] as const;
export type HookEventFlag = (typeof HOOK_EVENT_FLAGS)[number];

export interface HookEvents {
  push_only: boolean;
  send_everything: boolean;
  choose_events: boolean;
  branch_filter: string;
  events: Record<HookEventFlag, boolean>;
}

const ISSUE_FLAGS: readonly HookEventFlag[] = ['issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'];
const PULL_FLAGS: readonly HookEventFlag[] = [
  'pull_request_assign',
  'pull_request_label',
  'pull_request_milestone',
  'pull_request_comment',
  'pull_request_review',
  'pull_request_review_request',
  'pull_request_sync',
];

/**
 * The switches an API `events` list turns on. `issues` turns on every issue event and `pull_request` every
 * pull-request event; `issues_only` and `pull_request_only` turn on just the main one. An empty list means push.
 */
export function hookEventsFromList(list: readonly string[] | undefined, branchFilter = ''): HookEvents {
  const names = new Set((list && list.length > 0 ? list : ['push']).map((name) => name.toLowerCase()));
  const events = Object.fromEntries(HOOK_EVENT_FLAGS.map((flag) => [flag, false])) as Record<HookEventFlag, boolean>;
  for (const flag of ['create', 'delete', 'fork', 'push', 'wiki', 'repository', 'release', 'package'] as const)
    events[flag] = names.has(flag);
  events.issues = names.has('issues') || names.has('issues_only');
  for (const flag of ISSUE_FLAGS) events[flag] = names.has('issues') || names.has(flag);
  events.pull_request = names.has('pull_request') || names.has('pull_request_only');
  for (const flag of PULL_FLAGS) events[flag] = names.has('pull_request') || names.has(flag);
  return { push_only: false, send_everything: false, choose_events: true, branch_filter: branchFilter, events };
}

/** The event names a hook reports, in Forgejo's order (EventsArray). */
export function hookEventList(stored: string): string[] {
  let hook: Partial<HookEvents>;
  try {
    hook = JSON.parse(stored) as Partial<HookEvents>;
  } catch {
    return [];
  }
  const on = (flag: HookEventFlag) =>
    hook.send_everything === true || (hook.choose_events === true && hook.events?.[flag] === true);
  const pairs: [string, boolean][] = [
    ['create', on('create')],
    ['delete', on('delete')],
    ['fork', on('fork')],
    ['push', hook.push_only === true || on('push')],
    ['issues', on('issues')],
    ['issue_assign', on('issue_assign')],
    ['issue_label', on('issue_label')],
    ['issue_milestone', on('issue_milestone')],
    ['issue_comment', on('issue_comment')],
    ['pull_request', on('pull_request')],
    ['pull_request_assign', on('pull_request_assign')],
    ['pull_request_label', on('pull_request_label')],
    ['pull_request_milestone', on('pull_request_milestone')],
    ['pull_request_comment', on('pull_request_comment')],
    ['pull_request_review_approved', on('pull_request_review')],
    ['pull_request_review_rejected', on('pull_request_review')],
    ['pull_request_review_comment', on('pull_request_review')],
    ['pull_request_sync', on('pull_request_sync')],
    ['wiki', on('wiki')],
    ['repository', on('repository')],
    ['release', on('release')],
    ['package', on('package')],
    ['pull_request_review_request', on('pull_request_review_request')],
  ];
  return pairs.filter(([, enabled]) => enabled).map(([name]) => name);
}

const SLACK_CHANNEL = /^#?[a-z0-9_-]{1,80}$/;

export function isValidSlackChannel(name: string): boolean {
  return SLACK_CHANNEL.test(name);
}

/** A hook target must be an absolute http(s) URL; whether it is reachable is the delivery side's concern. */
export function isValidHookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}
