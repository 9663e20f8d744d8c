// [server] in app.ini.
import { str, int, size, bool, duration, oneOf } from '../setting-types.ts';

export const server = {
  // http, https (CERT_FILE and KEY_FILE), or http+unix (HTTP_ADDR is the socket's path)
  PROTOCOL: oneOf('http', ['http', 'https', 'http+unix'] as const),
  HTTP_ADDR: str('0.0.0.0'),
  HTTP_PORT: int(3000, 0),
  CERT_FILE: str(''),
  KEY_FILE: str(''),
  // octal file mode of the unix socket
  UNIX_SOCKET_PERMISSION: str('666'),
  ROOT_URL: str(''),
  DOMAIN: str('localhost'),
  APP_DATA_PATH: str('data'),
  DISABLE_SSH: bool(true),
  // gzip for answers the client accepts it for
  ENABLE_GZIP: bool(false),
  // Anvil's own (Go's http.Server names): the largest header block, and how long a client may take to send
  // its headers and its whole request; 0 for no bound. Forgejo's: how long a shutdown waits for requests.
  MAX_HEADER_SIZE: size(16 * 1024),
  READ_HEADER_TIMEOUT: duration('60s'),
  READ_TIMEOUT: duration('5m'),
  GRACEFUL_HAMMER_TIME: duration('60s', -Infinity),
} as const;
