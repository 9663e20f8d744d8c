// [database] in app.ini.
import { str } from '../setting-types.ts';

export const database = {
  // postgresql://… selects PostgreSQL; empty means SQLite at $APP_DATA_PATH/anvil.db
  URL: str(''),
  SQLITE_PATH: str(''),
} as const;
