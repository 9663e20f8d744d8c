// Answers a kept index document as clients revalidate it: its ETag, 304 when the client holds it, else the body —
// gzip-compressed when the client accepts that (cargo does), with its own entity tag, since the bytes differ.
import type { Request, Response } from 'express';
import { matchesEntityTag } from '../../http/byte-range.ts';
import { type CachedDocument, gzippedBody } from './document-cache.ts';

const gzipTag = (etag: string) => `${etag.slice(0, -1)}-gzip"`;

export function sendDocument(req: Request, res: Response, document: CachedDocument, contentType: string): void {
  const gzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
  const etag = gzip ? gzipTag(document.etag) : document.etag;
  res.setHeader('ETag', etag);
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  const held = req.headers['if-none-match'];
  if (matchesEntityTag(held, document.etag) || matchesEntityTag(held, gzipTag(document.etag))) {
    res.status(304).end();
    return;
  }
  res.status(200).type(contentType);
  if (!gzip) {
    res.send(document.body);
    return;
  }
  res.setHeader('Content-Encoding', 'gzip');
  res.send(gzippedBody(document));
}
