// Starred repositories (Forgejo: routers/api/v1/user/star.go).
import { isPublicOnly } from '../../../auth/caller.ts';
import type { User } from '../../../db/entities.ts';
import type { Handler, RequestContext } from '../../route.ts';
import { presentRepos } from '../repo/present.ts';

async function sendStarred(
  ctx: RequestContext<'userListStarred' | 'userCurrentListStarred'>,
  user: User,
): Promise<void> {
  const page = ctx.listOptions();
  const { repoSearch, repoStars } = ctx.app.services;
  const ids = await repoStars.starredIds(user);
  const { repos, total } = await repoSearch.listReposIn(ctx.caller?.user ?? null, isPublicOnly(ctx.caller), ids, page);
  ctx.sendPage(200, await presentRepos(ctx, repos), page, total);
}

export const userListStarred: Handler<'userListStarred'> = (ctx) => sendStarred(ctx, ctx.user());

export const userCurrentListStarred: Handler<'userCurrentListStarred'> = (ctx) => sendStarred(ctx, ctx.doer());

export const userCurrentCheckStarring: Handler<'userCurrentCheckStarring'> = async (ctx) => {
  await ctx.app.services.repoStars.check(ctx.doer(), ctx.repo().repo);
  ctx.send(204);
};

export const userCurrentPutStar: Handler<'userCurrentPutStar'> = async (ctx) => {
  await ctx.app.services.repoStars.star(ctx.doer(), ctx.repo().repo);
  ctx.send(204);
};

export const userCurrentDeleteStar: Handler<'userCurrentDeleteStar'> = async (ctx) => {
  await ctx.app.services.repoStars.unstar(ctx.doer(), ctx.repo().repo);
  ctx.send(204);
};
