// Checks every JSON answer against its operation's responses (generated/response-validators.ts, loaded only when
// asked: the test suite), so a test that passes also proves the contract. An answer that breaks it becomes a 500.
import type { Request, RequestHandler, Response } from 'express';
import type * as ResponseValidators from '../../generated/response-validators.ts';
import { ContractFailure, failureFromIssues } from './contract-failure.ts';
import type { ResponseContract } from './contract-types.ts';

function loadContracts(): Record<string, ResponseContract> {
  return (require('../../generated/response-validators.ts') as typeof ResponseValidators).RESPONSE_CONTRACTS as Record<
    string,
    ResponseContract
  >;
}

function mediaType(type: string): string {
  return type.split(';')[0].toLowerCase().trim();
}

/** The declared media type to check against: the first the client accepts, else the first declared. */
function chosenMediaType(declared: string[], req: Request, res: Response): string {
  const contentType = res.getHeader('content-type');
  const accepts = contentType
    ? [String(contentType)]
    : (req.headers.accept?.split(',').map((type) => type.trim()) ?? []);
  for (const accept of accepts) {
    const wanted = mediaType(accept);
    if (wanted === '*/*') return declared[0];
    const exact = declared.find((type) => mediaType(type) === wanted);
    if (exact) return exact;
    if (/^[a-z]+\/\*$/.test(wanted)) {
      const family = declared.find((type) => mediaType(type).startsWith(wanted.slice(0, -1)));
      if (family) return family;
    }
  }
  return declared[0];
}

function check(contract: ResponseContract, status: number, body: unknown, req: Request, res: Response): void {
  const byType = contract[status] ?? contract[`${String(status)[0]}XX`] ?? contract.default;
  if (!byType) {
    const message = `no schema defined for status code '${status}' in the openapi spec`;
    throw new ContractFailure(500, message, [{ path: req.originalUrl, message }]);
  }
  const declared = Object.keys(byType);
  if (declared.length === 0) {
    if (body !== undefined)
      throw new ContractFailure(500, 'response should NOT have a body', [
        { path: '/response', message: 'response should NOT have a body' },
      ]);
    return;
  }
  if (body === undefined || body === null)
    throw new ContractFailure(500, 'response body required.', [
      { path: '/response', message: 'response body required.' },
    ]);
  const validate = byType[chosenMediaType(declared, req, res)];
  // What the client receives: dates as strings, undefined fields absent.
  if (!validate({ response: JSON.parse(JSON.stringify(body)) }))
    throw failureFromIssues(500, validate.errors ?? [], '');
}

export function checkResponses(): RequestHandler {
  const contracts = loadContracts();
  return (req, res, next) => {
    const contract = req.operation && contracts[req.operation.id];
    if (!contract) return next();
    const send = res.json;
    res.json = function checkedJson(this: Response, body: unknown) {
      res.json = send;
      if (res.headersSent || res.statusCode >= 500) return send.call(this, body);
      try {
        check(contract, res.statusCode, body, req, res);
      } catch (failure) {
        next(failure);
        return res;
      }
      return send.call(this, body);
    };
    next();
  };
}
