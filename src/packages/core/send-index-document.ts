// Sends a kept index document (src/packages/core/index-document-cache.ts) as every registry's readers want it: with
// its ETag and Last-Modified, revalidated on each use, and 304 for a client that has it.
import { matchesEntityTag } from '../../http/byte-range.ts';
import type { IndexDocument } from './index-document-cache.ts';
import type { RegistryContext } from './registry-context.ts';

export function sendIndexDocument(ctx: RegistryContext, document: IndexDocument, contentType: string): void {
  const { req, res } = ctx;
  res.setHeader('ETag', document.etag);
  res.setHeader('Last-Modified', document.lastModified.toUTCString());
  res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate');
  if (matchesEntityTag(req.headers['if-none-match'], document.etag)) {
    res.status(304).end();
    return;
  }
  res.status(200).type(contentType).send(document.body);
}
