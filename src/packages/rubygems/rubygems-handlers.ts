// The RubyGems registry's handlers: `gem push` and `gem yank`, the specs lists, the dependency API, quick
// specifications and gem downloads. Each reads the request, makes one service call and sends the answer.
import { matchesEntityTag } from '../../http/byte-range.ts';
import { readLimitedBody } from '../../http/body-reader.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import { sendIndexDocument } from '../core/index-document.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { RUBYGEMS, type SpecsKind } from './rubygems.service.ts';
import { BadRequestError } from '../../domain/errors.ts';

const COMPACT_INDEX_TYPE = 'text/plain; charset=utf-8';

/** `gem yank` sends two short form fields. */
const MAX_FORM_BYTES = 16 * 1024;

function service(ctx: RegistryContext) {
  return ctx.app.services.rubygems;
}

function announcedLength(ctx: RegistryContext): number | undefined {
  const announced = Number(ctx.req.headers['content-length']);
  return Number.isFinite(announced) && ctx.req.headers['content-length'] !== undefined ? announced : undefined;
}

/** POST api/v1/gems: the .gem is the body. */
export async function pushGem(ctx: RegistryContext): Promise<void> {
  const spec = await service(ctx).push(ctx.doer(), ctx.owner(), ctx.req, announcedLength(ctx));
  ctx.res.status(201).type('text/plain').send(`Successfully registered gem: ${spec.name} (${spec.version})\n`);
}

/** DELETE api/v1/gems/yank: `gem_name` and `version` in the form (or the query); the version is deleted. */
export async function yankGem(ctx: RegistryContext): Promise<void> {
  const body = (await readLimitedBody(ctx.req, MAX_FORM_BYTES)).toString('utf8');
  const form = new URLSearchParams(body);
  const field = (name: string) => (form.get(name) ?? String(ctx.req.query[name] ?? '')).trim();
  if (field('gem_name') === '' || field('version') === '')
    throw new BadRequestError('gem_name and version are required');
  await ctx.app.services.packages.delete(ctx.doer(), ctx.owner(), RUBYGEMS, field('gem_name'), field('version'));
  ctx.res
    .status(200)
    .type('text/plain')
    .send(`Successfully deleted gem: ${field('gem_name')} (${field('version')})\n`);
}

/** specs.4.8.gz, latest_specs.4.8.gz, prerelease_specs.4.8.gz, cached by ETag. */
export async function specsFile(ctx: RegistryContext): Promise<void> {
  const document = await service(ctx).specs(ctx.owner(), ctx.param('kind') as SpecsKind);
  const { res } = ctx;
  res.setHeader('ETag', document.etag);
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  if (matchesEntityTag(ctx.req.headers['if-none-match'], document.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type('application/octet-stream').send(document.body);
}

/** The compact index Bundler reads: `versions` and `info/NAME`, revalidated by their MD5 ETags. */
export async function compactVersions(ctx: RegistryContext): Promise<void> {
  const document = await service(ctx).compactVersions(ctx.owner());
  sendIndexDocument(ctx.req, ctx.res, document, COMPACT_INDEX_TYPE, { gzip: false });
}

export async function compactInfo(ctx: RegistryContext): Promise<void> {
  const document = await service(ctx).compactInfo(ctx.owner(), ctx.param('name'));
  sendIndexDocument(ctx.req, ctx.res, document, COMPACT_INDEX_TYPE, { gzip: false });
}

/** api/v1/dependencies?gems=a,b */
export async function dependencies(ctx: RegistryContext): Promise<void> {
  const gems = String(ctx.req.query.gems ?? '');
  const names = gems
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const body = await service(ctx).dependencies(ctx.owner(), names);
  ctx.res
    .status(200)
    .type('application/octet-stream')
    .send(body ?? Buffer.alloc(0));
}

/** quick/Marshal.4.8/NAME-VERSION.gemspec.rz */
export async function quickSpecification(ctx: RegistryContext): Promise<void> {
  const body = await service(ctx).quickSpecification(ctx.owner(), ctx.param('filename'));
  ctx.res.status(200).type('application/octet-stream').send(body);
}

/** gems/NAME-VERSION.gem */
export async function downloadGem(ctx: RegistryContext): Promise<void> {
  const file = await service(ctx).gemFile(ctx.owner(), ctx.param('filename'));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
