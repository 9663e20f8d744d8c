// The ALT registry's handlers: apt-rpm's .repo file, the key, the files of {group}.repo/{arch}/base/, the package
// downloads, and the upload and delete a publisher runs. Each reads the request, makes one service call and sends
// the answer.
import { serveStoredFile } from '../../http/serve-blob.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { checkRepositoryPath } from '../core/repository-path.ts';
import { serveIndexFile } from '../core/serve-index.ts';
import { ALT, type AltFileTarget } from './alt.service.ts';

/** The group's name in paths where one is needed: the ungrouped repository is "alt" (Forgejo's). */
const UNGROUPED = 'alt';
/** `{name}-{version}-{release}.{arch}.rpm`, split as Forgejo does. */
const FILE_NAME = /^(?<name>.+)-(?<version>[0-9][^-]*-[^-]*)\.(?<arch>[^.]+)\.rpm$/;

const BASE_TYPES: Readonly<Record<string, string>> = {
  release: 'text/plain; charset=utf-8',
  'release.classic': 'text/plain; charset=utf-8',
  'release.gpg': 'application/pgp-signature',
  'pkglist.classic.xz': 'application/x-xz',
};

/** The upload's group: none, or the path before /upload. */
function uploadGroup(ctx: RegistryContext): string {
  return checkRepositoryPath(ctx.params.group ?? '');
}

/** The group of a `{group}.repo/…` path: "alt" names the ungrouped repository. */
function repoGroup(ctx: RegistryContext): string {
  const group = ctx.param('group');
  return group === UNGROUPED ? '' : checkRepositoryPath(group);
}

function target(ctx: RegistryContext): AltFileTarget {
  const parts = FILE_NAME.exec(ctx.param('filename'))?.groups;
  if (!parts || parts.arch !== ctx.param('arch')) throw new NotFoundError('package file does not exist');
  return { group: repoGroup(ctx), name: parts.name!, version: parts.version!, arch: parts.arch };
}

/** GET /{group}.repo (/alt.repo for the ungrouped repository): the repository's section, as Forgejo writes it. */
export async function repositoryConfig(ctx: RegistryContext): Promise<void> {
  const group = checkRepositoryPath(ctx.param('group'));
  const owner = ctx.owner();
  const parts = group.split('/');
  const url = `${ctx.app.settings.server.ROOT_URL}api/packages/${encodeURIComponent(owner.name)}/${ALT}`;
  const text = [
    `[gitea-${[owner.name.toLowerCase(), ...parts].join('-')}]`,
    `name=${[owner.name, ctx.app.settings[''].APP_NAME, ...parts].join(' - ')}`,
    `baseurl=${[url, ...parts].join('/')}`,
    'enabled=1',
  ].join('\n');
  ctx.res.status(200).type('text/plain').send(text);
}

/** GET /repository.key: the owner's OpenPGP public key (release.gpg's signer), made on first use. */
export async function repositoryKey(ctx: RegistryContext): Promise<void> {
  const signer = await ctx.app.services.packageSigningKeys.pgp(ctx.owner());
  ctx.res.status(200).type('application/pgp-keys').send(signer.publicKeyArmored);
}

/** GET /{group}.repo/{arch}/base/{filename}: a file of the group's current index. */
export async function repositoryFile(ctx: RegistryContext): Promise<void> {
  const name = ctx.param('filename');
  const file = await ctx.app.services.packageIndexes.file(
    { ownerId: ctx.owner().id, type: ALT, scope: repoGroup(ctx) },
    `${ctx.param('arch')}/base/${name}`,
  );
  await serveIndexFile(ctx, file, BASE_TYPES[name] ?? 'application/octet-stream');
}

/** PUT /{group}/upload and /upload: the body is the .rpm. */
export async function uploadPackage(ctx: RegistryContext): Promise<void> {
  const announced = ctx.announcedLength();
  await ctx.app.services.alt.upload(ctx.doer(), ctx.owner(), uploadGroup(ctx), ctx.req, announced);
  ctx.res.status(201).end();
}

/** GET /{group}.repo/{arch}/RPMS.classic/{filename}. */
export async function downloadPackage(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.alt.file(ctx.owner(), target(ctx));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** DELETE /{group}.repo/{arch}/RPMS.classic/{filename}. */
export async function deletePackage(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.alt.delete(ctx.doer(), ctx.owner(), target(ctx));
  ctx.res.status(204).end();
}
