// What an owner sees of its own quota, for the organization and the user routes alike (Forgejo:
// routers/api/v1/shared/quota.go): names of groups and rules left out, lists paged largest first.
import { toQuotaInfo, toQuotaUsedArtifact, toQuotaUsedAttachment, toQuotaUsedPackage } from '../../convert/quota.ts';
import type { User } from '../../db/entities.ts';
import type { RequestContext } from '../route.ts';

type View<Op extends string> = RequestContext<Extract<Op, RequestContext['operationId']>>;

export async function sendQuotaInfo(ctx: View<'orgGetQuota' | 'userGetQuota'>, owner: User): Promise<void> {
  ctx.send(200, toQuotaInfo(await ctx.app.services.quota.info(owner), false));
}

/** A bare JSON boolean. */
export async function sendQuotaCheck(
  ctx: View<'orgCheckQuota' | 'userCheckQuota'>,
  owner: User,
  subject: string | undefined,
): Promise<void> {
  ctx.send(200, await ctx.app.services.quota.check(owner, subject));
}

export async function sendQuotaAttachments(
  ctx: View<'orgListQuotaAttachments' | 'userListQuotaAttachments'>,
  owner: User,
): Promise<void> {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.quota.listAttachments(owner, page);
  ctx.sendPage(
    200,
    items.map((item) => toQuotaUsedAttachment(item, ctx.app.settings.server.ROOT_URL)),
    page,
    total,
  );
}

export async function sendQuotaPackages(
  ctx: View<'orgListQuotaPackages' | 'userListQuotaPackages'>,
  owner: User,
): Promise<void> {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.quota.listPackages(owner, page);
  ctx.sendPage(
    200,
    items.map((item) => toQuotaUsedPackage(item, ctx.app.settings.server.ROOT_URL)),
    page,
    total,
  );
}

export async function sendQuotaArtifacts(
  ctx: View<'orgListQuotaArtifacts' | 'userListQuotaArtifacts'>,
  owner: User,
): Promise<void> {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.quota.listArtifacts(owner, page);
  ctx.sendPage(
    200,
    items.map((item) => toQuotaUsedArtifact(item, ctx.app.settings.server.ROOT_URL)),
    page,
    total,
  );
}
