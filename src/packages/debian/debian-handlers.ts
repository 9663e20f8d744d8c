// The Debian registry's handlers: the upload, the pool's downloads and delete, the distribution's index files (by
// name and by hash) and the owner's public key. Each reads the request, makes one service call and sends the answer.
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { IndexHash } from '../../db/repository-index.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { indexScope, serveIndexFile } from '../core/serve-index.ts';
import type { PoolFile } from './debian.service.ts';

const BY_HASH: Record<string, IndexHash> = { MD5Sum: 'md5', SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };

function contentTypeOf(fileName: string): string {
  if (fileName.endsWith('.gz')) return 'application/gzip';
  if (fileName.endsWith('.xz')) return 'application/x-xz';
  if (fileName.endsWith('.gpg')) return 'application/pgp-signature';
  return 'text/plain; charset=utf-8';
}

function poolFileOf(ctx: RegistryContext): PoolFile {
  return {
    distribution: ctx.param('distribution'),
    component: ctx.param('component'),
    name: ctx.param('name'),
    version: ctx.param('version'),
    architecture: ctx.param('architecture'),
  };
}

/** PUT /pool/{distribution}/{component}/upload: the .deb is the body. */
export async function uploadDeb(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.debian.upload(
    ctx.doer(),
    ctx.owner(),
    { distribution: ctx.param('distribution'), component: ctx.param('component') },
    ctx.req,
    ctx.announcedLength(),
  );
  ctx.res.status(201).end();
}

/** GET /pool/{distribution}/{component}/{name}_{version}_{architecture}.deb */
export async function downloadDeb(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.debian.poolFile(ctx.owner(), poolFileOf(ctx));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** DELETE /pool/{distribution}/{component}/{name}/{version}/{architecture} */
export async function deleteDeb(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.debian.delete(ctx.doer(), ctx.owner(), poolFileOf(ctx));
  ctx.res.status(204).end();
}

/** GET /dists/{distribution}/{file} and /dists/{distribution}/{component}/binary-{arch}/{file} */
export async function indexFile(ctx: RegistryContext): Promise<void> {
  const component = ctx.params.component;
  const name = component ? `${component}/binary-${ctx.param('architecture')}/${ctx.param('file')}` : ctx.param('file');
  const key = indexScope(ctx, ctx.param('distribution'));
  await serveIndexFile(ctx, await ctx.app.services.packageIndexes.file(key, name), contentTypeOf(name));
}

/** GET …/by-hash/{algorithm}/{hash}: a file of the current or the previous index, as apt asks with Acquire-By-Hash. */
export async function indexFileByHash(ctx: RegistryContext): Promise<void> {
  const algorithm = BY_HASH[ctx.param('algorithm')];
  if (!algorithm) throw new NotFoundError('no such hash algorithm');
  const key = indexScope(ctx, ctx.param('distribution'));
  const file = await ctx.app.services.packageIndexes.fileByHash(key, algorithm, ctx.param('hash'));
  await serveIndexFile(ctx, file, file ? contentTypeOf(file.name) : 'application/octet-stream');
}

/** GET /repository.key: the owner's public key, armored, for `signed-by=`. */
export async function repositoryKey(ctx: RegistryContext): Promise<void> {
  const signer = await ctx.app.services.packageSigningKeys.pgp(ctx.owner());
  ctx.res.status(200).type('application/pgp-keys').send(signer.publicKeyArmored);
}
