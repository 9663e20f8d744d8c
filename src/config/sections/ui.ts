// [ui] in app.ini.
import { int } from '../setting-types.ts';

export const ui = {
  ISSUE_PAGING_NUM: int(20, 1),
} as const;
