// Failures of a registry request in the form its client reads (Forgejo: routers/api/packages/helper apiError):
// npm reads a JSON `{"error": …}`, pip and twine show a plain-text body, Maven only looks at the status; a registry
// whose client reads another form gives its own writer (Composer's `{"errors": [{status, message}]}`). The
// status is the one the API would answer; a 401 names the Basic scheme so clients send their credentials.
import type { Response } from 'express';
import { ApiError, TooManyRequestsError, UnauthorizedError } from '../../domain/errors.ts';
import { isUniqueViolation } from '../../infra/database/errors.ts';
import type { Logger } from '../../infra/observability/logger.ts';

/** Writes a failure's body once its status and headers are set. */
export type ErrorWriter = (res: Response, status: number, message: string) => void;
export type ErrorFormat = 'json' | 'text' | 'status' | ErrorWriter;

/** The status and message of a failure; null for a failure of the server itself. */
function describe(error: unknown): { status: number; message: string } | null {
  if (error instanceof ApiError && error.status < 500) return { status: error.status, message: error.message };
  // A row another request created meanwhile: the publish lost the race.
  if (isUniqueViolation(error)) return { status: 409, message: 'package version already exists' };
  return null;
}

export function sendRegistryError(res: Response, error: unknown, format: ErrorFormat, log: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let described = describe(error);
  if (!described) {
    log.error({ err: error }, 'package registry request failed');
    described = { status: 500, message: 'internal server error' };
  }
  const { status, message } = described;
  if (error instanceof UnauthorizedError) res.setHeader('WWW-Authenticate', 'Basic realm="Anvil"');
  if (error instanceof TooManyRequestsError) res.setHeader('Retry-After', String(error.retryAfter));
  res.status(status);
  if (typeof format === 'function') format(res, status, message);
  else if (format === 'json') res.json({ error: message });
  else if (format === 'text') res.type('text/plain').send(`${message}\n`);
  else res.end();
}
