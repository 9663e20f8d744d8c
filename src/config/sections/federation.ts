// [federation] in app.ini.
import { str, int, bool, duration } from '../setting-types.ts';

export const federation = {
  ENABLED: bool(true),
  SHARE_USER_STATISTICS: bool(true),
  // Forgejo's: the largest document fetched from another server, in MiB
  MAX_SIZE: int(4, 1),
  // Anvil's own: hosts actor keys may be fetched from ([webhook] ALLOWED_HOST_LIST's vocabulary), and the deadline
  // of one fetch, redirects included
  ALLOWED_HOST_LIST: str('external'),
  FETCH_TIMEOUT: duration('10s', 1),
} as const;
