// Enforcement in the route table, as Forgejo's context.EnforceQuotaAPI(subject, target): the write is refused with
// 413 and Forgejo's body when the owner it counts against may not write to the subject any more. Quota off: no-op.
import type { QuotaSubject } from '../domain/quota.ts';
import type { Guard } from './route.ts';

/** Whose quota: the signed-in user (`/user/…`) or the organization of the path (`/orgs/{org}/…`). */
export type QuotaTarget = 'doer' | 'org';

export function enforceQuota(subject: QuotaSubject, target: QuotaTarget): Guard {
  return async (ctx) => {
    const owner = target === 'org' ? ctx.org() : ctx.doer();
    await ctx.app.services.quota.assertWithin(owner, subject);
  };
}
