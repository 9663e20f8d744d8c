// Sends a kept index document (src/packages/core/index-document-cache.ts) as every registry's readers want it: with
// its ETag and Last-Modified, revalidated on each use, 304 for a client that has it, and gzipped for a client that
// accepts it (composer's and go's HTTP clients do) once it is large enough to gain: compressed once per revision,
// not per request, so a document of many versions costs little more to send than one of few.
import { gzipSync } from 'node:zlib';
import { matchesEntityTag } from '../../http/byte-range.ts';
import type { IndexDocument } from './index-document-cache.ts';
import type { RegistryContext } from './registry-context.ts';

const GZIP_FROM_BYTES = 1024;

export interface SendOptions {
  /** The type exactly as given, without the charset Express adds (Conan compares it whole). */
  exactType?: boolean;
}

export function sendIndexDocument(
  ctx: RegistryContext,
  document: IndexDocument,
  contentType: string,
  options: SendOptions = {},
): void {
  const { req, res } = ctx;
  res.setHeader('ETag', document.etag);
  if (document.lastModified) res.setHeader('Last-Modified', document.lastModified.toUTCString());
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  res.setHeader('Vary', 'Accept-Encoding');
  if (matchesEntityTag(req.headers['if-none-match'], document.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200);
  if (options.exactType) res.setHeader('Content-Type', contentType);
  else res.type(contentType);
  const send = (body: string | Buffer) => (options.exactType ? res.end(body) : res.send(body));
  if (document.body.length >= GZIP_FROM_BYTES && req.acceptsEncodings('gzip', 'identity') === 'gzip') {
    document.gzipped ??= gzipSync(document.body);
    res.setHeader('Content-Encoding', 'gzip');
    send(document.gzipped);
    return;
  }
  send(document.body);
}
