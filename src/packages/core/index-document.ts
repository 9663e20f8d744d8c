// An index document a registry builds from its rows (npm packuments, Cargo's index files, Conda's repodata…) and
// keeps per revision in an IndexDocumentCache (./revision-cache.ts), and how every registry sends one: its ETag and
// Last-Modified, revalidated on each use, 304 for a client that holds it, and gzipped for a client that accepts it
// (cargo, composer and go do) — compressed once per revision, not per request, and under its own entity tag, since
// the bytes differ — so a document of many versions costs little more to send than one of few.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { Request, Response } from 'express';
import { matchesEntityTag } from '../../http/byte-range.ts';
import { RevisionCache } from './revision-cache.ts';

export interface IndexDocument {
  body: string;
  /** A strong entity tag of the body. */
  etag: string;
  /** When the newest row behind it changed, for registries that send Last-Modified. */
  lastModified?: Date;
  /** The body gzipped, made on the first request that accepts it. */
  gzipped?: Buffer;
}

export function indexDocument(body: string, lastModified?: Date): IndexDocument {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  return { body, etag, ...(lastModified ? { lastModified } : {}) };
}

const MAX_BYTES = 32 * 1024 * 1024;

/** A registry's documents by key, each kept while its revision is current. */
export class IndexDocumentCache extends RevisionCache<IndexDocument> {
  constructor() {
    // A fifth more for the gzipped copy a document may get.
    super({ maxSize: MAX_BYTES, sizeOf: (document) => Math.ceil(document.body.length * 1.2) + 200 });
  }
}

const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gzip"`;

export interface SendOptions {
  /** False for a client that checks the ETag against the plain body (Bundler's compact index). */
  gzip?: boolean;
  /** The type exactly as given, without the charset Express adds (Conan compares it whole). */
  exactType?: boolean;
}

export function sendIndexDocument(
  req: Request,
  res: Response,
  document: IndexDocument,
  contentType: string,
  options: SendOptions = {},
): void {
  const gzip = options.gzip !== false && req.acceptsEncodings('gzip', 'identity') === 'gzip';
  res.setHeader('ETag', gzip ? gzipTag(document.etag) : document.etag);
  if (document.lastModified) res.setHeader('Last-Modified', document.lastModified.toUTCString());
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  res.setHeader('Vary', 'Accept-Encoding');
  const held = req.headers['if-none-match'];
  if (matchesEntityTag(held, document.etag) || matchesEntityTag(held, gzipTag(document.etag))) {
    res.status(304).end();
    return;
  }
  res.status(200);
  if (options.exactType) res.setHeader('Content-Type', contentType);
  else res.type(contentType);
  const send = (body: string | Buffer) => (options.exactType ? res.end(body) : res.send(body));
  if (!gzip) {
    send(document.body);
    return;
  }
  document.gzipped ??= gzipSync(document.body);
  res.setHeader('Content-Encoding', 'gzip');
  send(document.gzipped);
}
