// The RPM registry's handlers: dnf's .repo file, key and repodata, the package downloads, and the upload and delete
// a publisher runs. Each reads the request, makes one service call and sends the answer.
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { serveIndexFile } from '../core/serve-index.ts';
import { repoConfig } from './repo-config.ts';
import { checkRepositoryPath } from '../core/repository-path.ts';
import { RPM, type RpmFileTarget } from './rpm.service.ts';

const REPODATA_TYPES: Readonly<Record<string, string>> = {
  'repomd.xml': 'text/xml; charset=utf-8',
  'repomd.xml.asc': 'application/pgp-signature',
};

function group(ctx: RegistryContext): string {
  return checkRepositoryPath(ctx.params.group ?? '');
}

function target(ctx: RegistryContext): RpmFileTarget {
  return { group: group(ctx), name: ctx.param('name'), version: ctx.param('version'), arch: ctx.param('arch') };
}

/** `<ROOT_URL>api/packages/<owner>/rpm`: also for `/{owner}/rpm.repo`, whose path names another "type". */
function rpmUrl(ctx: RegistryContext): string {
  return `${ctx.app.settings.server.ROOT_URL}api/packages/${encodeURIComponent(ctx.owner().name)}/${RPM}`;
}

/** GET /{group}.repo, and /rpm.repo beside the registry for the ungrouped repository. */
export async function repositoryConfig(ctx: RegistryContext): Promise<void> {
  const text = repoConfig({
    registryUrl: rpmUrl(ctx),
    ownerName: ctx.owner().name,
    appName: ctx.app.settings[''].APP_NAME,
    group: group(ctx),
  });
  ctx.res.status(200).type('text/plain').send(text);
}

/** GET /repository.key: the owner's OpenPGP public key, made on first use. */
export async function repositoryKey(ctx: RegistryContext): Promise<void> {
  const signer = await ctx.app.services.packageSigningKeys.pgp(ctx.owner());
  ctx.res.status(200).type('application/pgp-keys').send(signer.publicKeyArmored);
}

/** GET /{group}/repodata/{filename}: a file of the group's current repodata. */
export async function repositoryFile(ctx: RegistryContext): Promise<void> {
  const name = ctx.param('filename');
  const file = await ctx.app.services.packageIndexes.file(
    { ownerId: ctx.owner().id, type: RPM, scope: group(ctx) },
    name,
  );
  await serveIndexFile(ctx, file, REPODATA_TYPES[name] ?? 'application/gzip');
}

/** PUT /{group}/upload: the body is the .rpm. */
export async function uploadPackage(ctx: RegistryContext): Promise<void> {
  const announced = ctx.announcedLength();
  await ctx.app.services.rpm.upload(ctx.doer(), ctx.owner(), group(ctx), ctx.req, announced);
  ctx.res.status(201).end();
}

/** GET /{group}/package/{name}/{version}/{arch}[/{filename}]. */
export async function downloadPackage(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.rpm.file(ctx.owner(), target(ctx));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** DELETE /{group}/package/{name}/{version}/{arch}. */
export async function deletePackage(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.rpm.delete(ctx.doer(), ctx.owner(), target(ctx));
  ctx.res.status(204).end();
}
