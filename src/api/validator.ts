// express-openapi-validator over generated/openapi.json. Requests are always validated; responses when asked
// (the test suite), so every test also proves the contract.
import path from 'node:path';
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';

export const API_SPEC_FILE = path.resolve(__dirname, '../../generated/openapi.json');

/**
 * express-openapi-validator 5.6 compiles the pattern of every contract route on every request until one matches
 * (openapi.metadata.js lookupRoute), about 0.5 ms a request. The compiled patterns depend only on their inputs,
 * so memoising path-to-regexp for the validator removes that cost (upstream fix: express-openapi-validator PR #1217).
 */
function memoiseValidatorRoutePatterns(): void {
  const validatorDir = path.dirname(require.resolve('express-openapi-validator'));
  const pathToRegexpModule = require(require.resolve('path-to-regexp', { paths: [validatorDir] }));
  if (pathToRegexpModule.__anvilMemoised) return;
  const original = pathToRegexpModule.pathToRegexp;
  const cache = new Map<string, unknown>();
  pathToRegexpModule.pathToRegexp = (route: unknown, options?: { sensitive?: boolean; strict?: boolean }) => {
    if (typeof route !== 'string') return original(route, options);
    const key = `${options?.sensitive ? 1 : 0}${options?.strict ? 1 : 0}${route}`;
    let compiled = cache.get(key);
    if (!compiled) cache.set(key, (compiled = original(route, options)));
    return compiled;
  };
  pathToRegexpModule.__anvilMemoised = true;
}

export interface ContractValidator {
  /** Finds the request's operation (`req.openapi`); unknown routes and methods fail here. */
  readonly matchOperation: RequestHandler[];
  /** Validates the request (and the response when asked) against the matched operation. */
  readonly validate: RequestHandler[];
}

export function openApiValidator(validateResponses: boolean): ContractValidator {
  memoiseValidatorRoutePatterns();
  const handlers = OpenApiValidator.middleware({
    apiSpec: API_SPEC_FILE,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    fileUploader: false,
    ignoreUndocumented: false,
    $refParser: { mode: 'bundle' },
  }) as unknown as RequestHandler[];
  // The body is read between the two halves, once the operation says what body it takes.
  const split = handlers.findIndex((handler) => handler.name === 'metadataMiddleware') + 1;
  if (split === 0) throw new Error('express-openapi-validator: no metadata middleware to split after');
  return { matchOperation: handlers.slice(0, split), validate: handlers.slice(split) };
}
