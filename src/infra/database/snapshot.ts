// A consistent copy of the whole database while the server keeps writing, and its way back into an empty one.
// SQLite: the online backup API (a copy that a concurrent write restarts, so it is never torn). PostgreSQL:
// pg_dump's custom format, taken inside one repeatable-read transaction, restored by pg_restore in one
// transaction.
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from './target.ts';
import { runPostgresTool } from './postgres-tools.ts';

export async function snapshotDatabase(target: DatabaseTarget, file: string): Promise<void> {
  if (target.provider === 'postgresql') {
    await runPostgresTool(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`],
      target.url,
    );
    return;
  }
  if (!fs.existsSync(target.file)) throw new Error(`there is no database at ${target.file}`);
  const source = new BetterSqlite3(target.file, { readonly: true, fileMustExist: true, timeout: 10_000 });
  try {
    // After a first small step the rest goes in one: a write between steps restarts the copy, so fewer steps
    // finish sooner under a steady stream of writes.
    await source.backup(file, { progress: ({ totalPages }) => totalPages + 1 });
  } finally {
    source.close();
  }
  checkSqliteIntegrity(file);
}

function checkSqliteIntegrity(file: string): void {
  const copy = new BetterSqlite3(file, { fileMustExist: true });
  try {
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`the database copy fails its integrity check: ${String(result)}`);
  } finally {
    copy.close();
  }
}

/** Why the target cannot take a restored database, or null when it is empty. */
export async function databaseNotEmpty(target: DatabaseTarget): Promise<string | null> {
  if (target.provider === 'sqlite') {
    return fs.existsSync(target.file) ? `the database file ${target.file} exists` : null;
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>(
      `SELECT count(*) AS count FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    const tables = Number(rows[0].count);
    return tables > 0 ? `the database ${new URL(target.url).pathname.slice(1)} already has ${tables} tables` : null;
  } finally {
    await client.end();
  }
}

/** Puts a snapshot back into an empty target (databaseNotEmpty said so). */
export async function restoreDatabase(target: DatabaseTarget, file: string): Promise<void> {
  if (target.provider === 'postgresql') {
    await runPostgresTool(
      'pg_restore',
      ['--no-owner', '--no-privileges', '--single-transaction', '--exit-on-error', file],
      target.url,
    );
    return;
  }
  checkSqliteIntegrity(file);
  fs.mkdirSync(path.dirname(target.file), { recursive: true });
  fs.copyFileSync(file, target.file, fs.constants.COPYFILE_EXCL);
}
