// The PyPI registry's handlers: twine's upload, pip's simple pages and downloads. Each reads the request, makes one
// service call and sends the answer.
import { createHash } from 'node:crypto';
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { normalizeProjectName } from './pypi-names.ts';
import { projectIndex, SIMPLE_JSON, SIMPLE_MEDIA_TYPES, simpleIndexHtml, simpleIndexJson } from './simple-index.ts';
import { readUploadParts } from './upload-stream.ts';

/** POST / (twine upload): the multipart form, its file streamed into the store. */
export async function uploadPackageFile(ctx: RegistryContext): Promise<void> {
  const parts = await readUploadParts(ctx.req.headers, ctx.req);
  await ctx.app.services.pypi.upload(ctx.doer(), ctx.owner(), parts);
  await parts.finished;
  ctx.res.status(201).end();
}

/**
 * GET /simple/{name}/: the project's page, JSON when the client prefers it (PEP 691), cached by ETag and
 * Last-Modified. A name that is not in normal form is redirected to it, as PEP 503 asks.
 */
export async function packageIndex(ctx: RegistryContext): Promise<void> {
  const name = ctx.param('name');
  const normal = normalizeProjectName(name);
  if (normal !== name) {
    ctx.res.redirect(301, `${ctx.registryUrl()}/simple/${encodeURIComponent(normal)}/`);
    return;
  }
  const files = await ctx.app.services.pypi.projectFiles(ctx.owner(), normal);
  const index = projectIndex(normal, files, ctx.registryUrl());
  const json = ctx.req.accepts([...SIMPLE_MEDIA_TYPES]) === SIMPLE_JSON;
  const body = json ? JSON.stringify(simpleIndexJson(index)) : simpleIndexHtml(index);
  const { res } = ctx;
  res.setHeader('Vary', 'Accept');
  res.setHeader('Content-Type', json ? SIMPLE_JSON : 'text/html; charset=utf-8');
  res.setHeader('ETag', `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`);
  const newest = Math.max(...files.map((file) => file.fileCreatedAt.getTime()));
  res.setHeader('Last-Modified', new Date(newest).toUTCString());
  if (ctx.req.fresh) {
    res.status(304).end();
    return;
  }
  res.status(200).send(body);
}

/** GET /files/{name}/{version}/{filename}: the file, with ranges and conditional requests. */
export async function downloadPackageFile(ctx: RegistryContext): Promise<void> {
  const { pypi } = ctx.app.services;
  const file = await pypi.file(ctx.owner(), ctx.param('name'), ctx.param('version'), ctx.param('filename'));
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}
