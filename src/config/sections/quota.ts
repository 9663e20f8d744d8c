// [quota], [quota.default] in app.ini.
import { bool, list, sizeLimit } from '../setting-types.ts';

export const quota = {
  ENABLED: bool(true),
  DEFAULT_GROUPS: list(),
} as const;

export const quotaDefault = {
  TOTAL: sizeLimit(),
} as const;
