// [log] in app.ini.
import { bool, oneOf } from '../setting-types.ts';

export const log = {
  LEVEL: oneOf('info', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const),
  // Forgejo's: one line per request
  ENABLE_ACCESS_LOG: bool(false),
  // Anvil's own: json (one object a line, for collectors) or plain text
  FORMAT: oneOf('json', ['json', 'plain'] as const),
} as const;
