// Failures of a registry request as the OCI distribution spec answers them: the spec's error body and codes, the
// challenge on 401 (Forgejo: apiUnauthorizedError), and a generic answer for failures of the server itself.
import type { Response } from 'express';
import {
  ApiError,
  BadRequestError,
  ForbiddenError,
  NotFoundError,
  PayloadTooLargeError,
  QuotaExceededError,
  TooManyRequestsError,
  UnauthorizedError,
} from '../../domain/errors.ts';
import type { Logger } from '../../infra/observability/logger.ts';
import { OciError } from './oci-error.ts';

/** Forgejo's challenge: a bearer token from `<ROOT_URL>v2/token`. */
export function challenge(rootUrl: string): string {
  return `Bearer realm="${rootUrl}v2/token",service="container_registry",scope="*"`;
}

function asOciError(error: unknown): OciError | null {
  if (error instanceof OciError) return error;
  if (error instanceof UnauthorizedError) return new OciError(401, 'UNAUTHORIZED', error.message);
  if (error instanceof ForbiddenError) return new OciError(403, 'DENIED', error.message);
  if (error instanceof QuotaExceededError) return new OciError(413, 'DENIED', error.message);
  if (error instanceof PayloadTooLargeError) return new OciError(413, 'SIZE_INVALID', error.message);
  if (error instanceof TooManyRequestsError) return new OciError(429, 'TOOMANYREQUESTS', error.message);
  if (error instanceof NotFoundError) return new OciError(404, 'NAME_UNKNOWN', error.message);
  if (error instanceof BadRequestError) return new OciError(400, 'BLOB_UPLOAD_INVALID', error.message);
  if (error instanceof ApiError && error.status < 500) return new OciError(error.status, 'DENIED', error.message);
  return null;
}

export function sendOciError(res: Response, error: unknown, rootUrl: string, log: Logger): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  let oci = asOciError(error);
  if (!oci) {
    log.error({ err: error }, 'container registry request failed');
    oci = new OciError(500, 'UNKNOWN', 'internal server error');
  }
  if (oci.status === 401) res.setHeader('WWW-Authenticate', challenge(rootUrl));
  if (error instanceof TooManyRequestsError) res.setHeader('Retry-After', String(error.retryAfter));
  const entry = { code: oci.code, message: oci.message, ...(oci.detail === undefined ? {} : { detail: oci.detail }) };
  res.status(oci.status).json({ errors: [entry] });
}
