// Forks of a repository (Forgejo: routers/api/v1/repo/fork.go).
import { isPublicOnly } from '../../../auth/caller.ts';
import type { Handler } from '../../route.ts';
import { presentRepo, presentRepos } from './present.ts';

export const listForks: Handler<'listForks'> = async (ctx) => {
  const page = ctx.listOptions();
  const { items, total } = await ctx.app.services.repoForks.list(
    ctx.repo().repo,
    ctx.caller?.user ?? null,
    isPublicOnly(ctx.caller),
    page,
  );
  ctx.sendPage(200, await presentRepos(ctx, items), page, total);
};

export const createFork: Handler<'createFork'> = async (ctx) => {
  const fork = await ctx.app.services.repoForks.fork(ctx.repo().repo, ctx.doer(), ctx.body ?? {});
  ctx.send(202, await presentRepo(ctx, fork));
};
