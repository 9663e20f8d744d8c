// [log] in app.ini.
import { oneOf } from '../setting-types.ts';

export const log = {
  LEVEL: oneOf('info', ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const),
} as const;
