// Runs the operation the request was matched to: token scopes, the sign-in-to-view rule, guards, then the handler.
// The guards resolve the path's resources (src/api/assignment.ts) and decide access (src/api/guards.ts).
import type { Request, RequestHandler } from 'express';
import { OPERATIONS, type OperationId } from '../../generated/operations.ts';
import type { AppContext } from '../app/app-context.ts';
import type { Caller } from '../auth/caller.ts';
import { missingCategories } from '../auth/scopes.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../domain/errors.ts';
import { REGISTRY } from './registry.ts';
import { OperationContext } from './request-context.ts';
import type { Route } from './route.ts';

const MAX_DATABASE_ID = 2 ** 31 - 1;
/** With REQUIRE_SIGNIN_VIEW every /api/v1 route refuses anonymous callers; health, the contract and its docs stay open. */
const OPEN_WITHOUT_SIGN_IN = new Set<OperationId>([
  'healthCheck',
  'getApiContract',
  'getApiDocs',
  'getApiDocsAsset',
  'getNodeInfoLinks',
]);

export function dispatch(app: AppContext): RequestHandler {
  const { settings } = app;
  return async (req, res, next) => {
    const operationId = req.operation?.id;
    if (!operationId || !(operationId in REGISTRY)) return next(new NotFoundError());
    const operation = OPERATIONS[operationId];
    const route = REGISTRY[operationId] as Route;
    const caller = req.caller ?? null;
    try {
      refuseMissingScopes(caller, operationId, req);
      if (!caller && settings.service.REQUIRE_SIGNIN_VIEW && !OPEN_WITHOUT_SIGN_IN.has(operationId)) {
        // git only sends credentials after a 401 challenge; API clients get Forgejo's 403.
        if (operation.rawBody) throw new UnauthorizedError('sign in to use git');
        throw new ForbiddenError('Only signed in user is allowed to call APIs.');
      }
      const params: Record<string, string | number> = { ...req.operation?.pathParams };
      for (const name of operation.integerPathParams) {
        const value = Number(params[name]);
        // Ids beyond the database's range name nothing.
        if (!Number.isSafeInteger(value) || Math.abs(value) > MAX_DATABASE_ID) throw new NotFoundError();
        params[name] = value;
      }
      const ctx = new OperationContext(operationId, params, caller, app, req, res);
      for (const guard of route.guards) await guard(ctx);
      await route.handler(ctx);
    } catch (error) {
      next(error);
    }
  };
}

type ScopeRequest = Pick<Request, 'method' | 'query'>;

/** A token without the scope categories the operation needs is refused (403), before any guard. */
export function refuseMissingScopes(caller: Caller | null, operationId: OperationId, req: ScopeRequest): void {
  if (!caller?.scope) return;
  const method = scopeMethod(operationId, req);
  const missing = missingCategories(caller.scope, method, OPERATIONS[operationId].scopes);
  if (missing.length === 0) return;
  const level = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  const names = missing.map((category) => `${level}:${category}`).join(' ');
  throw new ForbiddenError(`token does not have at least one of required scope(s): [${names}]`);
}

/**
 * The method whose scope level a token needs: the request's, except for git smart HTTP, where fetching (a POST to
 * git-upload-pack too) needs read and pushing (its ref advertisement too) write (Forgejo: routers/web/repo/githttp.go).
 */
function scopeMethod(operationId: OperationId, req: ScopeRequest): string {
  if (operationId === 'gitUploadPack') return 'GET';
  if (operationId === 'gitReceivePack' || (operationId === 'gitInfoRefs' && req.query.service === 'git-receive-pack'))
    return 'POST';
  return req.method;
}
