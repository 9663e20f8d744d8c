// Enforcement in the route table, as Forgejo's context.EnforceQuotaAPI(subject, target): the write is refused with
// 413 and Forgejo's body when the owner it counts against may not write to the subject any more. Quota off: no-op.
import type { QuotaSubject } from '../domain/quota.ts';
import type { Guard } from './route.ts';

/**
 * Whose quota: the signed-in user (`/user/…`), the organization of the path (`/orgs/{org}/…`), or the owner of the
 * repository of the path (`/repos/{owner}/{repo}/…`).
 */
export type QuotaTarget = 'doer' | 'org' | 'repo';

export function enforceQuota(subject: QuotaSubject, target: QuotaTarget): Guard {
  return async (ctx) => {
    const owner = target === 'org' ? ctx.org() : target === 'repo' ? ctx.repo().repo.owner : ctx.doer();
    await ctx.app.services.quota.assertWithin(owner, subject);
  };
}
