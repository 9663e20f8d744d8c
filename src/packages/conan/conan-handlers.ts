// The Conan registry's handlers shared by its v1 and v2 APIs (Forgejo: routers/api/packages/conan conan.go,
// search.go): ping with the server's capabilities, the token exchange, recipe search, and the file transfers and
// answers both APIs make the same way. Each reads the request, makes one service call and answers as the client
// reads it: JSON with Content-Type application/json, the token as plain text.
import { readLimitedBody } from '../../http/body-reader.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import { BadRequestError, UnauthorizedError } from '../../domain/errors.ts';
import { type IndexDocument, sendIndexDocument } from '../core/index-document.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { packageReference, type RecipeReference, recipeReference } from './conan-reference.ts';
import { issueConanToken } from './conan-token.ts';
import type { ConanTarget } from './conan.service.ts';

const MAX_JSON_BYTES = 64 * 1024;

export function service(ctx: RegistryContext) {
  return ctx.app.services.conan;
}

export function documents(ctx: RegistryContext) {
  return ctx.app.services.conan.documents;
}

/** The recipe of the path, at its recipe revision when the path names one. */
export function recipeOf(ctx: RegistryContext): RecipeReference {
  const { name, version, user, channel, rrev } = ctx.params;
  return recipeReference(name ?? '', version ?? '', user ?? '', channel ?? '', rrev ?? '');
}

/** The recipe and, when the path names one, its binary package at the package revision the path names. */
export function targetOf(ctx: RegistryContext): Omit<ConanTarget, 'fileName'> {
  const recipe = recipeOf(ctx);
  const { pref, prev } = ctx.params;
  return pref === undefined ? { recipe } : { recipe, pkg: packageReference(recipe, pref, prev ?? '') };
}

export function fileTargetOf(ctx: RegistryContext): ConanTarget {
  return { ...targetOf(ctx), fileName: ctx.param('filename') };
}

/** Conan reads JSON only with this exact type (conan-io/conan#6613). */
export function sendJson(ctx: RegistryContext, status: number, value: unknown): void {
  ctx.res.status(status).setHeader('Content-Type', 'application/json');
  ctx.res.end(JSON.stringify(value));
}

/** A kept answer: ETag, 304 for a client that has it, gzip when accepted; the exact JSON type Conan compares. */
export function sendConanDocument(ctx: RegistryContext, document: IndexDocument): void {
  sendIndexDocument(ctx.req, ctx.res, document, 'application/json', { exactType: true });
}

/** A small JSON request body (the v1 upload_urls' files, the v1 package delete's ids). */
export async function jsonBody(ctx: RegistryContext): Promise<unknown> {
  const bytes = await readLimitedBody(ctx.req, MAX_JSON_BYTES);
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BadRequestError('the body is not JSON');
  }
}

/** GET v1/ping, v2/ping: Anvil serves the revisions API. */
export function ping(ctx: RegistryContext): Promise<void> {
  ctx.res.setHeader('X-Conan-Server-Capabilities', 'revisions');
  ctx.res.status(200).end();
  return Promise.resolve();
}

/** GET users/authenticate with basic credentials: the token the client sends as Bearer from then on. */
export function authenticate(ctx: RegistryContext): Promise<void> {
  if (!ctx.caller) throw new UnauthorizedError('authentication required');
  ctx.res.status(200).type('text/plain').send(issueConanToken(ctx.app, ctx.caller));
  return Promise.resolve();
}

/** GET users/check_credentials: 200 while the client's token is good, else 401 (the client signs in again). */
export function checkCredentials(ctx: RegistryContext): Promise<void> {
  if (!ctx.caller) throw new UnauthorizedError('authentication required');
  ctx.res.status(200).end();
  return Promise.resolve();
}

/** GET conans/search?q=name/version@user/channel (parts may hold `*`). */
export async function searchRecipes(ctx: RegistryContext): Promise<void> {
  const q = typeof ctx.req.query.q === 'string' ? ctx.req.query.q.trim() : '';
  sendJson(ctx, 200, await documents(ctx).searchRecipes(ctx.owner(), q));
}

/** PUT of a recipe or package file: 201 once stored; 200 for the client's empty probe, which stores nothing. */
export async function uploadFile(ctx: RegistryContext): Promise<void> {
  const { headers } = ctx.req;
  const length = headers['content-length'] === undefined ? undefined : Number(headers['content-length']);
  const sha1 = headers['x-checksum-sha1'];
  const stored = await service(ctx).upload(
    ctx.doer(),
    ctx.owner(),
    fileTargetOf(ctx),
    { length, ...(typeof sha1 === 'string' && sha1 !== '' ? { sha1 } : {}) },
    ctx.req,
  );
  if (stored) ctx.res.status(201).end();
  else sendJson(ctx, 200, null);
}

export async function downloadFile(ctx: RegistryContext): Promise<void> {
  const file = await service(ctx).file(ctx.owner(), fileTargetOf(ctx));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
