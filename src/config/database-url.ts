// Which database [database] names: URL as given, else Forgejo's DB_TYPE, HOST, NAME, USER, PASSWD, SSL_MODE and
// SCHEMA composed into a postgresql:// URL (a HOST starting with / is a unix socket directory), else SQLite at
// PATH. MySQL and MSSQL, which Forgejo also runs on, are refused by name.
import path from 'node:path';
import { ConfigError } from './config-error.ts';

interface DatabaseKeys {
  URL: string;
  DB_TYPE: string;
  HOST: string;
  NAME: string;
  USER: string;
  PASSWD: string;
  SSL_MODE: string;
  SCHEMA: string;
  PATH: string;
  SQLITE_PATH: string;
}

export function postgresUrl(keys: DatabaseKeys): string {
  const params = new URLSearchParams({ sslmode: keys.SSL_MODE });
  if (keys.SCHEMA) params.set('options', `-c search_path=${keys.SCHEMA}`);
  const auth = `${encodeURIComponent(keys.USER)}${keys.PASSWD ? `:${encodeURIComponent(keys.PASSWD)}` : ''}@`;
  const name = encodeURIComponent(keys.NAME);
  if (keys.HOST.startsWith('/')) {
    // The host parameter wins over the URL's host, for node-postgres and libpq alike.
    params.set('host', keys.HOST);
    return `postgresql://${auth}localhost/${name}?${params}`;
  }
  const host = /:\d+$/.test(keys.HOST) || keys.HOST.endsWith(']') ? keys.HOST : `${keys.HOST}:5432`;
  return `postgresql://${auth}${host}/${name}?${params}`;
}

/** Fills URL (PostgreSQL) or SQLITE_PATH (SQLite) from the keys; the other stays empty. */
export function resolveDatabase(keys: DatabaseKeys, dataDir: string): void {
  if (keys.URL) {
    if (!/^postgres(ql)?:\/\//.test(keys.URL))
      throw new ConfigError(`[database] URL: "${keys.URL.replace(/\/\/[^@/]*@/, '//…@')}" is not a postgresql:// URL`);
    return;
  }
  switch (keys.DB_TYPE) {
    case 'postgres':
      keys.URL = postgresUrl(keys);
      return;
    case 'mysql':
    case 'mssql':
      throw new ConfigError(
        `[database] DB_TYPE: "${keys.DB_TYPE}" is not supported by Anvil; use sqlite3 or postgres (migrate the data first)`,
      );
    default:
      keys.SQLITE_PATH = path.resolve(dataDir, keys.SQLITE_PATH || keys.PATH || 'anvil.db');
  }
}
