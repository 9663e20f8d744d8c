// The signed-in user's own quota (Forgejo: routers/api/v1/user/quota.go over shared/quota.go).
import {
  sendQuotaArtifacts,
  sendQuotaAttachments,
  sendQuotaCheck,
  sendQuotaInfo,
  sendQuotaPackages,
} from '../quota-views.ts';
import type { Handler } from '../../route.ts';

export const userGetQuota: Handler<'userGetQuota'> = (ctx) => sendQuotaInfo(ctx, ctx.doer());
export const userCheckQuota: Handler<'userCheckQuota'> = (ctx) => sendQuotaCheck(ctx, ctx.doer(), ctx.query.subject);
export const userListQuotaAttachments: Handler<'userListQuotaAttachments'> = (ctx) =>
  sendQuotaAttachments(ctx, ctx.doer());
export const userListQuotaPackages: Handler<'userListQuotaPackages'> = (ctx) => sendQuotaPackages(ctx, ctx.doer());
export const userListQuotaArtifacts: Handler<'userListQuotaArtifacts'> = (ctx) => sendQuotaArtifacts(ctx, ctx.doer());
