// Sends stored bytes as a download: Content-Type from the first bytes, Content-Length, an ETag from the content
// address, Last-Modified, conditional requests (304) and one byte range (206, or 416 past the end).
import type { Request, Response } from 'express';
import type { Readable, Writable } from 'node:stream';
import { SNIFF_BYTES, sniffContentType } from '../lib/content-sniff.ts';
import type { ByteRange } from '../infra/storage/blob-store.ts';
import { matchesEntityTag, parseByteRange } from './byte-range.ts';

/** Where a download's bytes are read from (a blob store). */
export interface BlobSource {
  get(key: string, range?: ByteRange): Promise<Readable>;
  sendTo(key: string, destination: Writable, range?: ByteRange): Promise<void>;
}

export interface BlobDownload {
  size: number;
  /** The SHA-256 of the bytes. */
  sha256: string;
  lastModified: Date;
  fileName: string;
  /** Known by the caller (a registry's own file kinds); otherwise sniffed from the first bytes. */
  contentType?: string;
  store: BlobSource;
  /** The bytes' key in the store. */
  key: string;
}

async function readHead(blob: BlobDownload): Promise<Buffer> {
  if (blob.size === 0) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  for await (const chunk of await blob.store.get(blob.key, { start: 0, end: Math.min(SNIFF_BYTES, blob.size) - 1 }))
    chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function contentDisposition(fileName: string): string {
  const quoted = fileName.replace(/["\\]/g, '\\$&');
  return `attachment; filename="${quoted}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export async function serveBlob(req: Request, res: Response, blob: BlobDownload): Promise<void> {
  const etag = `"${blob.sha256}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Last-Modified', blob.lastModified.toUTCString());
  res.setHeader('Accept-Ranges', 'bytes');
  if (matchesEntityTag(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  // A range is honoured only for the entity the client has (If-Range), else the whole body comes.
  const ifRange = req.headers['if-range'];
  const rangeApplies = ifRange === undefined || ifRange === etag || ifRange === blob.lastModified.toUTCString();
  const range = rangeApplies ? parseByteRange(req.headers.range, blob.size) : null;
  if (range === 'unsatisfiable') {
    res.status(416).setHeader('Content-Range', `bytes */${blob.size}`).end();
    return;
  }
  res.setHeader('Content-Type', blob.contentType ?? sniffContentType(await readHead(blob)));
  res.setHeader('Content-Disposition', contentDisposition(blob.fileName));
  if (range) {
    res.status(206);
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${blob.size}`);
    res.setHeader('Content-Length', String(range.end - range.start + 1));
  } else {
    res.status(200);
    res.setHeader('Content-Length', String(blob.size));
  }
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  try {
    await blob.store.sendTo(blob.key, res, range ?? undefined);
  } catch (error) {
    // Once bytes are on their way, or the client is gone, there is no status left to send: the download just ends.
    const gone = res.destroyed || !res.socket || res.socket.destroyed;
    if (!res.headersSent && !gone) throw error;
    res.destroy();
  }
}

/** A stored package file: its row and its blob's row. */
export interface StoredFile {
  name: string;
  createdAt: Date;
  blob: { size: bigint | number; hashSha256: string };
}

/** Sends a stored package file from the package store, as every registry serves its downloads. */
export function serveStoredFile(
  req: Request,
  res: Response,
  file: StoredFile,
  packages: { readonly blobs: BlobSource },
): Promise<void> {
  const { hashSha256 } = file.blob;
  return serveBlob(req, res, {
    size: Number(file.blob.size),
    sha256: hashSha256,
    lastModified: file.createdAt,
    fileName: file.name,
    store: packages.blobs,
    key: hashSha256,
  });
}
