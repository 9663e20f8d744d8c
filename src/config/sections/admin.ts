// [admin] in app.ini.
import { bool } from '../setting-types.ts';

export const admin = {
  DISABLE_REGULAR_ORG_CREATION: bool(false),
} as const;
