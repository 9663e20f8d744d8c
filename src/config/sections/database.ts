// [database] in app.ini, Forgejo's keys (modules/setting/database.go) beside Anvil's URL.
import { str, oneOf } from '../setting-types.ts';

export const DB_TYPES = ['sqlite3', 'postgres', 'mysql', 'mssql'] as const;

export const database = {
  // postgresql://… selects PostgreSQL and wins over the keys below; DATABASE_URL in the environment sets it
  URL: str(''),
  DB_TYPE: oneOf('sqlite3', DB_TYPES),
  // host:port, or the directory of a unix socket (starting with /)
  HOST: str('127.0.0.1:5432'),
  NAME: str('anvil'),
  USER: str('anvil'),
  PASSWD: str(''),
  SSL_MODE: oneOf('disable', ['disable', 'allow', 'prefer', 'require', 'verify-ca', 'verify-full'] as const),
  SCHEMA: str(''),
  // the SQLite file; relative paths are under the data directory (Anvil's SQLITE_PATH is an older name for it)
  PATH: str(''),
  SQLITE_PATH: str(''),
} as const;
