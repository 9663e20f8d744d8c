import { toHook } from '../../../convert/webhook.ts';
import type { Handler } from '../../route.ts';

export const orgListHooks: Handler<'orgListHooks'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.webhooks.listOrg(ctx.org(), page);
  ctx.sendPage(200, items.map(toHook), page, total);
};

export const orgCreateHook: Handler<'orgCreateHook'> = async (ctx) => {
  const { hook } = await ctx.app.services.webhooks.createOrg(ctx.org(), ctx.body);
  ctx.send(201, toHook(hook));
};

export const orgGetHook: Handler<'orgGetHook'> = async (ctx) => {
  const { hook } = await ctx.app.services.webhooks.getOrg(ctx.org(), ctx.params.id);
  ctx.send(200, toHook(hook));
};

export const orgEditHook: Handler<'orgEditHook'> = async (ctx) => {
  const { hook } = await ctx.app.services.webhooks.editOrg(ctx.org(), ctx.params.id, ctx.body);
  ctx.send(200, toHook(hook));
};

export const orgDeleteHook: Handler<'orgDeleteHook'> = async (ctx) => {
  await ctx.app.services.webhooks.deleteOrg(ctx.org(), ctx.params.id);
  ctx.send(204);
};
