// Every request gets an id (a sane X-Request-Id from the client or a proxy is kept, else a new one), answered
// in X-Request-Id and named in every log line written while serving it; with [log] ENABLE_ACCESS_LOG, pino-http
// writes one line per answered request. Tokens in the query are redacted and no header is logged, so no
// credential reaches the log.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler, Response } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../infra/observability/logger.ts';
import { requestContext } from '../infra/observability/request-context.ts';
import { FORWARDS_WRITE_CALLBACK } from '../infra/storage/send-file.ts';

const SANE_REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;
const SECRET_QUERY_KEYS = /([?&](?:token|access_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_KEYS, '$1[redacted]');
}

function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** Bytes of the body as sent, counted on the way out (streamed answers have no Content-Length). */
function countBytes(res: ServerResponse): void {
  let bytes = 0;
  const { write, end } = res;
  const add = (chunk: unknown, encoding?: unknown) => {
    if (typeof chunk === 'string')
      bytes += Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8');
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    add(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  Object.assign(res.write, { [FORWARDS_WRITE_CALLBACK]: true });
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    if (chunk !== undefined && typeof chunk !== 'function') add(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof res.end;
  Object.defineProperty(res, 'bytesSent', { get: () => bytes });
}

export function requestLog(log: Logger, accessLog: boolean): RequestHandler {
  const access = pinoHttp({
    logger: log,
    autoLogging: accessLog,
    quietReqLogger: true,
    customAttributeKeys: { reqId: 'requestId', responseTime: 'durationMs' },
    genReqId: (req) => (req as Request).id as string,
    serializers: {
      req: (req: { method: string; url: string; raw: Request }) => ({
        method: req.method,
        path: redactUrl(req.raw.originalUrl ?? req.url),
        remoteAddress: req.raw.ip,
      }),
      res: (res: { statusCode: number; raw: ServerResponse & { bytesSent?: number } }) => ({
        status: res.statusCode,
        bytes: res.raw.bytesSent ?? 0,
      }),
    },
    customSuccessObject: (req, _res, value: Record<string, unknown>) => ({
      ...value,
      user: (req as Request).caller?.authenticated.name,
    }),
    customErrorObject: (req, _res, _error, value: Record<string, unknown>) => ({
      ...value,
      user: (req as Request).caller?.authenticated.name,
    }),
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
    customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'warn' : 'info'),
  });
  return (req: Request, res: Response, next) => {
    const id = requestId(req);
    (req as { id?: string }).id = id;
    res.setHeader('X-Request-Id', id);
    // Without the access log, no pino-http child logger and no byte count: they halved the org GET's rate.
    if (!accessLog) return requestContext.run({ requestId: id }, next);
    countBytes(res);
    requestContext.run({ requestId: id }, () => access(req, res, next));
  };
}
