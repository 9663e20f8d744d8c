// [server] in app.ini.
import { str, int, size, bool, duration } from '../setting-types.ts';

export const server = {
  HTTP_ADDR: str('0.0.0.0'),
  HTTP_PORT: int(3000, 0),
  ROOT_URL: str(''),
  APP_DATA_PATH: str('data'),
  DISABLE_SSH: bool(true),
  // Anvil's own (Go's http.Server names): the largest header block, and how long a client may take to send
  // its headers and its whole request; 0 for no bound. Forgejo's: how long a shutdown waits for requests.
  MAX_HEADER_SIZE: size(16 * 1024),
  READ_HEADER_TIMEOUT: duration('60s'),
  READ_TIMEOUT: duration('5m'),
  GRACEFUL_HAMMER_TIME: duration('60s', -Infinity),
} as const;
