// An organization's quota as its owners see it (Forgejo: routers/api/v1/org/quota.go over shared/quota.go).
import {
  sendQuotaArtifacts,
  sendQuotaAttachments,
  sendQuotaCheck,
  sendQuotaInfo,
  sendQuotaPackages,
} from '../quota-views.ts';
import type { Handler } from '../../route.ts';

export const orgGetQuota: Handler<'orgGetQuota'> = (ctx) => sendQuotaInfo(ctx, ctx.org());
export const orgCheckQuota: Handler<'orgCheckQuota'> = (ctx) => sendQuotaCheck(ctx, ctx.org(), ctx.query.subject);
export const orgListQuotaAttachments: Handler<'orgListQuotaAttachments'> = (ctx) =>
  sendQuotaAttachments(ctx, ctx.org());
export const orgListQuotaPackages: Handler<'orgListQuotaPackages'> = (ctx) => sendQuotaPackages(ctx, ctx.org());
export const orgListQuotaArtifacts: Handler<'orgListQuotaArtifacts'> = (ctx) => sendQuotaArtifacts(ctx, ctx.org());
