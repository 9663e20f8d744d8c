// npm run migration:create -- <name>
// Writes prisma/migrations/<provider>/<timestamp>_<name>/migration.sql for SQLite and PostgreSQL by diffing each
// provider's existing migrations (replayed on a shadow database) against prisma/schema.prisma.
// PostgreSQL needs a server that allows CREATE DATABASE: DATABASE_URL when it is a postgres URL, else a throwaway
// cluster from scripts/pg-cluster.sh.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { MigrationList } from '@prisma/schema-engine-wasm';
import { DEFAULT_MIGRATIONS_ROOT } from '../src/infra/database/migrate.ts';
import { NO_FILTERS, withSchemaEngine } from './schema-engine.ts';
import type { DatabaseTarget } from '../src/infra/database/target.ts';
import { PROVIDERS, schemaFor } from './prisma-generate.ts';

const root = path.resolve(__dirname, '..');
const clusterScript = path.join(__dirname, 'pg-cluster.sh');

type Provider = (typeof PROVIDERS)[number];
const LOCKFILE_NAME = 'migration_lock.toml';

// One provider's migrations as the engine takes them: it has no file access of its own.
function readMigrationList(dir: string): MigrationList {
  const lockPath = path.join(dir, LOCKFILE_NAME);
  const entries = fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [];
  const migrationDirectories = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      path: name,
      migrationFile: {
        path: 'migration.sql',
        content: { tag: 'ok' as const, value: fs.readFileSync(path.join(dir, name, 'migration.sql'), 'utf8') },
      },
    }));
  return {
    baseDir: dir,
    lockfile: { path: LOCKFILE_NAME, content: fs.existsSync(lockPath) ? fs.readFileSync(lockPath, 'utf8') : null },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

function migrationName(raw: string | undefined): string {
  const name = (raw ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) {
    console.error('usage: npm run migration:create -- <name>');
    process.exit(2);
  }
  return name;
}

// Same shape as Prisma's names (UTC, to the second), so the directories sort in creation order.
function timestamp(date = new Date()): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

async function diffProvider(
  provider: Provider,
  target: DatabaseTarget,
  schemaText: string,
): Promise<string | undefined> {
  const schema = schemaFor(provider, schemaText);
  const migrations = readMigrationList(path.join(DEFAULT_MIGRATIONS_ROOT, provider));
  // Diffing from an empty history (not from `empty`) keeps PostgreSQL's first script free of CREATE SCHEMA "public",
  // which would need CREATE on the database even though the schema exists.
  migrations.lockfile.content ??= lockfileText(provider);
  const from = { tag: 'migrations' as const, ...migrations };
  const result = await withSchemaEngine(target, schema, (engine) =>
    engine.diff({
      from,
      to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: schema }] },
      script: true,
      exitCode: true,
      filters: NO_FILTERS,
    }),
  );
  // With exitCode set the engine answers 2 when there is something to migrate.
  return result.exitCode === 2 && result.stdout ? result.stdout : undefined;
}

function lockfileText(provider: Provider): string {
  return `# Written by scripts/migration-create.ts; the engine checks the provider.\nprovider = "${provider}"\n`;
}

// Runs fn against DATABASE_URL's server, or a throwaway cluster that is stopped and removed afterwards.
async function withPostgres<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const configured = process.env.DATABASE_URL;
  if (configured && /^postgres(ql)?:\/\//.test(configured)) return fn(configured);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-pg-'));
  const cleanup = () => {
    try {
      execFileSync('bash', [clusterScript, 'stop', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const onSignal = () => {
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    const output = execFileSync('bash', [clusterScript, 'start', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const url = output.trim().split('\n').pop() ?? '';
    return await fn(url);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    cleanup();
  }
}

async function main(): Promise<void> {
  const name = migrationName(process.argv[2]);
  const schemaText = fs.readFileSync(path.join(root, 'prisma', 'schema.prisma'), 'utf8');

  // Both diffs are computed before anything is written, so a failure leaves no half-made migration.
  const scripts = new Map<Provider, string>();
  const sqlite = await diffProvider('sqlite', { provider: 'sqlite', file: ':memory:' }, schemaText);
  if (sqlite) scripts.set('sqlite', sqlite);
  const postgres = await withPostgres((url) => diffProvider('postgresql', { provider: 'postgresql', url }, schemaText));
  if (postgres) scripts.set('postgresql', postgres);

  if (scripts.size === 0) {
    console.log('no changes');
    return;
  }
  const dirName = `${timestamp()}_${name}`;
  for (const [provider, sql] of scripts) {
    const providerDir = path.join(DEFAULT_MIGRATIONS_ROOT, provider);
    fs.mkdirSync(path.join(providerDir, dirName), { recursive: true });
    fs.writeFileSync(path.join(providerDir, dirName, 'migration.sql'), sql);
    const lockPath = path.join(providerDir, LOCKFILE_NAME);
    if (!fs.existsSync(lockPath)) {
      fs.writeFileSync(lockPath, lockfileText(provider));
    }
    console.log(`wrote ${path.relative(root, path.join(providerDir, dirName, 'migration.sql'))}`);
  }
  for (const provider of PROVIDERS) {
    if (!scripts.has(provider)) console.log(`${provider}: no changes`);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
