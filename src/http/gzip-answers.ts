// Forgejo's [server] ENABLE_GZIP: answers compressed for clients that accept gzip (the compression library skips
// small bodies). Every API answer says `Cache-Control: no-transform`, as Forgejo's do; the directive is addressed
// to proxies between the server and the client, and Forgejo compresses such answers all the same, but the library
// would skip them. So the directive is taken off for the library's check and put back before the headers go out.
import type { ServerResponse } from 'node:http';
import compression from 'compression';
import type { RequestHandler } from 'express';
import onHeaders from 'on-headers';

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?=,|$)/i;
const hidden = new WeakMap<ServerResponse, string>();

export function gzipAnswers(): RequestHandler[] {
  // Header listeners run last-registered first: hide runs before the library's, restore after it.
  const restore: RequestHandler = (_req, res, next) => {
    onHeaders(res, function restoreNoTransform() {
      const original = hidden.get(this);
      if (original !== undefined) this.setHeader('Cache-Control', original);
    });
    next();
  };
  const hide: RequestHandler = (_req, res, next) => {
    onHeaders(res, function hideNoTransform() {
      const value = this.getHeader('Cache-Control');
      if (typeof value !== 'string' || !NO_TRANSFORM.test(value)) return;
      hidden.set(this, value);
      this.setHeader('Cache-Control', value.replace(NO_TRANSFORM, '').replace(/^\s*,\s*/, ''));
    });
    next();
  };
  return [restore, compression(), hide];
}
