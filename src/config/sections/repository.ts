// [repository] in app.ini.
import { str, int, bool, list } from '../setting-types.ts';

export const repository = {
  ROOT: str(''),
  DEFAULT_BRANCH: str('main'),
  MAX_CREATION_LIMIT: int(-1),
  FORCE_PRIVATE: bool(false),
  PREFERRED_LICENSES: list(['apache-2.0', 'mit']),
  DISABLE_MIGRATIONS: bool(false),
} as const;
