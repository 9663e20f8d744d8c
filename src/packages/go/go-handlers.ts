// The Go module proxy's handlers (go.dev/ref/mod#goproxy-protocol) and the upload of a module zip. Module paths and
// versions arrive case-escaped (`!a` for `A`); text no escaping produces names no module (404).
import { serveStoredFile } from '../../http/serve-blob.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { sendIndexDocument } from '../core/index-document.ts';
import { unescapeModuleText } from './module-names.ts';

function unescaped(ctx: RegistryContext, param: string): string {
  const text = unescapeModuleText(ctx.param(param));
  if (text === null) throw new NotFoundError(`the ${param} is not case-escaped as the go command escapes it`);
  return text;
}

/** PUT /upload: the body is the module zip. */
export async function uploadModule(ctx: RegistryContext): Promise<void> {
  const announced = ctx.announcedLength();
  await ctx.app.services.goModules.upload(ctx.doer(), ctx.owner(), ctx.req, announced);
  ctx.res.status(201).end();
}

/** GET {module}/@v/list: one version a line, oldest first. */
export async function listVersions(ctx: RegistryContext): Promise<void> {
  const list = await ctx.app.services.goModules.versionList(ctx.owner(), unescaped(ctx, 'module'));
  sendIndexDocument(ctx.req, ctx.res, list, 'text/plain; charset=utf-8');
}

/** GET {module}/@v/{version}.info */
export async function versionInfo(ctx: RegistryContext): Promise<void> {
  const found = await ctx.app.services.goModules.version(
    ctx.owner(),
    unescaped(ctx, 'module'),
    unescaped(ctx, 'version'),
  );
  ctx.res.json({ Version: found.version, Time: found.createdAt.toISOString() });
}

/** GET {module}/@latest */
export async function latestInfo(ctx: RegistryContext): Promise<void> {
  const found = await ctx.app.services.goModules.latest(ctx.owner(), unescaped(ctx, 'module'));
  ctx.res.json({ Version: found.version, Time: found.createdAt.toISOString() });
}

/** GET {module}/@v/{version}.mod */
export async function goMod(ctx: RegistryContext): Promise<void> {
  const text = await ctx.app.services.goModules.goMod(ctx.owner(), unescaped(ctx, 'module'), unescaped(ctx, 'version'));
  ctx.res.type('text/plain; charset=utf-8').send(text);
}

/** GET {module}/@v/{version}.zip */
export async function downloadZip(ctx: RegistryContext): Promise<void> {
  const { goModules, packages } = ctx.app.services;
  const file = await goModules.zip(ctx.owner(), unescaped(ctx, 'module'), unescaped(ctx, 'version'));
  await serveStoredFile(ctx.req, ctx.res, file, packages);
}
