// One migrated database per test run, copied for each test file: a SQLite file copy, or PostgreSQL's
// CREATE DATABASE … TEMPLATE. Migrating afresh for every file cost a third of a second or more each.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { DEFAULT_MIGRATIONS_ROOT, migrateDatabase } from '../../src/infra/database/migrate.ts';

const SQLITE_TEMPLATE_ENV = 'ANVIL_TEST_SQLITE_TEMPLATE';
const POSTGRES_TEMPLATE_ENV = 'ANVIL_TEST_POSTGRES_TEMPLATE';

/** Named by the migrations it holds, so a template left by an earlier run is reused only when still right. */
function migrationsDigest(provider: string): string {
  const dir = path.join(DEFAULT_MIGRATIONS_ROOT, provider);
  const hash = createHash('sha256');
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name, 'migration.sql');
    if (fs.existsSync(file)) hash.update(name).update(fs.readFileSync(file));
  }
  return hash.digest('hex').slice(0, 12);
}

function withDatabase(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Migrates the template for this run and names it in the environment the test workers inherit. A PostgreSQL
 * template is built under a temporary name and renamed when complete, so runs side by side never copy a
 * half-migrated one.
 */
export async function prepareTemplateDatabase(): Promise<void> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (!baseUrl) {
    const file = path.join(os.tmpdir(), `anvil-test-template-${migrationsDigest('sqlite')}.db`);
    if (!fs.existsSync(file)) {
      const building = `${file}.${randomBytes(4).toString('hex')}`;
      await migrateDatabase({ provider: 'sqlite', file: building });
      fs.renameSync(building, file);
    }
    process.env[SQLITE_TEMPLATE_ENV] = file;
    return;
  }
  const name = `anvil_template_${migrationsDigest('postgresql')}`;
  const exists = await onServer(baseUrl, async (client) => {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return (found.rowCount ?? 0) > 0;
  });
  if (!exists) {
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await onServer(baseUrl, (client) => client.query(`CREATE DATABASE ${building}`));
    await migrateDatabase({ provider: 'postgresql', url: withDatabase(baseUrl, building) });
    await onServer(baseUrl, async (client) => {
      try {
        await client.query(`ALTER DATABASE ${building} RENAME TO ${name}`);
      } catch {
        await client.query(`DROP DATABASE IF EXISTS ${building} WITH (FORCE)`); // another run published it first
      }
    });
  }
  process.env[POSTGRES_TEMPLATE_ENV] = name;
}

/** Places a migrated SQLite database at `file`, when this run has a template. */
export function copySqliteTemplate(file: string): void {
  const template = process.env[SQLITE_TEMPLATE_ENV];
  if (!template) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(template, file);
}

/**
 * A new database on the server of `baseUrl`, and how to drop it: a copy of this run's migrated template, or empty
 * when asked (or when the run has none).
 */
export async function freshPostgresDatabase(
  baseUrl: string,
  options: { empty?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `anvil_test_${randomBytes(6).toString('hex')}`;
  const template = options.empty ? undefined : process.env[POSTGRES_TEMPLATE_ENV];
  await onServer(baseUrl, (client) =>
    client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`),
  );
  return {
    url: withDatabase(baseUrl, name),
    drop: () =>
      onServer(baseUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
