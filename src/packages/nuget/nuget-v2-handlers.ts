// The NuGet V2 feed's handlers as Forgejo keeps them (routers/api/packages/nuget nuget.go): the service document,
// $metadata, Packages() and Search() (the latest version of each matching package), FindPackagesById() (every
// version of one), one entry by id and version, and the $count of each list.
import { BadRequestError } from '../../domain/errors.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import type { NugetEntry } from './nuget-entry.ts';
import { nugetPage, v2SearchTerm } from './nuget-query.ts';
import { ATOM_XML, entryDocument, feedDocument, metadataDocument, serviceDocument } from './v2-feed.ts';

function sendXml(ctx: RegistryContext, body: string): void {
  ctx.res.status(200).type(ATOM_XML).send(body);
}

function sendCount(ctx: RegistryContext, count: number): void {
  ctx.res.status(200).type('text/plain; charset=utf-8').send(String(count));
}

export async function getServiceDocument(ctx: RegistryContext): Promise<void> {
  sendXml(ctx, serviceDocument(ctx.registryUrl()));
}

export async function getMetadata(ctx: RegistryContext): Promise<void> {
  sendXml(ctx, metadataDocument());
}

/** The next page's address when this one is full. */
function nextLink(ctx: RegistryContext, path: string, page: { skip: number; take: number }, shown: number) {
  if (shown < page.take) return undefined;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(ctx.req.query)) {
    if (typeof value === 'string' && name !== '$skip' && name !== '$top') query.set(name, value);
  }
  query.set('$skip', String(page.skip + page.take));
  query.set('$top', String(page.take));
  return `${ctx.registryUrl()}/${path}?${query.toString()}`;
}

/** Packages() and Search(): the latest version of each package matching the search term. */
async function searchLatest(ctx: RegistryContext, path: string): Promise<void> {
  const page = nugetPage(ctx.req.query.$skip, ctx.req.query.$top);
  const term = v2SearchTerm(ctx.req.query);
  const { total, packages } = await ctx.app.services.nuget.search(ctx.owner(), term.text, page, term.exact);
  const latest = packages.map((entries) => entries[entries.length - 1]);
  sendXml(ctx, feedDocument(ctx.registryUrl(), total, latest, nextLink(ctx, path, page, latest.length)));
}

async function countLatest(ctx: RegistryContext): Promise<void> {
  const term = v2SearchTerm(ctx.req.query);
  const { total } = await ctx.app.services.nuget.search(ctx.owner(), term.text, { skip: 0, take: 0 }, term.exact);
  sendCount(ctx, total);
}

/** `Id='…',Version='…'` of `Packages(…)`. */
function entryKey(args: string): { id: string; version: string } | null {
  const match = /^Id='([^']+)',Version='([^']+)'$/.exec(args.trim());
  return match ? { id: match[1], version: match[2] } : null;
}

/** GET /Packages(…): the search without arguments, one entry with them; with /$count, how many. */
export async function getPackages(ctx: RegistryContext): Promise<void> {
  const args = ctx.params.args ?? '';
  if (args === '') {
    await (ctx.params.count ? countLatest(ctx) : searchLatest(ctx, 'Packages()'));
    return;
  }
  const key = entryKey(args);
  if (!key || ctx.params.count) throw new BadRequestError('unsupported Packages() arguments');
  const entry = await ctx.app.services.nuget.entry(ctx.owner(), key.id, key.version);
  sendXml(ctx, entryDocument(ctx.registryUrl(), entry));
}

export async function search(ctx: RegistryContext): Promise<void> {
  await (ctx.params.count ? countLatest(ctx) : searchLatest(ctx, 'Search()'));
}

/** GET /FindPackagesById()?id='…': every version of the package, a page of them; with /$count, how many. */
export async function findPackagesById(ctx: RegistryContext): Promise<void> {
  const query = ctx.req.query;
  const id = typeof query.id === 'string' ? query.id.trim().replace(/^'+|'+$/g, '') : '';
  const entries: NugetEntry[] = id === '' ? [] : await ctx.app.services.nuget.entries(ctx.owner(), id);
  if (ctx.params.count) {
    sendCount(ctx, entries.length);
    return;
  }
  const page = nugetPage(query.$skip, query.$top);
  const shown = entries.slice(page.skip, page.skip + page.take);
  const next = nextLink(ctx, 'FindPackagesById()', page, shown.length);
  sendXml(ctx, feedDocument(ctx.registryUrl(), entries.length, shown, next));
}
