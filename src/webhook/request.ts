// The HTTP request a delivery sends, per hook type (Forgejo: services/webhook/default.go, gogs.go, slack.go,
// discord.go, shared/payloader.go). forgejo, gitea and gogs hooks get the stored payload itself — gitea's
// create/delete with the short ref name, forgejo's push with a `compare` copy of `compare_url` (both re-marshalled,
// so with sorted keys, as Forgejo does) — as JSON or as the form field `payload`; the signatures are HMACs of the
// payload JSON with the hook secret (for form hooks too, as Forgejo signs them). slack and discord get a message.
import { createHmac } from 'node:crypto';
import { type HookEventType, hookEventHeader, shortRefName } from '../domain/hook-event.ts';
import { eventMessage, type MessageFormat } from './message.ts';
import { marshalIndent, sortKeysDeep } from './payload.ts';

export interface HookTarget {
  type: string;
  url: string;
  contentType: number;
  secret: string;
  meta: string;
}

export interface HookDeliveryTask {
  uuid: string;
  eventType: HookEventType;
  payload: string;
}

export interface HookRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export class UnsupportedHookTypeError extends Error {}

/** Go's url.QueryEscape: spaces as `+`, everything but letters, digits and `-_.~` percent-encoded. */
export function goQueryEscape(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

function reMarshal(payload: string, change: (value: Record<string, unknown>) => void): string {
  const value = JSON.parse(payload) as Record<string, unknown>;
  change(value);
  return marshalIndent(sortKeysDeep(value), '  ');
}

/** X-Forgejo-*, X-Gitea-*, X-Gogs-*, X-Hub-Signature(-256) and X-GitHub-* (shared/payloader.go AddDefaultHeaders). */
export function defaultHookHeaders(task: HookDeliveryTask, secret: string, signed: Buffer): Record<string, string> {
  const sha1 = secret ? createHmac('sha1', secret).update(signed).digest('hex') : '';
  const sha256 = secret ? createHmac('sha256', secret).update(signed).digest('hex') : '';
  const event = hookEventHeader(task.eventType);
  const headers: Record<string, string> = {};
  for (const prefix of ['X-Forgejo', 'X-Gitea', 'X-Gogs']) {
    headers[`${prefix}-Delivery`] = task.uuid;
    headers[`${prefix}-Event`] = event;
    headers[`${prefix}-Event-Type`] = task.eventType;
    headers[`${prefix}-Signature`] = sha256;
  }
  headers['X-Hub-Signature'] = `sha1=${sha1}`;
  headers['X-Hub-Signature-256'] = `sha256=${sha256}`;
  headers['X-GitHub-Delivery'] = task.uuid;
  headers['X-GitHub-Event'] = event;
  headers['X-GitHub-Event-Type'] = task.eventType;
  return headers;
}

function metaOf(hook: HookTarget): Record<string, string> {
  try {
    return JSON.parse(hook.meta) as Record<string, string>;
  } catch {
    return {};
  }
}

const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const SLACK: MessageFormat = {
  link: (url, text) => `<${url}|${slackEscape(text)}>`,
  name: (name) => `\`${slackEscape(name.replace(/`/g, "'"))}\``,
  text: slackEscape,
};
const DISCORD: MessageFormat = { link: (url, text) => `[${text}](${url})`, name: (name) => name, text: (text) => text };
const PLAIN: MessageFormat = { link: (_url, text) => text, name: (name) => name, text: (text) => text };

function chatBody(hook: HookTarget, task: HookDeliveryTask): string {
  const payload = JSON.parse(task.payload) as { sender?: { login?: string; avatar_url?: string; html_url?: string } };
  const meta = metaOf(hook);
  if (hook.type === 'slack') {
    const message = eventMessage(task.eventType, payload, SLACK);
    const attachments = message.details
      ? [
          {
            fallback: '',
            color: meta.color || `${message.color.toString(16)}`,
            title: message.url,
            title_link: message.url,
            text: message.details,
          },
        ]
      : null;
    return marshalIndent(
      {
        channel: meta.channel ?? '',
        text: message.text,
        username: meta.username ?? '',
        icon_url: meta.icon_url ?? '',
        unfurl_links: 0,
        link_names: 0,
        attachments,
      },
      '  ',
    );
  }
  const title = eventMessage(task.eventType, payload, PLAIN);
  const message = eventMessage(task.eventType, payload, DISCORD);
  return marshalIndent(
    {
      wait: false,
      content: '',
      username: meta.username ?? '',
      avatar_url: meta.icon_url ?? '',
      tts: false,
      embeds: [
        {
          title: title.text.slice(0, 256),
          description: message.details.slice(0, 4096),
          url: message.url,
          color: message.color,
          footer: { text: '' },
          author: {
            name: payload.sender?.login ?? '',
            url: payload.sender?.html_url ?? '',
            icon_url: payload.sender?.avatar_url ?? '',
          },
        },
      ],
    },
    '  ',
  );
}

export function renderHookRequest(hook: HookTarget, task: HookDeliveryTask): HookRequest {
  if (hook.type === 'slack' || hook.type === 'discord') {
    const body = Buffer.from(chatBody(hook, task));
    return {
      method: 'POST',
      url: hook.url,
      headers: { 'Content-Type': 'application/json', ...defaultHookHeaders(task, hook.secret, body) },
      body,
    };
  }
  if (hook.type !== 'forgejo' && hook.type !== 'gitea' && hook.type !== 'gogs')
    throw new UnsupportedHookTypeError(`hook type ${hook.type} is not delivered`);
  let payload = task.payload;
  if (hook.type === 'gitea' && (task.eventType === 'create' || task.eventType === 'delete')) {
    // Woodpecker reads the short ref name from Gitea's create/delete events.
    payload = reMarshal(payload, (value) => {
      value.ref = shortRefName(String(value.ref));
    });
  }
  if (hook.type === 'forgejo' && task.eventType === 'push') {
    payload = reMarshal(payload, (value) => {
      value.compare = value.compare_url;
    });
  }
  const signed = Buffer.from(payload);
  const form = hook.contentType === 2;
  const body = form ? Buffer.from(`payload=${goQueryEscape(payload)}`) : signed;
  const contentType = form ? 'application/x-www-form-urlencoded' : 'application/json';
  return {
    method: 'POST',
    url: hook.url,
    headers: { 'Content-Type': contentType, ...defaultHookHeaders(task, hook.secret, signed) },
    body,
  };
}
