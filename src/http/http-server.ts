// The listening server with its limits on slow and oversized clients, from [server] settings:
// MAX_HEADER_SIZE (a larger header block answers 431), READ_HEADER_TIMEOUT (headers not complete in time) and
// READ_TIMEOUT (the whole request, body included, not received in time): node answers 408 and closes the
// connection. Node checks the timeouts periodically, so the check runs often enough for the shortest of them.
// PROTOCOL https serves TLS with CERT_FILE and KEY_FILE; http+unix listens on the socket HTTP_ADDR names.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { RequestListener } from 'node:http';
import type { Settings } from '../config/settings.ts';

type ServerLimits = Pick<Settings['server'], 'MAX_HEADER_SIZE' | 'READ_HEADER_TIMEOUT' | 'READ_TIMEOUT'>;
type ServerSettings = ServerLimits & Partial<Pick<Settings['server'], 'PROTOCOL' | 'CERT_FILE' | 'KEY_FILE'>>;
type ListenSettings = Pick<Settings['server'], 'PROTOCOL' | 'HTTP_ADDR' | 'HTTP_PORT' | 'UNIX_SOCKET_PERMISSION'>;

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

export function createHttpServer(handler: RequestListener, settings: ServerSettings): http.Server {
  const options = httpServerOptions(settings);
  if (settings.PROTOCOL !== 'https') return http.createServer(options, handler);
  return https.createServer(
    { ...options, cert: fs.readFileSync(settings.CERT_FILE!), key: fs.readFileSync(settings.KEY_FILE!) },
    handler,
  );
}

/** Listens where the settings say; rejects with the listen error (EADDRINUSE, EACCES…). */
export function listen(server: http.Server, settings: ListenSettings): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const ready = () => {
      server.off('error', reject);
      resolve();
    };
    if (settings.PROTOCOL === 'http+unix') {
      // A socket left by a process that died would refuse the bind; one that answers is another server's.
      void socketAnswers(settings.HTTP_ADDR).then((answers) => {
        if (answers) return reject(Object.assign(new Error('socket in use'), { code: 'EADDRINUSE' }));
        fs.rmSync(settings.HTTP_ADDR, { force: true });
        server.listen(settings.HTTP_ADDR, () => {
          fs.chmodSync(settings.HTTP_ADDR, parseInt(settings.UNIX_SOCKET_PERMISSION, 8));
          ready();
        });
      });
    } else server.listen(settings.HTTP_PORT, settings.HTTP_ADDR, ready);
  });
}

/** Whether a server accepts connections on the unix socket at `socketPath`. */
function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.connect(socketPath);
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
}
