// The few statements the migration runner needs, on either driver, outside Prisma's client.
import Database from 'better-sqlite3';
import type pg from 'pg';
import type { DatabaseTarget } from '../target.ts';

export interface MigrationConnection {
  readonly provider: DatabaseTarget['provider'];
  /** Parameters are written `?` on both drivers. */
  rows<T>(sql: string, params?: unknown[]): Promise<T[]>;
  run(sql: string, params?: unknown[]): Promise<void>;
  /** A whole migration script, several statements. */
  script(sql: string): Promise<void>;
  close(): Promise<void>;
}

export function sqliteMigrationConnection(file: string, options: { readonly?: boolean } = {}): MigrationConnection {
  const db = new Database(file, { readonly: options.readonly ?? false, timeout: 5_000 });
  return {
    provider: 'sqlite',
    rows: async <T>(sql: string, params: unknown[] = []) => db.prepare(sql).all(...params) as T[],
    run: async (sql, params = []) => void db.prepare(sql).run(...params),
    script: async (sql) => void db.exec(sql),
    close: async () => void db.close(),
  };
}

export async function postgresMigrationConnection(url: string): Promise<MigrationConnection> {
  // Loaded here so a SQLite start never loads the PostgreSQL driver.
  const { Client } = require('pg') as typeof pg;
  const client = new Client({ connectionString: url });
  await client.connect();
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    provider: 'postgresql',
    rows: async <T>(sql: string, params: unknown[] = []) => (await client.query(numbered(sql), params)).rows as T[],
    run: async (sql, params = []) => void (await client.query(numbered(sql), params)),
    script: async (sql) => void (await client.query(sql)),
    close: () => client.end(),
  };
}
