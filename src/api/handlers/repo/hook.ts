// A repository's webhooks (Forgejo: routers/api/v1/repo/hook.go).
import { toHook } from '../../../convert/webhook.ts';
import type { Handler } from '../../route.ts';

export const repoListHooks: Handler<'repoListHooks'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.webhooks.listRepo(ctx.repo().repo, page);
  ctx.sendPage(200, items.map(toHook), page, total);
};

export const repoCreateHook: Handler<'repoCreateHook'> = async (ctx) => {
  ctx.send(201, toHook(await ctx.app.services.webhooks.createRepo(ctx.repo().repo, ctx.body)));
};

export const repoGetHook: Handler<'repoGetHook'> = async (ctx) => {
  ctx.send(200, toHook(await ctx.app.services.webhooks.getRepo(ctx.repo().repo, ctx.params.id)));
};

export const repoEditHook: Handler<'repoEditHook'> = async (ctx) => {
  ctx.send(200, toHook(await ctx.app.services.webhooks.editRepo(ctx.repo().repo, ctx.params.id, ctx.body ?? {})));
};

export const repoDeleteHook: Handler<'repoDeleteHook'> = async (ctx) => {
  await ctx.app.services.webhooks.deleteRepo(ctx.repo().repo, ctx.params.id);
  ctx.send(204);
};

export const repoTestHook: Handler<'repoTestHook'> = async (ctx) => {
  await ctx.app.services.repoHooks.test(ctx.repo().repo, ctx.params.id, ctx.doer(), ctx.query.ref);
  ctx.send(204);
};
