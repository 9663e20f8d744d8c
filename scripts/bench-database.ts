// The database `npm run bench` measures on. SQLite by default; PostgreSQL when BENCH_DATABASE_URL is set (a server
// the bench makes a fresh database on, or `auto`: a throwaway cluster of scripts/pg-cluster.sh). The bench seeds
// SQLite as always, and a PostgreSQL run copies every seeded row across, ids and all, so both databases hold the same
// data. BENCH_DATABASES=sqlite,postgresql runs the bench once per database (each in its own process) and prints the
// goals side by side (`npm run bench:both`).
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { freshPostgresDatabase } from '../tests/helpers/template-database.ts';

const root = path.resolve(__dirname, '..');
const COPY_BATCH = 500;

export type BenchProvider = 'sqlite' | 'postgresql';

/** The database of this run: PostgreSQL when BENCH_DATABASE_URL is set. */
export function benchProvider(): BenchProvider {
  return process.env.BENCH_DATABASE_URL ? 'postgresql' : 'sqlite';
}

/** A PostgreSQL database for the run, and how to remove it (and the cluster, when the bench started one). */
export async function benchPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const given = process.env.BENCH_DATABASE_URL!;
  if (given !== 'auto') return freshPostgresDatabase(given, { empty: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-pg-'));
  const script = path.join(root, 'scripts/pg-cluster.sh');
  const url = execFileSync('bash', [script, 'start', dir], { encoding: 'utf8' }).trim().split('\n').pop()!;
  return {
    url,
    drop: async () => {
      execFileSync('bash', [script, 'stop', dir], { stdio: 'ignore' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Every row of the seeded SQLite database into the migrated PostgreSQL one, with the same ids; the sequences then
 * continue after them. Foreign keys are not checked while copying (the rows are consistent in SQLite).
 */
export async function copySeedToPostgres(sqliteFile: string, url: string): Promise<void> {
  const source = new BetterSqlite3(sqliteFile, { readonly: true });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = source
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_%' ESCAPE '\\'`,
      )
      .all() as Array<{ name: string }>;
    const columnTypes = async (table: string) =>
      new Map(
        (
          await client.query(
            `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1`,
            [table],
          )
        ).rows.map((row: { column_name: string; data_type: string }) => [row.column_name, row.data_type]),
      );
    await client.query('BEGIN');
    await client.query(`SET LOCAL session_replication_role = replica`);
    for (const { name } of tables) {
      const types = await columnTypes(name);
      if (types.size === 0) continue;
      const rows = source.prepare(`SELECT * FROM "${name}"`).raw(true).all() as unknown[][];
      if (rows.length === 0) continue;
      const columns = source
        .prepare(`SELECT * FROM "${name}" LIMIT 1`)
        .columns()
        .map((column) => column.name);
      const convert = columns.map((column) =>
        types.get(column) === 'boolean' ? (v: unknown) => (v === null ? null : v === 1) : (v: unknown) => v,
      );
      const list = columns.map((column) => `"${column}"`).join(', ');
      for (let start = 0; start < rows.length; start += COPY_BATCH) {
        const batch = rows.slice(start, start + COPY_BATCH);
        const values: unknown[] = [];
        const tuples = batch.map((row) => {
          const marks = row.map((value, i) => {
            values.push(convert[i](value));
            return `$${values.length}`;
          });
          return `(${marks.join(', ')})`;
        });
        await client.query(`INSERT INTO "${name}" (${list}) VALUES ${tuples.join(', ')}`, values);
      }
      if (columns.includes('id') && types.get('id') === 'integer')
        await client.query(
          `SELECT setval(pg_get_serial_sequence('"${name}"', 'id'), (SELECT MAX("id") FROM "${name}"))`,
        );
    }
    await client.query('COMMIT');
    await client.query('ANALYZE');
  } finally {
    await client.end();
    source.close();
  }
}

/** One goal row as a run prints it in its closing table. */
export interface GoalLine {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

/**
 * BENCH_DATABASES=sqlite,postgresql: the bench once per database, one after the other (each prints its own
 * output), then every goal with both measures side by side. Resolves false when BENCH_DATABASES is not set.
 */
export async function benchEachDatabase(script: string): Promise<boolean> {
  const wanted = process.env.BENCH_DATABASES?.split(',').map((name) => name.trim());
  if (!wanted) return false;
  const results = new Map<string, GoalLine[]>();
  for (const provider of wanted) {
    const goalsFile = path.join(os.tmpdir(), `anvil-bench-goals-${process.pid}-${provider}.json`);
    const env: NodeJS.ProcessEnv = { ...process.env, BENCH_GOALS_FILE: goalsFile, BENCH_DATABASES: '' };
    delete env.BENCH_DATABASES;
    if (provider === 'sqlite') delete env.BENCH_DATABASE_URL;
    else env.BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL || 'auto';
    console.log(`\n## ${provider}\n`);
    await new Promise<void>((resolve) => {
      const child = execFile(process.execPath, ['--import', 'tsx', script], { cwd: root, env, maxBuffer: 1 << 28 });
      child.stdout?.pipe(process.stdout);
      child.stderr?.pipe(process.stderr);
      child.once('exit', () => resolve());
    });
    results.set(
      provider,
      fs.existsSync(goalsFile) ? (JSON.parse(fs.readFileSync(goalsFile, 'utf8')) as GoalLine[]) : [],
    );
    fs.rmSync(goalsFile, { force: true });
  }
  const names = [...new Set([...results.values()].flatMap((lines) => lines.map((line) => line.name)))];
  console.log(
    `\nEvery goal, side by side (load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}):\n`,
  );
  console.log(`| measure | goal | ${wanted.join(' | ')} |\n|---|---|${wanted.map(() => '---|').join('')}`);
  for (const name of names) {
    const cells = wanted.map((provider) => {
      const line = results.get(provider)?.find((l) => l.name === name);
      return line ? `${line.measured} (${line.met ? 'met' : 'below'})` : '—';
    });
    // A goal that differs per database (org GET) shows each, in the order of the columns.
    const goals = new Set(wanted.map((p) => results.get(p)?.find((l) => l.name === name)?.goal).filter(Boolean));
    const goal = [...goals].join(' / ');
    console.log(`| ${name} | ${goal} | ${cells.join(' | ')} |`);
  }
  return true;
}
