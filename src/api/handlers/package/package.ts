// The package API under /api/v1/packages/{owner} (Forgejo: routers/api/v1/packages/package.go).
import { toPackage, toPackageFile } from '../../../convert/package.ts';
import type { Handler } from '../../route.ts';
import { userView } from '../../view.ts';

export const listPackages: Handler<'listPackages'> = async (ctx) => {
  const page = ctx.listOptions();
  const filter = { type: ctx.query.type, query: ctx.query.q?.trim() };
  const { items, total } = await ctx.app.services.packages.list(ctx.caller?.user ?? null, ctx.user(), filter, page);
  const view = userView(ctx);
  ctx.sendPage(
    200,
    items.map((item) => toPackage(item, view)),
    page,
    total,
  );
};

export const getPackage: Handler<'getPackage'> = async (ctx) => {
  const { type, name, version } = ctx.params;
  const item = await ctx.app.services.packages.get(ctx.caller?.user ?? null, ctx.user(), type, name, version);
  ctx.send(200, toPackage(item, userView(ctx)));
};

export const deletePackage: Handler<'deletePackage'> = async (ctx) => {
  const { type, name, version } = ctx.params;
  await ctx.app.services.packages.delete(ctx.doer(), ctx.user(), type, name, version);
  ctx.send(204);
};

export const listPackageFiles: Handler<'listPackageFiles'> = async (ctx) => {
  const { type, name, version } = ctx.params;
  const files = await ctx.app.services.packages.files(ctx.user(), type, name, version);
  ctx.send(200, files.map(toPackageFile));
};
