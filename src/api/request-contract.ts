// Checks a request against its operation's compiled contract (generated/request-validators.ts): query, path and
// header values are coerced to their types and defaults filled in, in place; the body is checked against the
// declared media type it was sent as. A failure is a 400 ContractFailure, answered 422 `[field]: message`.
import type { RequestHandler } from 'express';
import { REQUEST_CONTRACTS } from '../../generated/request-validators.ts';
import { failureFromIssues } from './contract-failure.ts';
import type { ContractIssue, RequestContract } from './contract-types.ts';
import { declaredContent } from './request-media-type.ts';

const CONTRACTS = REQUEST_CONTRACTS as Record<string, RequestContract>;

/** One value of a parameter typed as an array is a list of one, as `?labels=a&labels=b` is a list of two. */
function listArrayQueryValues(query: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names) {
    const value = query[name];
    if (value && !Array.isArray(value)) query[name] = [value];
  }
}

export function validateRequest(): RequestHandler {
  return (req, _res, next) => {
    const operation = req.operation;
    const contract = operation && CONTRACTS[operation.id];
    if (!contract) return next();
    const content = contract.body ? declaredContent(contract.body, req.headers['content-type']) : null;
    const query = req.query as Record<string, unknown>;
    listArrayQueryValues(query, contract.arrayQuery);
    const data = {
      query,
      headers: req.headers,
      params: operation.pathParams,
      cookies: undefined,
      body: req.body as unknown,
    };
    const issues: ContractIssue[] = [];
    if (!contract.parameters(data)) issues.push(...(contract.parameters.errors ?? []));
    if (content?.validate && !content.validate(data)) issues.push(...(content.validate.errors ?? []));
    if (issues.length > 0) throw failureFromIssues(400, issues, 'request');
    next();
  };
}
