// An index document a registry builds from its rows (npm packuments, Cargo's index files, Conda's repodata…) and
// keeps per revision in an IndexDocumentCache (./revision-cache.ts), and how every registry sends one: its ETag and
// Last-Modified, revalidated on each use, 304 for a client that holds it, and gzipped for a client that accepts it
// (cargo, composer and go do) under its own entity tag, since the bytes differ. The UTF-8 bytes and the gzipped
// bytes are made once per revision and written whole with their Content-Length: a request for a document of many
// versions copies nothing and allocates nothing in proportion to its size, so it costs little more than one of few.
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
  /** The body as UTF-8, made once. */
  bytes?: Buffer;
  /** The body gzipped, made on the first request that accepts it. */
  gzipped?: Buffer;
}

export function indexDocument(body: string, lastModified?: Date): IndexDocument {
  const bytes = Buffer.from(body);
  const etag = `"${createHash('sha1').update(bytes).digest('base64url')}"`;
  return { body, bytes, etag, ...(lastModified ? { lastModified } : {}) };
}

const MAX_BYTES = 32 * 1024 * 1024;

/** A registry's documents by key, each kept while its revision is current. */
export class IndexDocumentCache extends RevisionCache<IndexDocument> {
  constructor() {
    // The text, its UTF-8 bytes, and a fifth more for the gzipped copy a document may get.
    super({ maxSize: MAX_BYTES, sizeOf: (document) => Math.ceil(document.body.length * 2.2) + 200 });
  }
}

const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gzip"`;

/** The Content-Type with the UTF-8 charset Express's send() gives a string body. */
function withUtf8Charset(type: string): string {
  return /;\s*charset=/i.test(type) ? type.replace(/(;\s*charset=)[^;]*/i, '$1utf-8') : `${type}; charset=utf-8`;
}

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
  // req.fresh: an If-Modified-Since the Last-Modified satisfies (with no If-None-Match) is a 304 as well.
  if (matchesEntityTag(held, document.etag) || matchesEntityTag(held, gzipTag(document.etag)) || req.fresh) {
    res.status(304).end();
    return;
  }
  res.status(200);
  if (options.exactType) res.setHeader('Content-Type', contentType);
  else res.type(contentType);
  let bytes: Buffer;
  if (gzip) {
    document.gzipped ??= gzipSync(document.bytes ?? document.body);
    res.setHeader('Content-Encoding', 'gzip');
    bytes = document.gzipped;
  } else {
    document.bytes ??= Buffer.from(document.body);
    if (!options.exactType) res.setHeader('Content-Type', withUtf8Charset(res.get('Content-Type') ?? contentType));
    bytes = document.bytes;
  }
  res.setHeader('Content-Length', bytes.length);
  if (req.method === 'HEAD') res.end();
  else res.end(bytes);
}
