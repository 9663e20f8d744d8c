// Serves /api/packages/{owner}/{type}/… for the registries of the table; a type it does not hold (the generic
// registry, which the API's contract declares) passes on to the API. A request is authenticated by the API's own
// authenticator (every credential form package clients send), matched to a route, run through the route's guards
// and handler, and any failure answered in the registry's error format.
import type { Request, RequestHandler } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Authenticator } from '../../auth/authenticate.ts';
import { ApiError, NotFoundError } from '../../domain/errors.ts';
import { RegistryContext } from './registry-context.ts';
import { sendRegistryError } from './registry-errors.ts';
import type { RegistryRoute, RegistryTable } from './registry-route.ts';

const REGISTRY_PATH = /^\/([^/]+)\/([^/]+)(\/.*)?$/;

class MethodNotAllowedError extends ApiError {
  readonly status = 405;
}

interface Match {
  route: RegistryRoute;
  params: Record<string, string>;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new NotFoundError('malformed path');
  }
}

/** The route of the method (GET's for HEAD), or which of 404 and 405 answers a path no route of the method has. */
function matchRoute(table: RegistryTable, method: string, rest: string): Match {
  let pathMatched = false;
  const tryMethod = (wanted: string): Match | null => {
    for (const route of table.routes) {
      const found = route.pattern.exec(rest);
      if (!found) continue;
      pathMatched = true;
      if (route.method !== wanted) continue;
      const params: Record<string, string> = {};
      for (const [name, value] of Object.entries(found.groups ?? {}))
        if (value !== undefined) params[name] = decode(value);
      return { route, params };
    }
    return null;
  };
  const match = tryMethod(method) ?? (method === 'HEAD' ? tryMethod('GET') : null);
  if (match) return match;
  if (pathMatched) throw new MethodNotAllowedError(`${method} is not supported here`);
  throw new NotFoundError('no such end point');
}

/** The token of the client's own header, read as `Authorization: token …` when no Authorization is sent. */
function useApiKeyHeader(req: Request, header: string | undefined): void {
  const key = header ? req.headers[header] : undefined;
  if (typeof key === 'string' && key !== '' && !req.headers.authorization) req.headers.authorization = `token ${key}`;
}

export function packageRegistries(
  app: AppContext,
  authenticate: Authenticator,
  registries: Readonly<Record<string, () => RegistryTable>>,
): RequestHandler {
  return (req, res, next) => {
    const found = REGISTRY_PATH.exec(req.path);
    const table = found ? registries[found[2]]?.() : undefined;
    if (!found || !table) return next();
    const [, owner, type, rest = ''] = found;
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const run = async () => {
      useApiKeyHeader(req, table.apiKeyHeader);
      const caller = (await table.authenticate?.(app, req)) ?? (await authenticate(req, res));
      const { route, params } = matchRoute(table, req.method, rest);
      const ctx = new RegistryContext(app, req, res, caller, decode(owner), type, params);
      for (const guard of route.guards) await guard(ctx);
      await route.handler(ctx);
    };
    run().catch((error: unknown) => {
      // The rest of a refused upload is not read, so the connection cannot carry another request.
      if (!req.readableEnded) res.setHeader('Connection', 'close');
      sendRegistryError(res, error, table.errors, app.log);
    });
  };
}
