// Reads the body the matched operation declares, before validation: JSON or text within the operation's limit.
// A stream body (git, package uploads) stays unread for its handler, and a body the operation does not declare is
// never read (one announced over the default limit is refused), so no caller can make the server hold more than
// one limit's worth of a body.
import type { NextFunction, RequestHandler, Response } from 'express';
import { OPERATIONS, type OperationId } from '../../generated/operations.ts';
import { BadRequestError, ValidationError } from '../domain/errors.ts';
import { announcesMoreThan, bodyTooLarge, hasBody, readLimitedBody } from '../http/body-reader.ts';
import { dropDisallowedNulls, nullBodyAsAbsent } from './absent-nulls.ts';
import { bodyLimit, DEFAULT_BODY_LIMIT } from './body-limits.ts';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** Far deeper than any body of the contract; deeper bodies are refused before anything walks them. */
export const MAX_JSON_DEPTH = 64;

function deeperThan(value: unknown, maxDepth: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(node))
      if (child !== null && typeof child === 'object') pending.push([child, depth + 1]);
  }
  return false;
}

function parseJson(operationId: OperationId, text: string): unknown {
  if (text.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ValidationError(`[]: ${(error as Error).message}`);
  }
  if (deeperThan(value, MAX_JSON_DEPTH))
    throw new BadRequestError(`the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`);
  dropDisallowedNulls(operationId, value);
  return nullBodyAsAbsent(operationId, value);
}

function refuse(res: Response, next: NextFunction, error: unknown): void {
  // The rest of a refused body (too large, not decoding, unreadable) is not read, so the connection cannot
  // carry another request.
  res.setHeader('Connection', 'close');
  next(error);
}

export function readDeclaredBody(): RequestHandler {
  return (req, res, next) => {
    const operationId = req.operation?.id;
    const kind = operationId && operationId in OPERATIONS ? OPERATIONS[operationId].body : 'none';
    if (kind === 'none' && announcesMoreThan(req, DEFAULT_BODY_LIMIT))
      return refuse(res, next, bodyTooLarge(DEFAULT_BODY_LIMIT));
    if (kind !== 'json' && kind !== 'text') return next();
    // An empty JSON body is an empty object: Forgejo's decoder stops at EOF without an error.
    if (!hasBody(req)) {
      if (kind === 'json') req.body = {};
      return next();
    }
    // A body of another media type is left unread; the validator answers 415.
    if (!req.is(kind === 'json' ? JSON_TYPES : ['text/plain'])) return next();
    readLimitedBody(req, bodyLimit(operationId!)).then(
      (raw) => {
        // The bytes as they came, for handlers that check a digest over them (ActivityPub inboxes).
        req.rawBody = raw;
        try {
          req.body = kind === 'json' ? parseJson(operationId!, raw.toString('utf8')) : raw.toString('utf8');
        } catch (error) {
          return next(error);
        }
        next();
      },
      (error) => refuse(res, next, error),
    );
  };
}
