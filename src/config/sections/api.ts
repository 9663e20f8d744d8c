// [api] in app.ini.
import { int, bool } from '../setting-types.ts';

export const api = {
  ENABLE_SWAGGER: bool(true),
  DEFAULT_PAGING_NUM: int(30, 1),
  MAX_RESPONSE_ITEMS: int(50, 1),
} as const;
