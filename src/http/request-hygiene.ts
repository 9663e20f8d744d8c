// Forgejo's routing conventions: trailing slashes dropped and slash runs collapsed before routing, and the
// security headers every API answer carries.
import type { RequestHandler } from 'express';

export function normalisePath(): RequestHandler {
  return (req, _res, next) => {
    const queryAt = req.url.indexOf('?');
    const pathPart = queryAt < 0 ? req.url : req.url.slice(0, queryAt);
    let normalised = pathPart.replace(/\/{2,}/g, '/');
    if (normalised.length > 1 && normalised.endsWith('/')) normalised = normalised.slice(0, -1);
    if (normalised !== pathPart) {
      // The validator routes on originalUrl, so both must change.
      req.url = normalised + (queryAt < 0 ? '' : req.url.slice(queryAt));
      req.originalUrl = req.url;
    }
    next();
  };
}

export function securityHeaders(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
    res.setHeader('Cache-Control', 'max-age=0, private, must-revalidate, no-transform');
    next();
  };
}
