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

/** Walks iteratively: a deeply nested body must not exhaust the stack. */
function containsNul(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('\0')) return true;
    } else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
      for (const child of Object.values(value)) pending.push(child);
    }
  }
  return false;
}

/**
 * PostgreSQL cannot store NUL characters in text and git refuses them in names, so input carrying one is
 * refused at the door: 404 in the path (it names nothing), 422 elsewhere.
 */
export function refuseNulCharacters(): RequestHandler {
  return (req, res, next) => {
    let path: string;
    try {
      path = decodeURIComponent(req.path);
    } catch {
      path = req.path;
    }
    if (path.includes('\0')) return next(Object.assign(new Error('not found'), { status: 404, errors: [] }));
    if (containsNul(req.query) || containsNul(req.body)) {
      return next(
        Object.assign(new Error('NUL character in input'), {
          status: 422,
          errors: [{ path: '', message: 'NUL characters are not allowed' }],
        }),
      );
    }
    next();
  };
}
