// The contract check turns integer query values into numbers; past 2^53 they are no longer the number sent, and past
// int64 the database refuses them. Such values are a client's mistake, answered 422 before anything runs.
import type { RequestHandler } from 'express';
import { OPERATIONS } from '../../generated/operations.ts';
import { ValidationError } from '../domain/errors.ts';
import { INTEGER_OUT_OF_RANGE, isRepresentableInteger } from './contract-formats.ts';

export function refuseUnrepresentableIntegers(): RequestHandler {
  return (req, _res, next) => {
    const operationId = req.operation?.id;
    if (!operationId || !(operationId in OPERATIONS)) return next();
    const query = req.query as Record<string, unknown>;
    for (const name of OPERATIONS[operationId].integerQueryParams) {
      const values = Array.isArray(query[name]) ? (query[name] as unknown[]) : [query[name]];
      if (values.some((value) => typeof value === 'number' && !isRepresentableInteger(value))) {
        return next(new ValidationError(`[${name}]: ${INTEGER_OUT_OF_RANGE}`));
      }
    }
    next();
  };
}
