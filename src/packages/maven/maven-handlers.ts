// The Maven registry's handlers: every path is a file of the repository layout, read (GET, HEAD) or deployed
// (PUT). Maven reads only the status of a failure.
import { createHash } from 'node:crypto';
import { BadRequestError } from '../../domain/errors.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { documentChecksum, storedChecksum } from './checksum.ts';
import { type MavenPath, parseMavenPath } from './maven-path.ts';

function pathOf(ctx: RegistryContext): MavenPath {
  const path = parseMavenPath(ctx.param('path'));
  if (!path) throw new BadRequestError('request parameters are invalid');
  return path;
}

function sendText(ctx: RegistryContext, body: string, type: string): void {
  const { res } = ctx;
  res.status(200).setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(Buffer.byteLength(body)));
  if (ctx.req.method === 'HEAD') res.end();
  else res.end(body);
}

/** maven-metadata.xml (or its checksum), built from the database, with ETag and Last-Modified. */
async function serveMetadata(ctx: RegistryContext, path: MavenPath): Promise<void> {
  const { xml, lastModified } = await ctx.app.services.maven.metadata(ctx.owner(), path);
  const { res } = ctx;
  res.setHeader('Last-Modified', lastModified.toUTCString());
  res.setHeader('ETag', `"${createHash('sha256').update(xml).digest('hex').slice(0, 32)}"`);
  if (ctx.req.fresh) {
    res.status(304).end();
    return;
  }
  if (path.checksum) sendText(ctx, documentChecksum(xml, path.checksum), 'text/plain; charset=utf-8');
  else sendText(ctx, xml, 'text/xml; charset=utf-8');
}

/** GET and HEAD of any path: metadata, a checksum from the stored digests, or the file's bytes. */
export async function downloadPackageFile(ctx: RegistryContext): Promise<void> {
  const path = pathOf(ctx);
  if (path.isMetadata) return serveMetadata(ctx, path);
  const { maven } = ctx.app.services;
  const file = await maven.file(ctx.owner(), path);
  const { blob } = file;
  if (path.checksum) return sendText(ctx, storedChecksum(blob, path.checksum), 'text/plain; charset=utf-8');
  if (ctx.req.method === 'GET') maven.countDownload(file);
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** PUT of any path: a file is stored (201); deployed metadata and checksums are read and checked (200). */
export async function uploadPackageFile(ctx: RegistryContext): Promise<void> {
  const path = pathOf(ctx);
  const announced = Number(ctx.req.headers['content-length']);
  const stored = await ctx.app.services.maven.deploy(
    ctx.doer(),
    ctx.owner(),
    path,
    ctx.req,
    Number.isFinite(announced) ? announced : undefined,
  );
  ctx.res.status(stored ? 201 : 200).end();
}
