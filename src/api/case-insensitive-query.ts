// Query values Forgejo lower-cases before reading them (`subject-type=Issue` is `issue`), marked in the contract
// with `x-case-insensitive`, are lower-cased before validation, so the contract's lower-case enum accepts them.
import type { RequestHandler } from 'express';
import { REQUEST_CONTRACTS } from '../../generated/request-validators.ts';
import type { RequestContract } from './contract-types.ts';

const CONTRACTS = REQUEST_CONTRACTS as Record<string, RequestContract>;

const lowered = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : value);

export function lowerCaseInsensitiveQueryValues(): RequestHandler {
  return (req, _res, next) => {
    const names = req.operation ? (CONTRACTS[req.operation.id]?.caseInsensitiveQuery ?? []) : [];
    const query = req.query as Record<string, unknown>;
    for (const name of names) {
      if (!Object.hasOwn(query, name)) continue;
      const value = query[name];
      query[name] = Array.isArray(value) ? value.map(lowered) : lowered(value);
    }
    next();
  };
}
