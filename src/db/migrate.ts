// Applies the committed migrations (prisma/migrations/<provider>/) at startup, without the Prisma CLI.
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import type * as SchemaEngineModule from './schema-engine.ts';
import type { DatabaseTarget } from './target.ts';
import { projectPath } from '../project-root.ts';

export const DEFAULT_MIGRATIONS_ROOT = projectPath('prisma', 'migrations');
export const LOCKFILE_NAME = 'migration_lock.toml';
const MIGRATION_FILE = 'migration.sql';
const SQLITE_LOCK_WAIT_MS = 120_000;

// Reads one provider's migrations the way the Prisma CLI does; the engine itself has no file access.
export function readMigrationList(dir: string): MigrationList {
  const lockPath = path.join(dir, LOCKFILE_NAME);
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  const migrationDirectories = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const file = path.join(dir, name, MIGRATION_FILE);
      let content: MigrationList['migrationDirectories'][number]['migrationFile']['content'];
      try {
        content = { tag: 'ok', value: fs.readFileSync(file, 'utf8') };
      } catch (error) {
        content = { tag: 'error', value: (error as Error).message };
      }
      return { path: name, migrationFile: { path: MIGRATION_FILE, content } };
    });
  return {
    baseDir: dir,
    lockfile: { path: LOCKFILE_NAME, content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

function migrationsFor(target: DatabaseTarget, migrationsRoot: string): MigrationList {
  const dir = path.join(path.resolve(migrationsRoot), target.provider);
  const list = readMigrationList(dir);
  if (list.migrationDirectories.length === 0) throw new Error(`no migrations found in ${dir}`);
  return list;
}

/** The schema engine (WebAssembly, PostgreSQL driver) is loaded only when a start has migrations to apply or check. */
function schemaEngine(): typeof SchemaEngineModule {
  return require('./schema-engine.ts') as typeof SchemaEngineModule;
}

// Returns the names of the migrations it applied, in order; an up-to-date database gives [].
export async function migrateDatabase(target: DatabaseTarget, migrationsRoot = DEFAULT_MIGRATIONS_ROOT): Promise<string[]> {
  const migrationsList = migrationsFor(target, migrationsRoot);
  const apply = () => {
    const { NO_FILTERS, withSchemaEngine } = schemaEngine();
    return withSchemaEngine(target, undefined, async (engine) => {
      const { appliedMigrationNames } = await engine.applyMigrations({ migrationsList, filters: NO_FILTERS });
      return appliedMigrationNames;
    });
  };
  // PostgreSQL: the engine holds an advisory lock while applying. SQLite has none, so concurrent callers queue here.
  if (target.provider === 'postgresql') return apply();
  const file = path.resolve(target.file);
  if (sqliteIsUpToDate(file, migrationsList)) return [];
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withSqliteLock(`${file}.migrate-lock`, apply);
}

/**
 * Whether every migration on disk is recorded as applied. Lets a start (or the CLI next to a running server)
 * skip the schema engine, which needs a write lock even when there is nothing to do.
 */
function sqliteIsUpToDate(file: string, migrationsList: MigrationList): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new Database(file, { readonly: true, timeout: 5_000 });
  try {
    const table = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`).get();
    if (!table) return false;
    const applied = new Set(
      (db.prepare('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL').all() as { migration_name: string }[])
        .map((row) => row.migration_name),
    );
    return migrationsList.migrationDirectories.every((migration) => applied.has(migration.path));
  } finally {
    db.close();
  }
}

// Migrations present on disk but not yet applied; throws if the database history has diverged from the files.
export async function pendingMigrations(target: DatabaseTarget, migrationsRoot = DEFAULT_MIGRATIONS_ROOT): Promise<string[]> {
  const migrationsList = migrationsFor(target, migrationsRoot);
  const all = migrationsList.migrationDirectories.map((m) => m.path);
  // Opening a missing SQLite file would create it.
  if (target.provider === 'sqlite' && !fs.existsSync(target.file)) return all;
  const { NO_FILTERS, withSchemaEngine } = schemaEngine();
  const result = await withSchemaEngine(target, undefined, (engine) =>
    engine.diagnoseMigrationHistory({ migrationsList, optInToShadowDatabase: false, filters: NO_FILTERS }),
  );
  if (result.failedMigrationNames.length > 0) throw new Error(`failed migrations: ${result.failedMigrationNames.join(', ')}`);
  if (result.editedMigrationNames.length > 0) throw new Error(`edited migrations: ${result.editedMigrationNames.join(', ')}`);
  const history = result.history;
  if (history === null) return [];
  if (history.diagnostic === 'databaseIsBehind') return history.unappliedMigrationNames;
  throw new Error(`migration history does not match ${migrationsList.baseDir}: ${history.diagnostic}`);
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
