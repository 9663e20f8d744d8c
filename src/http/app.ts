// The HTTP application: hygiene ─▶ authentication ─▶ operation lookup ─▶ the operation's body ─▶ contract
// validation ─▶ dispatch ─▶ errors.
import express, { type RequestHandler } from 'express';
import type { AppContext } from '../app/app-context.ts';
import { type Authenticator, authenticator } from '../auth/authenticate.ts';
import { lowerCaseInsensitiveQueryValues } from '../api/case-insensitive-query.ts';
import { dispatch } from '../api/dispatch.ts';
import { refuseUnrepresentableIntegers } from '../api/integer-query.ts';
import { matchOperation } from '../api/operation-lookup.ts';
import { readDeclaredBody } from '../api/request-body.ts';
import { validateRequest } from '../api/request-contract.ts';
import { checkResponses } from '../api/response-contract.ts';
import { errorMiddleware } from './error-middleware.ts';
import { middlewareChain } from './middleware-chain.ts';
import { turnScheduler } from './turn-scheduler.ts';
import { containerRegistry } from '../packages/container/registry-router.ts';
import { packageRegistries } from '../packages/core/registry-router.ts';
import { PACKAGE_REGISTRIES } from '../packages/registries.ts';
import { normalisePath, refuseNulCharacters, securityHeaders } from './request-hygiene.ts';
import { gzipAnswers } from './gzip-answers.ts';
import { clientAddress } from './client-address.ts';
import { requestLog } from './request-log.ts';
import { metricsEndpoint, timeRequests } from './metrics-endpoint.ts';
import { createMetrics } from '../infra/observability/metrics.ts';
import { ANVIL_VERSION } from '../lib/version.ts';
import { SITE_STATISTICS } from '../domain/site-statistics.ts';

export interface AppOptions {
  /** Check every response against the contract; on by default when NODE_ENV=test. */
  validateResponses?: boolean;
}

function credentialResolver(app: AppContext): Authenticator {
  return authenticator({
    tokens: app.services.accessTokens,
    users: app.services.users,
    passwords: app.passwords,
    throttle: app.signInThrottle,
    allowQueryToken: !app.settings.security.DISABLE_QUERY_AUTH_TOKEN,
  });
}

function authenticate(resolve: Authenticator): RequestHandler {
  return (req, res, next) => {
    resolve(req, res).then((caller) => {
      req.caller = caller;
      next();
    }, next);
  };
}

/** Express 5 parses the query string again on every read of req.query; read it once, as a plain property. */
function parseQueryOnce(): RequestHandler {
  return (req, _res, next) => {
    Object.defineProperty(req, 'query', { value: req.query, writable: true, configurable: true, enumerable: true });
    next();
  };
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Forgejo reads an API body as JSON whatever its declared type, so a body without a type is read as JSON (and an
 * absent one as an empty object, src/api/request-body.ts) instead of failing as an unsupported media type.
 */
function assumeJsonBodies(): RequestHandler {
  return (req, _res, next) => {
    if (BODY_METHODS.has(req.method) && !req.headers['content-type'] && req.path.startsWith('/api/v1/')) {
      req.headers['content-type'] = 'application/json';
    }
    next();
  };
}

export function createApp(app: AppContext, options: AppOptions = {}): express.Express {
  const server = express();
  server.disable('x-powered-by');
  server.set('etag', false);
  server.set('query parser', 'extended');
  const validateResponses = options.validateResponses ?? process.env.NODE_ENV === 'test';
  const resolveCredentials = credentialResolver(app);
  server.use(clientAddress(server, app.settings.security));
  server.use(requestLog(app.log, app.settings.log.ENABLE_ACCESS_LOG));
  if (app.settings.metrics.ENABLED) {
    const { system } = app.services;
    const metrics = createMetrics(ANVIL_VERSION, () => system.statistics(), SITE_STATISTICS);
    server.use(timeRequests(metrics));
    server.get('/metrics', metricsEndpoint(metrics, app.settings.metrics.TOKEN));
  }
  server.use(turnScheduler());
  if (app.settings.server.ENABLE_GZIP) server.use(gzipAnswers());
  // The container registry (OCI distribution) answers in its own format, outside the API's contract.
  server.use('/v2', containerRegistry(app, resolveCredentials));
  // So do npm, PyPI and Maven, each in its client's; the generic registry is part of the contract.
  server.use('/api/packages', packageRegistries(app, resolveCredentials, PACKAGE_REGISTRIES));
  server.use(
    middlewareChain([
      normalisePath(),
      parseQueryOnce(),
      securityHeaders(),
      authenticate(resolveCredentials),
      matchOperation(),
      assumeJsonBodies(),
      readDeclaredBody(),
      refuseNulCharacters(),
      lowerCaseInsensitiveQueryValues(),
      validateRequest(),
      ...(validateResponses ? [checkResponses()] : []),
      refuseUnrepresentableIntegers(),
      dispatch(app),
    ]),
  );
  server.use(errorMiddleware(app.settings.server.ROOT_URL, app.log));
  return server;
}
