// Repositories of a user (Forgejo: routers/api/v1/user/repo.go).
import { isPublicOnly } from '../../../auth/caller.ts';
import type { Handler } from '../../route.ts';
import { presentRepos } from '../repo/present.ts';

export const userListRepos: Handler<'userListRepos'> = async (ctx) => {
  const page = ctx.listOptions();
  const { repoSearch } = ctx.app.services;
  const { repos, total } = await repoSearch.listUserRepos(
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    ctx.user(),
    page,
  );
  ctx.sendPage(200, await presentRepos(ctx, repos), page, total);
};

export const userCurrentListRepos: Handler<'userCurrentListRepos'> = async (ctx) => {
  const page = ctx.listOptions();
  const doer = ctx.doer();
  const { repos, total } = await ctx.app.services.repoSearch.listUserRepos(
    doer,
    isPublicOnly(ctx.caller),
    doer,
    page,
    true,
  );
  ctx.sendPage(200, await presentRepos(ctx, repos), page, total);
};
