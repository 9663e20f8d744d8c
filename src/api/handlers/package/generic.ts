// The generic package registry under /api/packages/{owner}/generic (Forgejo: routers/api/packages/generic).
import { serveStoredFile } from '../../../http/serve-blob.ts';
import type { GenericFileName } from '../../../services/package.service.ts';
import type { Handler, RequestContext } from '../../route.ts';

type FileOperation = 'genericPackageUpload' | 'genericPackageDownload' | 'genericPackageDeleteFile';

function fileOf(ctx: RequestContext<FileOperation>): GenericFileName {
  const { packagename, packageversion, filename } = ctx.params;
  return { name: packagename, version: packageversion, fileName: filename };
}

/** The body reaches this handler unread and goes to the blob store as a stream. */
export const genericPackageUpload: Handler<'genericPackageUpload'> = async (ctx) => {
  const announced = Number(ctx.req.headers['content-length']);
  try {
    await ctx.app.services.packages.uploadGeneric(
      ctx.doer(),
      ctx.user(),
      fileOf(ctx),
      ctx.req,
      Number.isFinite(announced) ? announced : undefined,
    );
  } catch (error) {
    // The rest of a refused body is not read, so the connection cannot carry another request.
    if (!ctx.req.readableEnded) ctx.res.setHeader('Connection', 'close');
    throw error;
  }
  ctx.send(201);
};

export const genericPackageDownload: Handler<'genericPackageDownload'> = async (ctx) => {
  const { packages } = ctx.app.services;
  const file = await packages.genericFile(ctx.user(), fileOf(ctx));
  await serveStoredFile(ctx.req, ctx.res, file, packages);
};

export const genericPackageDeleteFile: Handler<'genericPackageDeleteFile'> = async (ctx) => {
  await ctx.app.services.packages.deleteGenericFile(ctx.doer(), ctx.user(), fileOf(ctx));
  ctx.send(204);
};

export const genericPackageDelete: Handler<'genericPackageDelete'> = async (ctx) => {
  await ctx.app.services.packages.deleteGenericVersion(
    ctx.doer(),
    ctx.user(),
    ctx.params.packagename,
    ctx.params.packageversion,
  );
  ctx.send(204);
};
