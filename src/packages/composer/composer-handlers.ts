// The Composer repository's handlers: the upload of an archive, packages.json, a package's metadata (its tagged
// versions, or with `~dev` its branches), the package list, the search and downloads. Composer reads failures as
// `{"errors": [{status, message}]}`.
import type { Response } from 'express';
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { sendIndexDocument } from '../core/index-document.ts';
import { searchResults, serviceIndex } from './composer-documents.ts';

const DEFAULT_PAGE_SIZE = 30;
const MAX_PAGE_SIZE = 50;

export function composerError(res: Response, status: number, message: string): void {
  res.json({ errors: [{ status, message }] });
}

function queryText(ctx: RegistryContext, name: string): string {
  const value = ctx.req.query[name];
  return typeof value === 'string' ? value.trim() : '';
}

function positive(text: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number.parseInt(text, 10);
  return Number.isSafeInteger(value) && value > 0 ? Math.min(value, max) : fallback;
}

/** PUT /?version=…: the body is the archive. */
export async function uploadArchive(ctx: RegistryContext): Promise<void> {
  const version = queryText(ctx, 'version') || undefined;
  const announced = ctx.announcedLength();
  await ctx.app.services.composer.upload(ctx.doer(), ctx.owner(), ctx.req, version, announced);
  ctx.res.status(201).end();
}

/** GET /packages.json */
export async function getServiceIndex(ctx: RegistryContext): Promise<void> {
  ctx.res.json(serviceIndex(ctx.registryUrl()));
}

/** GET /p2/{vendor}/{project}.json and …~dev.json */
export async function getPackageMetadata(ctx: RegistryContext): Promise<void> {
  const name = `${ctx.param('vendor')}/${ctx.param('project')}`;
  const dev = ctx.params.dev !== undefined;
  const document = await ctx.app.services.composer.metadata(ctx.owner(), name, dev, ctx.registryUrl());
  sendIndexDocument(ctx.req, ctx.res, document, 'application/json');
}

/** GET /list.json */
export async function listPackageNames(ctx: RegistryContext): Promise<void> {
  ctx.res.json({ packageNames: await ctx.app.services.composer.names(ctx.owner()) });
}

/** GET /search.json?q=…&type=…&page=…&per_page=… */
export async function searchPackages(ctx: RegistryContext): Promise<void> {
  const text = queryText(ctx, 'q');
  const type = queryText(ctx, 'type');
  const page = positive(queryText(ctx, 'page'), 1);
  const limit = positive(queryText(ctx, 'per_page'), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
  const list = { page, limit, skip: (page - 1) * limit };
  const { items, total } = await ctx.app.services.composer.search(ctx.owner(), text, type, list);
  let next: string | undefined;
  if (list.skip + items.length < total) {
    const query = new URLSearchParams({ q: text, type, page: String(page + 1), per_page: String(limit) });
    next = `${ctx.registryUrl()}/search.json?${query}`;
  }
  ctx.res.json(searchResults(items, total, next));
}

/** GET /files/{package}/{version}/{filename} */
export async function downloadArchive(ctx: RegistryContext): Promise<void> {
  const { composer, packages } = ctx.app.services;
  const file = await composer.file(ctx.owner(), ctx.param('package'), ctx.param('version'), ctx.param('filename'));
  await serveStoredFile(ctx.req, ctx.res, file, packages);
}
