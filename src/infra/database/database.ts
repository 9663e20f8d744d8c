// Opens the database named by the settings: SQLite (default) or PostgreSQL. Prisma serves writes and rich
// queries; the lookups every request makes go through prepared statements (hot-queries.ts).
import fs from 'node:fs';
import path from 'node:path';
import { makePrivateDirectory, PRIVATE_FILE_MODE } from '../private-files.ts';
import BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { Settings } from '../../config/settings.ts';
import type { PrismaClient } from '../../db/prisma.ts';
import type { DatabaseTarget } from './target.ts';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { CachedStatements } from './sqlite-statement-cache.ts';
import { gateTransactions } from './sqlite-transaction-gate.ts';
import { waitForLocksOnTimers } from './sqlite-busy-wait.ts';
import { type HotQueries, postgresHotQueries, sqliteHotQueries } from '../../db/hot-queries.ts';

export interface Database {
  readonly provider: DatabaseTarget['provider'];
  readonly prisma: PrismaClient;
  readonly hot: HotQueries;
  close(): Promise<void>;
}

// Any other error format makes Prisma capture a stack trace (`new Error()`) on every query, only to point a failed
// query's message at the calling line; errors are told apart by their codes here, and the message keeps the cause.
const CLIENT_OPTIONS = { errorFormat: 'minimal' } as const;

/** How long a statement waits for another connection's write lock before it fails. */
const SQLITE_LOCK_TIMEOUT_MS = 10_000;

export function databaseTarget(settings: Settings): DatabaseTarget {
  return settings.database.URL
    ? { provider: 'postgresql', url: settings.database.URL }
    : { provider: 'sqlite', file: settings.database.SQLITE_PATH };
}

export function openDatabase(target: DatabaseTarget): Database {
  return target.provider === 'sqlite' ? openSqlite(target.file) : openPostgres(target.url);
}

function openSqlite(file: string): Database {
  makePrivateDirectory(path.dirname(file));
  const connection = new BetterSqlite3(file, { timeout: SQLITE_LOCK_TIMEOUT_MS });
  // A database an earlier version left readable to all becomes private; SQLite gives -wal and -shm its mode.
  fs.chmodSync(file, PRIVATE_FILE_MODE);
  connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  const { PrismaClient } = require('../../../generated/prisma/sqlite/client.ts');
  const prisma: PrismaClient = new PrismaClient({ adapter: sqliteAdapter(file), ...CLIENT_OPTIONS });
  return {
    provider: 'sqlite',
    prisma,
    hot: sqliteHotQueries(connection),
    async close() {
      await prisma.$disconnect();
      connection.close();
    },
  };
}

/**
 * Prisma's better-sqlite3 adapter, its connection keeping statements prepared (sqlite-statement-cache.ts), its
 * queries outside a transaction kept out of the open one (sqlite-transaction-gate.ts), and its waits for locks made
 * on timers rather than in SQLite (sqlite-busy-wait.ts).
 */
function sqliteAdapter(file: string): SqlMigrationAwareDriverAdapterFactory {
  const { PrismaBetterSqlite3 } =
    require('@prisma/adapter-better-sqlite3') as typeof import('@prisma/adapter-better-sqlite3');
  const factory = new PrismaBetterSqlite3({ url: `file:${file}`, timeout: 0 });
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    async connect() {
      const connectCached = async () => {
        const adapter = await factory.connect();
        const holder = adapter as unknown as { client?: BetterSqlite3.Database | CachedStatements };
        if (!(holder.client instanceof BetterSqlite3))
          throw new Error('the SQLite adapter keeps its connection elsewhere');
        holder.client = new CachedStatements(holder.client);
        return adapter;
      };
      return waitForLocksOnTimers(gateTransactions(await connectCached(), connectCached), SQLITE_LOCK_TIMEOUT_MS);
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  };
}

function openPostgres(url: string): Database {
  // Loaded here so a SQLite start never loads the PostgreSQL driver.
  const { Pool, types } = require('pg') as typeof pg;
  // `timestamp without time zone` values are written in UTC by Prisma; read them back as UTC.
  types.setTypeParser(1114, (value) => new Date(value.replace(' ', 'T') + 'Z'));
  const pool = new Pool({ connectionString: url, max: 10 });
  // An idle connection that dies (server restart) must not crash the process.
  pool.on('error', () => undefined);
  const { PrismaPg } = require('@prisma/adapter-pg');
  const { PrismaClient } = require('../../../generated/prisma/postgresql/client.ts');
  // [database] SCHEMA travels in the URL as search_path; Prisma names the schema in its queries itself.
  const schema = /search_path=([^&\s]+)/.exec(decodeURIComponent(new URL(url).searchParams.get('options') ?? ''))?.[1];
  const prisma: PrismaClient = new PrismaClient({
    adapter: new PrismaPg(pool, schema ? { schema } : undefined),
    ...CLIENT_OPTIONS,
  });
  return {
    provider: 'postgresql',
    prisma,
    hot: postgresHotQueries(pool),
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
