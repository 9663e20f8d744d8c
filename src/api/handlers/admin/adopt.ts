// Unadopted repositories: directories in the repository root without a database row.
import type { Handler } from '../../route.ts';

export const adminUnadoptedList: Handler<'adminUnadoptedList'> = async (ctx) => {
  const page = ctx.listOptions();
  // Forgejo reads the filter from `query`; the contract names it `pattern`: both are accepted.
  const pattern = ctx.query.query ?? ctx.query.pattern ?? '';
  const { names, total } = await ctx.app.services.unadopted.list(pattern, page);
  ctx.sendPage(200, names, page, total);
};

export const adminAdoptRepository: Handler<'adminAdoptRepository'> = async (ctx) => {
  await ctx.app.services.unadopted.adopt(ctx.doer(), ctx.params.owner, ctx.params.repo);
  ctx.send(204);
};

export const adminDeleteUnadoptedRepository: Handler<'adminDeleteUnadoptedRepository'> = async (ctx) => {
  await ctx.app.services.unadopted.delete(ctx.params.owner, ctx.params.repo);
  ctx.send(204);
};
