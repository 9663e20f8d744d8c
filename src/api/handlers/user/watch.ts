// Watched repositories (Forgejo: routers/api/v1/user/watch.go).
import { isPublicOnly } from '../../../auth/caller.ts';
import type { User } from '../../../db/entities.ts';
import type { Handler, RequestContext } from '../../route.ts';
import { presentRepos } from '../repo/present.ts';

async function sendWatched(
  ctx: RequestContext<'userListSubscriptions' | 'userCurrentListSubscriptions'>,
  user: User,
): Promise<void> {
  const page = ctx.listOptions();
  const { repoSearch, repoSubscriptions } = ctx.app.services;
  const ids = await repoSubscriptions.watchedIds(user);
  const { repos, total } = await repoSearch.listReposIn(ctx.caller?.user ?? null, isPublicOnly(ctx.caller), ids, page);
  ctx.sendPage(200, await presentRepos(ctx, repos), page, total);
}

export const userListSubscriptions: Handler<'userListSubscriptions'> = (ctx) => sendWatched(ctx, ctx.user());

export const userCurrentListSubscriptions: Handler<'userCurrentListSubscriptions'> = (ctx) =>
  sendWatched(ctx, ctx.doer());
