// The Arch registry's handlers: pacman's databases, packages and their signatures, the key, and the upload and
// delete a publisher runs. Each reads the request, makes one service call and sends the answer.
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { checkRepositoryPath } from '../core/repository-path.ts';
import { serveIndexFile } from '../core/serve-index.ts';
import { ANY } from './arch-db.ts';
import { ARCH } from './arch.service.ts';

/** `{repo}.db`, `{repo}.files` (also with .tar.gz), each with .sig: pacman names the database after its section. */
const DATABASE = /\.(?<kind>db|files)(?:\.tar\.gz)?(?<sig>\.sig)?$/;

function repository(ctx: RegistryContext): string {
  return checkRepositoryPath(ctx.params.repository ?? '');
}

/** GET /repository.key: the owner's OpenPGP public key, made on first use. */
export async function repositoryKey(ctx: RegistryContext): Promise<void> {
  const signer = await ctx.app.services.packageSigningKeys.pgp(ctx.owner());
  ctx.res.status(200).type('application/pgp-keys').send(signer.publicKeyArmored);
}

/** PUT /{repository}: the body is the package. */
export async function uploadPackage(ctx: RegistryContext): Promise<void> {
  const announced = ctx.announcedLength();
  await ctx.app.services.arch.upload(ctx.doer(), ctx.owner(), repository(ctx), ctx.req, announced);
  ctx.res.status(201).end();
}

/** GET /{repository}/{arch}/{filename}: a database of the architecture, a package, or a package's signature. */
export async function repositoryFile(ctx: RegistryContext): Promise<void> {
  const repo = repository(ctx);
  const fileName = ctx.param('filename');
  const database = DATABASE.exec(fileName)?.groups;
  if (database) {
    const key = { ownerId: ctx.owner().id, type: ARCH, scope: repo };
    const suffix = `${database.kind}${database.sig ?? ''}`;
    const { packageIndexes } = ctx.app.services;
    const file =
      (await packageIndexes.file(key, `${ctx.param('arch')}.${suffix}`)) ??
      (await packageIndexes.file(key, `${ANY}.${suffix}`));
    await serveIndexFile(ctx, file, database.sig ? 'application/pgp-signature' : 'application/gzip');
    return;
  }
  if (fileName.endsWith('.sig')) {
    const signature = await ctx.app.services.arch.signature(ctx.owner(), repo, fileName.slice(0, -'.sig'.length));
    ctx.res.status(200).type('application/pgp-signature').send(signature);
    return;
  }
  const file = await ctx.app.services.arch.file(ctx.owner(), repo, fileName);
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** DELETE /{repository}/{name}/{version}/{arch}. */
export async function deletePackage(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.arch.delete(ctx.doer(), ctx.owner(), {
    repository: repository(ctx),
    name: ctx.param('name'),
    version: ctx.param('version'),
    arch: ctx.param('arch'),
  });
  ctx.res.status(204).end();
}
