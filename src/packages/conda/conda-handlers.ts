// The Conda registry's handlers: the upload of an archive, the channel's index documents and the downloads. Each
// reads the request, makes one service call and sends the answer.
import { STATUS_CODES } from 'node:http';
import type { Response } from 'express';
import { NotFoundError } from '../../domain/errors.ts';
import { serveStoredFile } from '../../http/serve-blob.ts';
import { type IndexDocument, sendIndexDocument } from '../core/index-document.ts';
import type { RegistryContext } from '../core/registry-context.ts';
import { condaFormatOf } from './conda-archive.ts';

/** What repodata.json is asked for as (conda reads current_repodata.json first; both are the whole index). */
const REPODATA = new Set(['repodata.json', 'current_repodata.json']);

/** Forgejo's Conda error body. */
export function sendCondaError(res: Response, status: number, message: string): void {
  res.json({ reason: STATUS_CODES[status] ?? 'Error', message });
}

function channelOf(ctx: RegistryContext): string {
  return ctx.params.channel ?? '';
}

function sendIndex(ctx: RegistryContext, document: IndexDocument): void {
  sendIndexDocument(ctx.req, ctx.res, document, 'application/json');
}

/** PUT /{channel}/{filename}: the archive, read as it is stored. */
export async function uploadPackageFile(ctx: RegistryContext): Promise<void> {
  const length = Number(ctx.req.headers['content-length']);
  await ctx.app.services.conda.upload(ctx.doer(), ctx.owner(), {
    channel: channelOf(ctx),
    fileName: ctx.param('filename'),
    body: ctx.req,
    announcedLength: Number.isSafeInteger(length) && length >= 0 ? length : undefined,
  });
  ctx.res.status(201).end();
}

/** GET /{channel}/{subdir}/{filename}: the subdir's repodata.json, or a package file. */
export async function listOrGetPackages(ctx: RegistryContext): Promise<void> {
  const { conda } = ctx.app.services;
  const [channel, subdir, fileName] = [channelOf(ctx), ctx.param('subdir'), ctx.param('filename')];
  if (REPODATA.has(fileName)) {
    sendIndex(ctx, await conda.repodata(ctx.owner(), channel, subdir));
    return;
  }
  if (!condaFormatOf(fileName)) throw new NotFoundError('no such file');
  const file = await conda.file(ctx.owner(), channel, subdir, fileName);
  await serveStoredFile(ctx.req, ctx.res, file, ctx.app.services.packages);
}

/** GET /{channel}/channeldata.json. */
export async function channelData(ctx: RegistryContext): Promise<void> {
  sendIndex(ctx, await ctx.app.services.conda.channeldata(ctx.owner(), channelOf(ctx)));
}
