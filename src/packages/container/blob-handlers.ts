// Blob and upload end points of the OCI distribution spec (pulling blobs, pushing blobs monolithically, in chunks
// and by mount, upload status and cancel, deleting blobs), thin over ContainerBlobService.
import { parseByteRange } from '../../http/byte-range.ts';
import { uploadInvalid } from './oci-error.ts';
import type { UploadState } from './blob.service.ts';
import { mayRead } from './registry-auth.ts';
import { splitRepositoryName } from './references.ts';
import type { RegistryRequest } from './registry-request.ts';

function announcedLength(ctx: RegistryRequest): number | undefined {
  const header = ctx.req.headers['content-length'];
  if (header === undefined) return ctx.req.headers['transfer-encoding'] ? undefined : 0;
  const length = Number(header);
  return Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

function queryText(ctx: RegistryRequest, name: string): string | undefined {
  const value = ctx.req.query[name];
  return typeof value === 'string' ? value.trim() : undefined;
}

/** Where an upload continues, and how far it got (the spec's Range is inclusive; Forgejo's 0-0 for none). */
function sendUploadState(ctx: RegistryRequest, state: UploadState, status: number): void {
  const { res } = ctx;
  res.setHeader('Location', `/v2/${ctx.name}/blobs/uploads/${state.id}`);
  res.setHeader('Range', `0-${Math.max(0, state.bytes - 1)}`);
  res.setHeader('Docker-Upload-UUID', state.id);
  res.setHeader('Content-Length', '0');
  res.status(status).end();
}

function sendBlobCreated(ctx: RegistryRequest, digest: string): void {
  ctx.res.setHeader('Location', `/v2/${ctx.name}/blobs/${digest}`);
  ctx.res.setHeader('Docker-Content-Digest', digest);
  ctx.res.setHeader('Content-Length', '0');
  ctx.res.status(201).end();
}

/** The rest of a refused body is not read, so the connection cannot carry another request. */
async function closingOnFailure<T>(ctx: RegistryRequest, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!ctx.req.readableEnded) ctx.res.setHeader('Connection', 'close');
    throw error;
  }
}

/** POST …/blobs/uploads/: a mount, a monolithic upload (?digest=), or the start of a chunked one. */
export async function startUpload(ctx: RegistryRequest): Promise<void> {
  const target = await ctx.image('write');
  const blobs = ctx.app.containerBlobs;
  const mount = queryText(ctx, 'mount');
  const from = splitRepositoryName(queryText(ctx, 'from') ?? '');
  if (mount && from) {
    const owner = await mayRead(ctx.app.context, ctx.who.caller, from.owner);
    if (owner && (await blobs.mount(ctx.doer(), target, mount, { ownerId: owner.id, image: from.image }))) {
      return sendBlobCreated(ctx, mount);
    }
  }
  const digest = queryText(ctx, 'digest');
  if (digest !== undefined) {
    await closingOnFailure(ctx, () => blobs.uploadWhole(ctx.doer(), target, digest, ctx.req, announcedLength(ctx)));
    return sendBlobCreated(ctx, digest);
  }
  sendUploadState(ctx, await blobs.start(target), 202);
}

/** Content-Range of a chunk: `start-end` (some clients send `bytes start-end/total`). */
function rangeStart(ctx: RegistryRequest): number | undefined {
  const header = ctx.req.headers['content-range'];
  if (header === undefined) return undefined;
  const match = /^(?:bytes[ =])?(\d+)-(\d+)(?:\/(?:\d+|\*))?$/.exec(header.trim());
  if (!match || Number(match[2]) < Number(match[1])) throw uploadInvalid('the Content-Range is malformed', 416);
  return Number(match[1]);
}

export async function patchUpload(ctx: RegistryRequest, id: string): Promise<void> {
  const target = await ctx.image('write');
  const start = rangeStart(ctx);
  const state = await closingOnFailure(ctx, () =>
    ctx.app.containerBlobs.append(ctx.doer(), target, id, ctx.req, start, announcedLength(ctx)),
  );
  sendUploadState(ctx, state, 202);
}

export async function finishUpload(ctx: RegistryRequest, id: string): Promise<void> {
  const target = await ctx.image('write');
  const digest = queryText(ctx, 'digest') ?? '';
  await closingOnFailure(ctx, () =>
    ctx.app.containerBlobs.finish(ctx.doer(), target, id, digest, ctx.req, announcedLength(ctx)),
  );
  sendBlobCreated(ctx, digest);
}

export async function uploadStatus(ctx: RegistryRequest, id: string): Promise<void> {
  const target = await ctx.image('read');
  sendUploadState(ctx, await ctx.app.containerBlobs.status(target, id), 204);
}

export async function cancelUpload(ctx: RegistryRequest, id: string): Promise<void> {
  const target = await ctx.image('write');
  await ctx.app.containerBlobs.cancel(target, id);
  ctx.res.status(204).end();
}

/** GET and HEAD of a blob, with one byte range. */
export async function getBlob(ctx: RegistryRequest, digest: string): Promise<void> {
  const target = await ctx.image('read');
  const blobs = ctx.app.containerBlobs;
  const file = await blobs.find(target, digest);
  const size = Number(file.blob.size);
  const { req, res } = ctx;
  res.setHeader('Docker-Content-Digest', digest);
  res.setHeader('ETag', `"${digest}"`);
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Content-Type', 'application/octet-stream');
  const range = parseByteRange(req.headers.range, size);
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${size}`).end();
    return;
  }
  if (range) {
    res.status(206).setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.status(200).setHeader('Content-Length', String(size));
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await blobs.send(file.blob.hashSha256, res, range ?? undefined);
}

export async function deleteBlob(ctx: RegistryRequest, digest: string): Promise<void> {
  const target = await ctx.image('write');
  await ctx.app.containerBlobs.delete(target, digest);
  ctx.res.setHeader('Content-Length', '0');
  ctx.res.status(202).end();
}
