// The Alpine registry's handlers: the upload, the signed APKINDEX of a branch, repository and architecture, the
// package downloads and delete, and the owner's RSA public key under the name apk knows it by.
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { indexScope, serveIndexFile } from '../core/serve-index.ts';
import { APKINDEX, alpineKeyName, alpineScope } from './alpine-index.ts';
import type { ApkFile } from './alpine.service.ts';

function apkFileOf(ctx: RegistryContext): ApkFile {
  return {
    branch: ctx.param('branch'),
    repository: ctx.param('repository'),
    architecture: ctx.param('architecture'),
    fileName: ctx.param('filename'),
  };
}

/** PUT /{branch}/{repository}: the .apk is the body. */
export async function uploadApk(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.alpine.upload(
    ctx.doer(),
    ctx.owner(),
    { branch: ctx.param('branch'), repository: ctx.param('repository') },
    ctx.req,
    ctx.announcedLength(),
  );
  ctx.res.status(201).end();
}

/** GET /{branch}/{repository}/{architecture}/APKINDEX.tar.gz */
export async function apkIndex(ctx: RegistryContext): Promise<void> {
  const key = indexScope(ctx, alpineScope(ctx.param('branch'), ctx.param('repository')));
  const file = await ctx.app.services.packageIndexes.file(key, `${ctx.param('architecture')}/${APKINDEX}`);
  await serveIndexFile(ctx, file, 'application/gzip');
}

/** GET /{branch}/{repository}/{architecture}/{filename}.apk */
export async function downloadApk(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.alpine.file(ctx.owner(), apkFileOf(ctx));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** DELETE /{branch}/{repository}/{architecture}/{filename}.apk */
export async function deleteApk(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.alpine.delete(ctx.doer(), ctx.owner(), apkFileOf(ctx));
  ctx.res.status(204).end();
}

/** GET /key: the owner's public key as PEM, named as the index's signature entry names it. */
export async function alpineKey(ctx: RegistryContext): Promise<void> {
  const signer = await ctx.app.services.packageSigningKeys.rsa(ctx.owner());
  const name = alpineKeyName(ctx.owner(), signer.publicKeyPem);
  ctx.res.setHeader('Content-Disposition', `attachment; filename="${name}"`);
  ctx.res.status(200).type('application/x-pem-file').send(signer.publicKeyPem);
}
