import { toUser } from '../../../convert/user.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const orgListMembers: Handler<'orgListMembers'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgMembers.list(ctx.caller?.user ?? null, ctx.org(), page);
  ctx.sendPage(
    200,
    items.map((user) => toUser(user, userView(ctx))),
    page,
    total,
  );
};

export const orgListPublicMembers: Handler<'orgListPublicMembers'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.orgMembers.listPublic(ctx.org(), page);
  ctx.sendPage(
    200,
    items.map((user) => toUser(user, userView(ctx))),
    page,
    total,
  );
};

export const orgIsMember: Handler<'orgIsMember'> = async (ctx) => {
  const answer = await ctx.app.services.orgMembers.check(ctx.doer(), ctx.org(), ctx.params.username);
  if (answer.kind === 'member') return ctx.send(204);
  ctx.res.setHeader('Location', answer.location);
  ctx.send(303);
};

export const orgIsPublicMember: Handler<'orgIsPublicMember'> = async (ctx) => {
  await ctx.app.services.orgMembers.assertPublicMember(ctx.org(), ctx.params.username);
  ctx.send(204);
};

export const orgPublicizeMember: Handler<'orgPublicizeMember'> = async (ctx) => {
  await ctx.app.services.orgMembers.setPublicity(ctx.doer(), ctx.org(), ctx.params.username, true);
  ctx.send(204);
};

export const orgConcealMember: Handler<'orgConcealMember'> = async (ctx) => {
  await ctx.app.services.orgMembers.setPublicity(ctx.doer(), ctx.org(), ctx.params.username, false);
  ctx.send(204);
};

export const orgDeleteMember: Handler<'orgDeleteMember'> = async (ctx) => {
  await ctx.app.services.orgMembers.remove(ctx.org(), ctx.params.username);
  ctx.send(204);
};
