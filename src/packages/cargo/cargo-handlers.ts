// The Cargo registry's handlers (Forgejo: routers/api/packages/cargo/cargo.go): the sparse index, publish, yank and
// unyank, download, search and owners. Each reads the request, makes one service call and answers as cargo reads
// it: status 200 and JSON for the web API, the index files as text.
import { NotFoundError } from '../../domain/errors.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { sendIndexDocument } from '../core/index-document.ts';
import { indexPath } from './sparse-index.ts';
import { servePackageDownload } from '../core/serve-download.ts';

const MAX_PER_PAGE = 100;
const DEFAULT_PER_PAGE = 10;

function service(ctx: RegistryContext) {
  return ctx.app.services.cargo;
}

const ok = (ctx: RegistryContext) => void ctx.res.status(200).json({ ok: true });

export function getConfig(ctx: RegistryContext): Promise<void> {
  ctx.res.status(200).json(service(ctx).config(ctx.owner(), ctx.registryUrl()));
  return Promise.resolve();
}

/** An index file, at the path cargo makes from the name (any other path for the name is not there). */
export async function getIndexFile(ctx: RegistryContext): Promise<void> {
  const name = ctx.param('name');
  if (ctx.param('path') !== indexPath(name)) throw new NotFoundError('crate does not exist');
  const document = await service(ctx).indexFile(ctx.owner(), name);
  sendIndexDocument(ctx.req, ctx.res, document, 'text/plain; charset=utf-8');
}

/** PUT /api/v1/crates/new: the binary publish body. */
export async function publishCrate(ctx: RegistryContext): Promise<void> {
  await service(ctx).publish(ctx.doer(), ctx.owner(), ctx.req);
  ok(ctx);
}

export async function yankVersion(ctx: RegistryContext): Promise<void> {
  await service(ctx).setYanked(ctx.doer(), ctx.owner(), ctx.param('name'), ctx.param('version'), true);
  ok(ctx);
}

export async function unyankVersion(ctx: RegistryContext): Promise<void> {
  await service(ctx).setYanked(ctx.doer(), ctx.owner(), ctx.param('name'), ctx.param('version'), false);
  ok(ctx);
}

export async function downloadCrate(ctx: RegistryContext): Promise<void> {
  const file = await service(ctx).crateFile(ctx.owner(), ctx.param('name'), ctx.param('version'));
  await servePackageDownload(ctx, file);
}

function perPage(value: unknown): number {
  const number = Number(typeof value === 'string' ? value : NaN);
  return Number.isInteger(number) && number > 0 ? Math.min(number, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
}

/** GET /api/v1/crates?q=…&per_page=… (`cargo search`). */
export async function searchCrates(ctx: RegistryContext): Promise<void> {
  const { query } = ctx.req;
  const text = typeof query.q === 'string' ? query.q.trim() : '';
  const limit = perPage(query.per_page);
  const pageNumber = Math.max(1, Number.parseInt(typeof query.page === 'string' ? query.page : '1', 10) || 1);
  const page = { page: pageNumber, limit, skip: (pageNumber - 1) * limit };
  const { crates, total } = await service(ctx).search(ctx.owner(), text, page);
  ctx.res.status(200).json({ crates, meta: { total } });
}

/**
 * POST /index/initialize and /index/rebuild: the owner's git index made (if need be) and written whole — what
 * Forgejo's package settings page offers as "Initialize index" and "Rebuild index".
 */
export async function writeGitIndex(ctx: RegistryContext): Promise<void> {
  const rebuild = ctx.param('action') === 'rebuild';
  await service(ctx).writeGitIndex(ctx.doer(), ctx.owner(), ctx.registryUrl(), rebuild);
  ctx.res.status(204).end();
}

/** `cargo owner --list`: the registry's owner is every crate's owner. */
export async function listOwners(ctx: RegistryContext): Promise<void> {
  const owner = ctx.owner();
  await service(ctx).indexFile(owner, ctx.param('name'));
  ctx.res.status(200).json({ users: [{ id: owner.id, login: owner.name, name: owner.fullName || owner.name }] });
}
