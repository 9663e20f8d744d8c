// [mirror] in app.ini.
import { str, bool } from '../setting-types.ts';

export const mirror = {
  ENABLED: bool(true),
  DISABLE_NEW_PULL: bool(false),
  DEFAULT_INTERVAL: str('8h'),
  MIN_INTERVAL: str('10m'),
} as const;
