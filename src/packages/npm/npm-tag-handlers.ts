// The npm registry's dist-tags, search and account end points (Forgejo: routers/api/packages/npm/npm.go
// ListPackageTags, AddPackageTag, DeletePackageTag, PackageSearch).
import { BadRequestError } from '../../domain/errors.ts';
import { readJsonBody } from './json-body.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { parseManifest } from './packument.ts';

const MAX_SEARCH_SIZE = 250;
const DEFAULT_SEARCH_SIZE = 20;

function service(ctx: RegistryContext) {
  return ctx.app.services.npmPackages;
}

export async function listDistTags(ctx: RegistryContext): Promise<void> {
  ctx.res.status(200).json(await service(ctx).tags(ctx.owner(), ctx.param('name')));
}

/** `npm dist-tag add pkg@version tag`: the body is the version as a JSON string. */
export async function addDistTag(ctx: RegistryContext): Promise<void> {
  const version = await readJsonBody(ctx.req);
  if (typeof version !== 'string') throw new BadRequestError('the body must be the version as a JSON string');
  await service(ctx).addTag(ctx.owner(), ctx.param('name'), ctx.param('tag'), version);
  ctx.res.status(200).json({ ok: true });
}

export async function deleteDistTag(ctx: RegistryContext): Promise<void> {
  await service(ctx).removeTag(ctx.owner(), ctx.param('name'), ctx.param('tag'));
  ctx.res.status(200).json({ ok: true });
}

function searchParam(value: unknown, fallback: number, max: number): number {
  const number = Number(typeof value === 'string' ? value : NaN);
  return Number.isInteger(number) && number >= 0 ? Math.min(number, max) : fallback;
}

/** `npm search`: the owner's packages whose name holds the text, in npm's search result form. */
export async function searchPackages(ctx: RegistryContext): Promise<void> {
  const { query } = ctx.req;
  const text = typeof query.text === 'string' ? query.text.trim() : '';
  const size = searchParam(query.size, DEFAULT_SEARCH_SIZE, MAX_SEARCH_SIZE) || DEFAULT_SEARCH_SIZE;
  const from = searchParam(query.from, 0, Number.MAX_SAFE_INTEGER);
  const page = { page: Math.floor(from / size) + 1, limit: size, skip: from };
  const { items, total } = await service(ctx).search(ctx.owner(), text, page);
  const registry = ctx.registryUrl();
  const objects = items.map((item) => {
    const latest = item.tags[0]?.version;
    const manifest = latest ? parseManifest(latest.metadataJson) : {};
    const scope = item.name.startsWith('@') ? item.name.slice(1, item.name.indexOf('/')) : undefined;
    return {
      package: {
        name: item.name,
        ...(scope ? { scope } : { scope: 'unscoped' }),
        version: latest?.version ?? '',
        description: typeof manifest.description === 'string' ? manifest.description : '',
        keywords: Array.isArray(manifest.keywords) ? manifest.keywords : [],
        date: (latest?.createdAt ?? new Date(0)).toISOString(),
        links: { npm: `${registry}/${item.name}` },
        publisher: { username: ctx.owner().name },
        maintainers: [{ username: ctx.owner().name }],
      },
      score: { final: 1, detail: { quality: 1, popularity: 1, maintenance: 1 } },
      searchScore: 1,
    };
  });
  ctx.res.status(200).json({ objects, total, time: new Date().toUTCString() });
}

/** `npm whoami`. */
export function whoami(ctx: RegistryContext): Promise<void> {
  ctx.res.status(200).json({ username: ctx.doer().name });
  return Promise.resolve();
}

/** `npm ping`. */
export function ping(ctx: RegistryContext): Promise<void> {
  ctx.res.status(200).json({});
  return Promise.resolve();
}
