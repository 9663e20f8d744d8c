// The Chef registry's handlers, as knife's supermarket commands and Berkshelf call them: share (upload), the
// universe, list and search, show a cookbook or a version, download, unshare (delete). Each is one service call
// and an answer in the Supermarket API's JSON.
import type { RegistryContext } from '../core/registry-context.ts';
import { sendIndexDocument } from '../core/index-document.ts';
import { uploadedFile } from '../core/upload-body.ts';
import { cookbookDocument, cookbookItem, versionDocument } from './chef-documents.ts';
import { servePackageDownload } from '../core/serve-download.ts';

/** The Supermarket API's root: `<registry>/api/v1`. */
const apiBase = (ctx: RegistryContext) => `${ctx.registryUrl()}/api/v1`;

/** knife asks for versions with `_` for `.` (`versions/1_0_0`), as Forgejo reads them. */
const versionParam = (ctx: RegistryContext) => ctx.param('version').replace(/_/g, '.');

const firstQuery = (value: unknown): string =>
  typeof value === 'string' ? value : Array.isArray(value) ? firstQuery(value[0]) : '';

function count(value: unknown, fallback: number, max: number): number {
  const number = Number.parseInt(firstQuery(value), 10);
  if (!Number.isFinite(number) || number < 0) return fallback;
  return Math.min(number, max);
}

export async function uploadCookbook(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.chef.upload(ctx.doer(), ctx.owner(), await uploadedFile(ctx.req));
  ctx.res.status(201).json({});
}

export async function getUniverse(ctx: RegistryContext): Promise<void> {
  const document = await ctx.app.services.chef.universe(ctx.owner(), apiBase(ctx));
  sendIndexDocument(ctx.req, ctx.res, document, 'application/json');
}

/** GET cookbooks and GET search: `q`, `start`, `items` (knife pages through with them). */
export async function listCookbooks(ctx: RegistryContext): Promise<void> {
  const { query } = ctx.req;
  const { DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS } = ctx.app.settings.api;
  const start = count(query.start, 0, Number.MAX_SAFE_INTEGER);
  const items = count(query.items, DEFAULT_PAGING_NUM, MAX_RESPONSE_ITEMS) || DEFAULT_PAGING_NUM;
  const page = await ctx.app.services.chef.search(ctx.owner(), firstQuery(query.q).trim(), start, items);
  const base = apiBase(ctx);
  ctx.res.status(200).json({ start, total: page.total, items: page.items.map((row) => cookbookItem(base, row)) });
}

export async function getCookbook(ctx: RegistryContext): Promise<void> {
  const versions = await ctx.app.services.chef.versions(ctx.owner(), ctx.param('name'));
  ctx.res.status(200).json(cookbookDocument(apiBase(ctx), versions));
}

export async function getCookbookVersion(ctx: RegistryContext): Promise<void> {
  const [version] = await ctx.app.services.chef.versions(ctx.owner(), ctx.param('name'), versionParam(ctx));
  ctx.res.status(200).json(versionDocument(apiBase(ctx), version));
}

export async function downloadCookbook(ctx: RegistryContext): Promise<void> {
  const file = await ctx.app.services.chef.archive(ctx.owner(), ctx.param('name'), versionParam(ctx));
  await servePackageDownload(ctx, file);
}

export async function deleteCookbookVersion(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.chef.deleteVersion(ctx.doer(), ctx.owner(), ctx.param('name'), versionParam(ctx));
  ctx.res.status(200).end();
}

export async function deleteCookbook(ctx: RegistryContext): Promise<void> {
  await ctx.app.services.chef.deleteCookbook(ctx.doer(), ctx.owner(), ctx.param('name'));
  ctx.res.status(200).end();
}
