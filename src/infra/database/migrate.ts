// Applies the committed migrations (prisma/migrations/<provider>/) at start with umzug, keeping Prisma's own
// `_prisma_migrations` history. The scripts are written by `npm run migration:create` (Prisma's schema engine,
// a development tool only); applying them needs no engine.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type * as UmzugModule from 'umzug';
import { projectPath } from '../../lib/project-root.ts';
import {
  type MigrationConnection,
  postgresMigrationConnection,
  sqliteMigrationConnection,
} from './migrations/migration-connection.ts';
import { type MigrationFile, readMigrationFiles } from './migrations/migration-files.ts';
import { MigrationHistory } from './migrations/migration-history.ts';
import type { DatabaseTarget } from './target.ts';

export const DEFAULT_MIGRATIONS_ROOT = projectPath('prisma', 'migrations');
const SQLITE_LOCK_WAIT_MS = 120_000;
// Prisma's advisory lock key, so Anvil and `prisma migrate deploy` never apply at the same time.
const POSTGRES_MIGRATION_LOCK = 72707369;

// Returns the names of the migrations it applied, in order; an up-to-date database gives [].
export async function migrateDatabase(
  target: DatabaseTarget,
  migrationsRoot = DEFAULT_MIGRATIONS_ROOT,
): Promise<string[]> {
  const files = readMigrationFiles(path.join(path.resolve(migrationsRoot), target.provider));
  if (target.provider === 'postgresql') {
    const connection = await postgresMigrationConnection(target.url);
    try {
      await connection.run(`SELECT pg_advisory_lock(${POSTGRES_MIGRATION_LOCK})`);
      return await applyPending(connection, files);
    } finally {
      await connection.close(); // ending the session releases the lock
    }
  }
  const file = path.resolve(target.file);
  // Checked read-only first: a start beside a running server must not wait for a write lock to learn nothing is due.
  if (fs.existsSync(file) && (await pendingOn(sqliteMigrationConnection(file, { readonly: true }), files)) === 0)
    return [];
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withSqliteLock(`${file}.migrate-lock`, () => applyPending(sqliteMigrationConnection(file), files, true));
}

async function pendingOn(connection: MigrationConnection, files: readonly MigrationFile[]): Promise<number> {
  try {
    const applied = new Set(await new MigrationHistory(connection).applied(files));
    return files.filter((file) => !applied.has(file.name)).length;
  } finally {
    await connection.close();
  }
}

async function applyPending(
  connection: MigrationConnection,
  files: readonly MigrationFile[],
  closeAfter = false,
): Promise<string[]> {
  try {
    const history = new MigrationHistory(connection);
    const applied = new Set(await history.applied(files));
    if (files.every((file) => applied.has(file.name))) return [];
    await history.ensureTable();
    // Loaded only when something is due: umzug's module graph costs about 150 ms of start time.
    const { Umzug } = require('umzug') as typeof UmzugModule;
    const umzug = new Umzug({
      migrations: files.map((file) => ({ name: file.name, up: () => applyOne(connection, history, file) })),
      context: {},
      // applyOne records each migration itself, in the script's own transaction where the database allows it.
      storage: {
        executed: () => history.applied(files),
        logMigration: async () => undefined,
        unlogMigration: async () => undefined,
      },
      logger: undefined,
    });
    return (await umzug.up()).map((migration) => migration.name);
  } finally {
    if (closeAfter) await connection.close();
  }
}

async function applyOne(
  connection: MigrationConnection,
  history: MigrationHistory,
  file: MigrationFile,
): Promise<void> {
  if (connection.provider === 'postgresql') {
    // PostgreSQL's DDL is transactional: the script and its history row commit together or not at all.
    await connection.run('BEGIN');
    try {
      const id = await history.started(file);
      await connection.script(file.sql);
      await history.finished(id);
      await connection.run('COMMIT');
    } catch (error) {
      await connection.run('ROLLBACK');
      throw error;
    }
    return;
  }
  // SQLite scripts turn foreign keys off to redefine tables, which SQLite ignores inside a transaction, so a
  // script runs on its own as Prisma runs it, and a failure is left in the history for an operator.
  const id = await history.started(file);
  try {
    await connection.script(file.sql);
  } catch (error) {
    await history.failed(id, error as Error);
    throw error;
  }
  await history.finished(id);
}

// An exclusive transaction on a side database is a cross-process lock the OS releases if the holder dies.
// Polled without a busy timeout so waiting does not block the event loop.
async function withSqliteLock<T>(lockFile: string, fn: () => Promise<T>): Promise<T> {
  const lock = new Database(lockFile, { timeout: 0 });
  try {
    const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
    for (;;) {
      try {
        lock.exec('BEGIN EXCLUSIVE');
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw error;
        await sleep(20 + Math.random() * 30);
      }
    }
    try {
      return await fn();
    } finally {
      lock.exec('ROLLBACK');
    }
  } finally {
    lock.close();
  }
}
