import type { components } from '../../generated/api.d.ts';
import { isoTime } from './time.ts';

/** Forgejo's watch status of a repository for the caller (a subscription always watches, never ignores). */
export function toWatchInfo(repositoryUrl: string, createdAt: Date): components['schemas']['WatchInfo'] {
  return {
    subscribed: true,
    ignored: false,
    reason: null,
    created_at: isoTime(createdAt),
    url: `${repositoryUrl}/subscription`,
    repository_url: repositoryUrl,
  };
}
