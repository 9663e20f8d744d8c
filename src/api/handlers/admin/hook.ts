import { toHook } from '../../../convert/webhook.ts';
import type { Handler } from '../../route.ts';

export const adminListHooks: Handler<'adminListHooks'> = async (ctx) => {
  const hooks = await ctx.app.services.webhooks.listSystem();
  ctx.send(200, hooks.map(toHook));
};

export const adminCreateHook: Handler<'adminCreateHook'> = async (ctx) => {
  ctx.send(201, toHook(await ctx.app.services.webhooks.createInstance(ctx.body)));
};

export const adminGetHook: Handler<'adminGetHook'> = async (ctx) => {
  ctx.send(200, toHook(await ctx.app.services.webhooks.getInstance(ctx.params.id)));
};

export const adminEditHook: Handler<'adminEditHook'> = async (ctx) => {
  ctx.send(200, toHook(await ctx.app.services.webhooks.editInstance(ctx.params.id, ctx.body)));
};

export const adminDeleteHook: Handler<'adminDeleteHook'> = async (ctx) => {
  await ctx.app.services.webhooks.deleteInstance(ctx.params.id);
  ctx.send(204);
};
