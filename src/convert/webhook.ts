import type { components } from '../../generated/api.d.ts';
import { hookContentTypeName, hookEventList } from '../domain/webhook.ts';
import type { Webhook } from '../db/webhook.repository.ts';
import { isoTime } from './time.ts';

export type ApiHook = components['schemas']['Hook'];

/**
 * Forgejo's hook record (services/webhook/general.go ToHook). The secret is never shown, and unlike Forgejo nor is
 * the authorization header: both are credentials for the receiver, write-only like Actions secrets.
 */
export function toHook(hook: Webhook): ApiHook {
  const config: Record<string, string> = { url: hook.url, content_type: hookContentTypeName(hook.contentType) };
  let metadata: unknown = null;
  if (hook.type === 'slack') {
    const meta = JSON.parse(hook.meta || '{}') as Record<string, string>;
    for (const key of ['channel', 'username', 'icon_url', 'color']) config[key] = meta[key] ?? '';
    metadata = {
      channel: meta.channel ?? '',
      username: meta.username ?? '',
      icon_url: meta.icon_url ?? '',
      color: meta.color ?? '',
    };
  }
  return {
    id: hook.id,
    type: hook.type,
    branch_filter: hook.branchFilter,
    url: hook.url,
    config,
    events: hookEventList(hook.events),
    authorization_header: '',
    content_type: hookContentTypeName(hook.contentType),
    metadata,
    active: hook.isActive,
    updated_at: isoTime(hook.updatedAt),
    created_at: isoTime(hook.createdAt),
  };
}
