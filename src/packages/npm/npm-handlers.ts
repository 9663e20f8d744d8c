// The npm registry's handlers for a package (Forgejo: routers/api/packages/npm/npm.go): its document, publish and
// deprecate, tarballs, unpublish. Each is one service call and an answer in npm's form.
import { matchesEntityTag } from '../../http/byte-range.ts';
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { servePackageDownload } from '../core/serve-download.ts';

const ABBREVIATED = 'application/vnd.npm.install-v1+json';

function service(ctx: RegistryContext) {
  return ctx.app.services.npmPackages;
}

/** The packument, abbreviated when the client asks for it; cached by ETag (the document's hash) and Last-Modified. */
export async function getPackument(ctx: RegistryContext): Promise<void> {
  const abbreviated = (ctx.req.headers.accept ?? '').includes(ABBREVIATED);
  const document = await service(ctx).packument(ctx.owner(), ctx.param('name'), abbreviated, ctx.registryUrl());
  const { res } = ctx;
  res.setHeader('ETag', document.etag);
  if (document.lastModified) res.setHeader('Last-Modified', document.lastModified.toUTCString());
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  res.setHeader('Vary', 'Accept, Authorization');
  if (matchesEntityTag(ctx.req.headers['if-none-match'], document.etag)) {
    res.status(304).end();
    return;
  }
  res
    .status(200)
    .type(abbreviated ? ABBREVIATED : 'application/json')
    .send(document.body);
}

/** `npm publish`, and `npm deprecate` (the packument sent back without a tarball). */
export async function putPackage(ctx: RegistryContext): Promise<void> {
  await service(ctx).publishOrUpdate(ctx.doer(), ctx.owner(), ctx.param('name'), ctx.req);
  ctx.res.status(201).json({ ok: true });
}

/** `npm unpublish pkg@version` sends the packument without the version first; the tarball's DELETE follows. */
export async function putRevision(ctx: RegistryContext): Promise<void> {
  await service(ctx).publishOrUpdate(ctx.doer(), ctx.owner(), ctx.param('name'), ctx.req);
  ctx.res.status(200).json({ ok: true });
}

async function sendTarball(ctx: RegistryContext, file: PackageFileDownload): Promise<void> {
  await servePackageDownload(ctx, file);
}

export async function getTarball(ctx: RegistryContext): Promise<void> {
  const { name, version, filename } = ctx.params;
  await sendTarball(ctx, await service(ctx).tarball(ctx.owner(), name, version, filename));
}

export async function getTarballByFileName(ctx: RegistryContext): Promise<void> {
  await sendTarball(ctx, await service(ctx).tarballByFileName(ctx.owner(), ctx.param('name'), ctx.param('filename')));
}

export async function deleteVersion(ctx: RegistryContext): Promise<void> {
  await service(ctx).deleteVersion(ctx.doer(), ctx.owner(), ctx.param('name'), ctx.param('version'));
  ctx.res.status(200).json({ ok: true });
}

export async function deleteVersionByFileName(ctx: RegistryContext): Promise<void> {
  const { name, filename } = ctx.params;
  await service(ctx).deleteVersionByFileName(ctx.doer(), ctx.owner(), name, filename);
  ctx.res.status(200).json({ ok: true });
}

export async function deletePackage(ctx: RegistryContext): Promise<void> {
  await service(ctx).deletePackage(ctx.doer(), ctx.owner(), ctx.param('name'));
  ctx.res.status(200).json({ ok: true });
}
