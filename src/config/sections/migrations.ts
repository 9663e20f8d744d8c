// [migrations] in app.ini.
import { bool } from '../setting-types.ts';

export const migrations = {
  ALLOW_LOCALNETWORKS: bool(false),
} as const;
