// The listening HTTP server with its limits on slow and oversized clients, from [server] settings:
// MAX_HEADER_SIZE (a larger header block answers 431), READ_HEADER_TIMEOUT (headers not complete in time) and
// READ_TIMEOUT (the whole request, body included, not received in time): node answers 408 and closes the
// connection. Node checks the timeouts periodically, so the check runs often enough for the shortest of them.
import http from 'node:http';
import type { RequestListener } from 'node:http';
import type { Settings } from '../config/settings.ts';

type ServerLimits = Pick<Settings['server'], 'MAX_HEADER_SIZE' | 'READ_HEADER_TIMEOUT' | 'READ_TIMEOUT'>;

const LONGEST_CHECK_INTERVAL_MS = 30_000;
const SHORTEST_CHECK_INTERVAL_MS = 100;

export function httpServerOptions({
  MAX_HEADER_SIZE,
  READ_HEADER_TIMEOUT,
  READ_TIMEOUT,
}: ServerLimits): http.ServerOptions {
  // Node refuses a headers timeout longer than the request timeout; the request's bound covers its headers anyway.
  const headersTimeout =
    READ_TIMEOUT > 0 && (READ_HEADER_TIMEOUT === 0 || READ_HEADER_TIMEOUT > READ_TIMEOUT)
      ? READ_TIMEOUT
      : READ_HEADER_TIMEOUT;
  const shortest = Math.min(
    ...[headersTimeout, READ_TIMEOUT].filter((timeout) => timeout > 0),
    LONGEST_CHECK_INTERVAL_MS * 4,
  );
  return {
    maxHeaderSize: MAX_HEADER_SIZE,
    headersTimeout,
    requestTimeout: READ_TIMEOUT,
    connectionsCheckingInterval: Math.max(SHORTEST_CHECK_INTERVAL_MS, Math.floor(shortest / 4)),
  };
}

export function createHttpServer(handler: RequestListener, limits: ServerLimits): http.Server {
  return http.createServer(httpServerOptions(limits), handler);
}
