// The one place where failures become HTTP answers: domain errors, contract failures and database errors, all as
// Forgejo's {message, url} body. Internals never reach the client.
import type { ErrorRequestHandler } from 'express';
import {
  ApiError,
  ForbiddenError,
  InvalidTopicsError,
  NotFoundError,
  PlainTextValidationError,
  QuotaExceededError,
  RenamedRedirect,
  TooManyRequestsError,
  UnauthorizedError,
} from '../domain/errors.ts';
import { isForeignKeyViolation, isRecordNotFound, isUniqueViolation } from '../infra/database/errors.ts';
import type { Logger } from '../infra/observability/logger.ts';
import { INTEGER_OUT_OF_RANGE } from '../api/contract-formats.ts';

interface ValidatorIssue {
  path?: string;
  message?: string;
}

interface ValidatorFailure {
  status: number;
  errors?: ValidatorIssue[];
  message?: string;
  headers?: Record<string, string>;
}

function isValidatorFailure(error: unknown): error is ValidatorFailure {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    Array.isArray((error as ValidatorFailure).errors)
  );
}

/** `[field]: problem`, Forgejo's validation message form, for the first failing rule. */
function validationMessage(issue: ValidatorIssue | undefined): string {
  if (!issue) return 'invalid input';
  const field = (issue.path ?? '').replace(/\//g, '.').replace(/^\.(body|query|params|headers)\.?/, '');
  // The contract's int64 holds what a JSON number holds exactly (src/api/contract-formats.ts).
  const message = issue.message === 'must match format "int64"' ? INTEGER_OUT_OF_RANGE : issue.message;
  return `[${field}]: ${message ?? 'invalid'}`;
}

export function errorMiddleware(rootUrl: string, log: Logger): ErrorRequestHandler {
  const url = `${rootUrl}api/swagger`;
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const reply = (status: number, body: Record<string, unknown>) => res.status(status).json(body);

    if (error instanceof RenamedRedirect) return res.status(307).setHeader('Location', error.location).end();
    if (error instanceof NotFoundError) return reply(404, { message: error.message, url, errors: error.errors });
    if (error instanceof ForbiddenError && error.withoutUrl) return reply(403, { message: error.message });
    if (error instanceof PlainTextValidationError) return res.status(422).type('text/plain').send(`${error.message}\n`);
    if (error instanceof InvalidTopicsError)
      return reply(422, { message: error.message, invalidTopics: error.invalidTopics });
    if (error instanceof QuotaExceededError)
      return reply(413, { message: error.message, user_id: error.userId, username: error.username });
    // A 401 names the scheme to use (RFC 9110); git needs it to ask for credentials and retry.
    if (error instanceof UnauthorizedError) res.setHeader('WWW-Authenticate', 'Basic realm="Anvil"');
    if (error instanceof TooManyRequestsError) res.setHeader('Retry-After', String(error.retryAfter));
    if (error instanceof ApiError && error.status < 500) return reply(error.status, { message: error.message, url });

    if (isValidatorFailure(error)) {
      if (error.status === 500) {
        // A response that breaks the contract: a bug in Anvil, loud in tests.
        log.error({ err: error, path: req.path }, 'response does not match the contract');
        return reply(500, {
          message: `response does not match the contract: ${validationMessage(error.errors?.[0])}`,
          url,
        });
      }
      if (error.status === 404) return reply(404, { message: 'not found', url, errors: [] });
      // RFC 9110: a 405 names the methods the path takes.
      if (error.status === 405) {
        if (error.headers) res.set(error.headers);
        return reply(405, { message: error.message ?? 'method not allowed', url });
      }
      if (error.status === 415) return reply(415, { message: error.message ?? 'unsupported media type', url });
      const issue = error.errors?.[0];
      // A malformed id in the path names nothing, as in Forgejo.
      if (/^[./]params/.test(issue?.path ?? '')) return reply(404, { message: 'not found', url, errors: [] });
      return reply(422, { message: validationMessage(issue), url });
    }

    if (isUniqueViolation(error)) return reply(422, { message: 'the name is already in use', url });
    // A row named by the request was deleted meanwhile.
    if (isRecordNotFound(error) || isForeignKeyViolation(error))
      return reply(404, { message: 'not found', url, errors: [] });

    log.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    return reply(500, { message: 'internal server error', url });
  };
}
