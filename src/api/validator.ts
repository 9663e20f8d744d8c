// express-openapi-validator over generated/openapi.json. Requests are always validated; responses when asked
// (the test suite), so every test also proves the contract.
import * as OpenApiValidator from 'express-openapi-validator';
import type { RequestHandler } from 'express';
import { projectPath } from '../lib/project-root.ts';
import { CONTRACT_FORMATS } from './contract-formats.ts';
import { patchValidatorCosts } from './validator-patches.ts';

export const API_SPEC_FILE = projectPath('generated', 'openapi.json');

export interface ContractValidator {
  /** Finds the request's operation (`req.openapi`); unknown routes and methods fail here. */
  readonly matchOperation: RequestHandler[];
  /** Validates the request (and the response when asked) against the matched operation. */
  readonly validate: RequestHandler[];
}

export function openApiValidator(validateResponses: boolean): ContractValidator {
  patchValidatorCosts();
  const handlers = OpenApiValidator.middleware({
    apiSpec: API_SPEC_FILE,
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false },
    validateResponses: validateResponses ? { removeAdditional: false } : false,
    validateSecurity: false,
    validateFormats: true,
    formats: CONTRACT_FORMATS,
    fileUploader: false,
    ignoreUndocumented: false,
    $refParser: { mode: 'bundle' },
  }) as unknown as RequestHandler[];
  // The body is read between the two halves, once the operation says what body it takes.
  const split = handlers.findIndex((handler) => handler.name === 'metadataMiddleware') + 1;
  if (split === 0) throw new Error('express-openapi-validator: no metadata middleware to split after');
  return { matchOperation: handlers.slice(0, split), validate: handlers.slice(split) };
}
