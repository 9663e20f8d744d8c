// The start-up migration runner: Prisma's history table, one application under concurrency, refusals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrateDatabase, DEFAULT_MIGRATIONS_ROOT } from '../../src/infra/database/migrate.ts';
import type { DatabaseTarget } from '../../src/infra/database/target.ts';
import {
  postgresMigrationConnection,
  sqliteMigrationConnection,
  type MigrationConnection,
} from '../../src/infra/database/migrations/migration-connection.ts';
import { freshPostgresDatabase } from '../helpers/test-app.ts';

const provider = process.env.TEST_DATABASE_URL ? 'postgresql' : 'sqlite';
let work: string;
let target: DatabaseTarget;
let drop: (() => Promise<void>) | undefined;
let migrationsRoot: string;

beforeEach(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-migrate-'));
  migrationsRoot = path.join(work, 'migrations');
  fs.cpSync(DEFAULT_MIGRATIONS_ROOT, migrationsRoot, { recursive: true });
  if (process.env.TEST_DATABASE_URL) {
    const database = await freshPostgresDatabase(process.env.TEST_DATABASE_URL, { empty: true });
    target = { provider: 'postgresql', url: database.url };
    drop = database.drop;
  } else {
    target = { provider: 'sqlite', file: path.join(work, 'anvil.db') };
  }
});

afterEach(async () => {
  await drop?.();
  drop = undefined;
  fs.rmSync(work, { recursive: true, force: true });
});

async function connect(): Promise<MigrationConnection> {
  return target.provider === 'sqlite'
    ? sqliteMigrationConnection(target.file)
    : postgresMigrationConnection(target.url);
}

async function history(): Promise<{ migration_name: string; checksum: string; finished_at: unknown }[]> {
  const connection = await connect();
  try {
    return await connection.rows(
      'SELECT migration_name, checksum, finished_at FROM "_prisma_migrations" ORDER BY migration_name',
    );
  } finally {
    await connection.close();
  }
}

function names(): string[] {
  return fs
    .readdirSync(path.join(migrationsRoot, provider))
    .filter((name) => !name.endsWith('.toml'))
    .sort();
}

test("a fresh database gets every migration, recorded in Prisma's history table with its checksum", async () => {
  expect(await migrateDatabase(target, migrationsRoot)).toEqual(names());
  const rows = await history();
  expect(rows.map((row) => row.migration_name)).toEqual(names());
  for (const row of rows) {
    expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(row.finished_at).not.toBeNull();
  }
  expect(await migrateDatabase(target, migrationsRoot)).toEqual([]);
});

test('several processes migrating one database at once apply each migration once', async () => {
  const results = await Promise.all([1, 2, 3].map(() => migrateDatabase(target, migrationsRoot)));
  expect(results.flat().sort()).toEqual(names());
  expect((await history()).length).toBe(names().length);
});

test('a migration added later is applied alone', async () => {
  await migrateDatabase(target, migrationsRoot);
  const added = path.join(migrationsRoot, provider, '29990101000000_later');
  fs.mkdirSync(added);
  fs.writeFileSync(path.join(added, 'migration.sql'), 'CREATE TABLE "Later" ("id" INTEGER PRIMARY KEY);\n');
  expect(await migrateDatabase(target, migrationsRoot)).toEqual(['29990101000000_later']);
});

test("push_in_flight marks an existing site's empty repositories, so its first start reads each once", async () => {
  const marking = names().find((name) => name.endsWith('_push_in_flight'))!;
  const held = path.join(work, marking);
  fs.renameSync(path.join(migrationsRoot, provider, marking), held);
  await migrateDatabase(target, migrationsRoot);
  const connection = await connect();
  try {
    const at = new Date().toISOString();
    await connection.run(
      'INSERT INTO "User" ("type", "name", "lowerName", "email", "loginName", "createdAt", "updatedAt") VALUES (0, ?, ?, ?, ?, ?, ?)',
      ['owner', 'owner', 'owner@example.com', 'owner', at, at],
    );
    const [{ id: ownerId }] = await connection.rows<{ id: number }>('SELECT "id" FROM "User"');
    for (const [name, isEmpty] of [
      ['empty', true],
      ['pushed', false],
    ] as const)
      await connection.run(
        'INSERT INTO "Repository" ("ownerId", "ownerName", "name", "lowerName", "isEmpty", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?, ?)',
        [ownerId, 'owner', name, name, provider === 'sqlite' ? Number(isEmpty) : isEmpty, at, at],
      );
    fs.renameSync(held, path.join(migrationsRoot, provider, marking));
    expect(await migrateDatabase(target, migrationsRoot)).toEqual([marking]);
    const marked = await connection.rows<{ name: string }>(
      'SELECT r."name" FROM "PushInFlight" p JOIN "Repository" r ON r."id" = p."repoId"',
    );
    expect(marked.map((row) => row.name)).toEqual(['empty']);
  } finally {
    await connection.close();
  }
});

test('an applied migration whose file changed stops the start', async () => {
  await migrateDatabase(target, migrationsRoot);
  const first = path.join(migrationsRoot, provider, names()[0], 'migration.sql');
  fs.appendFileSync(first, '\n-- edited\n');
  await expect(migrateDatabase(target, migrationsRoot)).rejects.toThrow(/edited migrations: .*init/);
});

test('a migration that fails leaves the database as it was (PostgreSQL) or marked failed (SQLite), and stops later starts', async () => {
  await migrateDatabase(target, migrationsRoot);
  const broken = path.join(migrationsRoot, provider, '29990101000000_broken');
  fs.mkdirSync(broken);
  fs.writeFileSync(path.join(broken, 'migration.sql'), 'CREATE TABLE "Half" ("id" INTEGER PRIMARY KEY);\nNOT SQL;\n');
  await expect(migrateDatabase(target, migrationsRoot)).rejects.toThrow();
  if (provider === 'postgresql') {
    expect((await history()).map((row) => row.migration_name)).not.toContain('29990101000000_broken');
    fs.writeFileSync(path.join(broken, 'migration.sql'), 'CREATE TABLE "Half" ("id" INTEGER PRIMARY KEY);\n');
    expect(await migrateDatabase(target, migrationsRoot)).toEqual(['29990101000000_broken']);
  } else {
    await expect(migrateDatabase(target, migrationsRoot)).rejects.toThrow(/failed migrations: 29990101000000_broken/);
  }
});
