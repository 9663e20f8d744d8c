// [quota], [quota.default] in app.ini.
import { int, bool, list } from '../setting-types.ts';

export const quota = {
  ENABLED: bool(true),
  DEFAULT_GROUPS: list(),
} as const;

export const quotaDefault = {
  TOTAL: int(-1),
} as const;
