// Prisma's `_prisma_migrations` table, read and written as `prisma migrate deploy` does, so a database keeps one
// history whichever tool applied its migrations.
import { randomUUID } from 'node:crypto';
import type { MigrationConnection } from './migration-connection.ts';
import type { MigrationFile } from './migration-files.ts';

const CREATE_TABLE = {
  sqlite: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" TEXT PRIMARY KEY NOT NULL,
    "checksum" TEXT NOT NULL,
    "finished_at" DATETIME,
    "migration_name" TEXT NOT NULL,
    "logs" TEXT,
    "rolled_back_at" DATETIME,
    "started_at" DATETIME NOT NULL DEFAULT current_timestamp,
    "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0
  )`,
  postgresql: `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id" VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum" VARCHAR(64) NOT NULL,
    "finished_at" TIMESTAMPTZ,
    "migration_name" VARCHAR(255) NOT NULL,
    "logs" TEXT,
    "rolled_back_at" TIMESTAMPTZ,
    "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`,
};

interface HistoryRow {
  migration_name: string;
  checksum: string;
  finished_at: string | Date | null;
  rolled_back_at: string | Date | null;
}

export class MigrationHistory {
  constructor(private readonly connection: MigrationConnection) {}

  async exists(): Promise<boolean> {
    const sql =
      this.connection.provider === 'sqlite'
        ? `SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_prisma_migrations'`
        : `SELECT to_regclass('_prisma_migrations') AS name`;
    const [row] = await this.connection.rows<{ name: string | null }>(sql);
    return Boolean(row?.name);
  }

  async ensureTable(): Promise<void> {
    await this.connection.run(CREATE_TABLE[this.connection.provider]);
  }

  /**
   * The names of the migrations applied, after checking the history as Prisma does: a migration that failed
   * half-way, or whose file changed after it was applied, stops the start until an operator looks at it.
   */
  async applied(files: readonly MigrationFile[]): Promise<string[]> {
    if (!(await this.exists())) return [];
    const rows = await this.connection.rows<HistoryRow>(
      'SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"',
    );
    const live = rows.filter((row) => row.rolled_back_at === null);
    const failed = live.filter((row) => row.finished_at === null).map((row) => row.migration_name);
    if (failed.length > 0) {
      throw new Error(`failed migrations: ${failed.join(', ')} (repair the database, then delete their rows)`);
    }
    const checksums = new Map(files.map((file) => [file.name, file.checksum]));
    const edited = live.filter(
      (row) => checksums.has(row.migration_name) && checksums.get(row.migration_name) !== row.checksum,
    );
    if (edited.length > 0) throw new Error(`edited migrations: ${edited.map((row) => row.migration_name).join(', ')}`);
    return live.map((row) => row.migration_name);
  }

  async started(file: MigrationFile): Promise<string> {
    const id = randomUUID();
    await this.connection.run(
      'INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, 0)',
      [id, file.checksum, file.name, this.now()],
    );
    return id;
  }

  async finished(id: string): Promise<void> {
    await this.connection.run('UPDATE "_prisma_migrations" SET finished_at = ?, applied_steps_count = 1 WHERE id = ?', [
      this.now(),
      id,
    ]);
  }

  async failed(id: string, error: Error): Promise<void> {
    await this.connection.run('UPDATE "_prisma_migrations" SET logs = ? WHERE id = ?', [error.message, id]);
  }

  // The engine writes SQLite times as RFC 3339 text with an offset.
  private now(): string | Date {
    return this.connection.provider === 'sqlite' ? new Date().toISOString().replace('Z', '+00:00') : new Date();
  }
}
