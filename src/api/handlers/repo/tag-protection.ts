// Tag protection rules (Forgejo: routers/api/v1/repo/tag.go, the *TagProtection handlers).
import { toTagProtection } from '../../../convert/tag-protection.ts';
import type { Handler } from '../../route.ts';

export const repoListTagProtection: Handler<'repoListTagProtection'> = async (ctx) => {
  ctx.send(200, (await ctx.app.services.tagProtections.list(ctx.repo().repo)).map(toTagProtection));
};

export const repoGetTagProtection: Handler<'repoGetTagProtection'> = async (ctx) => {
  ctx.send(200, toTagProtection(await ctx.app.services.tagProtections.get(ctx.repo().repo, ctx.params.id)));
};

export const repoCreateTagProtection: Handler<'repoCreateTagProtection'> = async (ctx) => {
  const body = ctx.body ?? {};
  const rule = await ctx.app.services.tagProtections.create(ctx.repo().repo, {
    namePattern: body.name_pattern,
    userNames: body.whitelist_usernames,
    teamNames: body.whitelist_teams,
  });
  ctx.send(201, toTagProtection(rule));
};

export const repoEditTagProtection: Handler<'repoEditTagProtection'> = async (ctx) => {
  const body = ctx.body ?? {};
  const rule = await ctx.app.services.tagProtections.edit(ctx.repo().repo, ctx.params.id, {
    namePattern: body.name_pattern,
    userNames: body.whitelist_usernames,
    teamNames: body.whitelist_teams,
  });
  ctx.send(200, toTagProtection(rule));
};

export const repoDeleteTagProtection: Handler<'repoDeleteTagProtection'> = async (ctx) => {
  await ctx.app.services.tagProtections.delete(ctx.repo().repo, ctx.params.id);
  ctx.send(204);
};
