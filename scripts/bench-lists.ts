// Bench rows for lists at 100,000 rows (BENCH_ONLY=lists100k): every list's first and last page at BENCH_LISTS_SMALL
// rows and again after the same database grew to BENCH_LISTS_LARGE, on SQLite or on the PostgreSQL server a
// database URL names (a throwaway database is made there and dropped). Rows are seeded in bulk (bench-seed-bulk.ts);
// requests are sequential, so the p50 is one request's latency.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { migrateDatabase } from '../src/infra/database/migrate.ts';
import { type BulkDatabase, postgresBulk, seedListOwners, seedLists, sqliteBulk } from './bench-seed-bulk.ts';
import { sampleRss } from './bench-rss.ts';

const root = path.resolve(__dirname, '..');
const SMALL = Number(process.env.BENCH_LISTS_SMALL ?? 1_000);
const LARGE = Number(process.env.BENCH_LISTS_LARGE ?? 100_000);
const SAMPLES = Number(process.env.BENCH_LISTS_SAMPLES ?? 100);
const LIMIT = 50;
const RATIO_GOAL = 1.5;

export interface ListGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

interface ListTarget {
  name: string;
  path: string;
  reader: 'admin' | 'reader';
  /** A p50 bound at the large size, beside the ratio. */
  p50Goal?: number;
}

function targets(orgName: string): ListTarget[] {
  return [
    { name: 'admin users', path: '/api/v1/admin/users', reader: 'admin' },
    { name: 'admin orgs', path: '/api/v1/admin/orgs', reader: 'admin' },
    { name: 'org repos', path: `/api/v1/orgs/${orgName}/repos`, reader: 'reader' },
    { name: 'repo search', path: '/api/v1/repos/search', reader: 'reader' },
    { name: 'issue search', path: '/api/v1/repos/issues/search?state=all', reader: 'reader', p50Goal: 20 },
    { name: 'notifications', path: '/api/v1/notifications?all=true', reader: 'reader', p50Goal: 10 },
  ];
}

interface PageTiming {
  p50: number;
  p99: number;
  total: number;
}

function withPage(url: string, page: number): string {
  return `${url}${url.includes('?') ? '&' : '?'}limit=${LIMIT}&page=${page}`;
}

/** A GET, tried once more when the connection fails (a pooled socket to the server process stopped before). */
async function get(url: string, headers: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, { headers });
  } catch {
    return fetch(url, { headers });
  }
}

async function timePage(url: string, headers: Record<string, string>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < 5; i++) {
    const res = await get(url, headers);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  }
  const times: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const started = performance.now();
    await (await get(url, headers)).arrayBuffer();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

/** The first and the last page of a list, and its X-Total-Count. */
async function timeList(base: string, target: ListTarget, token: string): Promise<[PageTiming, PageTiming]> {
  const headers = { Authorization: `token ${token}` };
  const probe = await get(withPage(base + target.path, 1), headers);
  await probe.arrayBuffer();
  const total = Number(probe.headers.get('x-total-count'));
  const lastPage = Math.max(1, Math.ceil(total / LIMIT));
  const first = await timePage(withPage(base + target.path, 1), headers);
  const last = await timePage(withPage(base + target.path, lastPage), headers);
  return [
    { ...first, total },
    { ...last, total },
  ];
}

async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** A fresh database: a SQLite file in `dataDir`, or a new database on the server `databaseUrl` names. */
async function freshDatabase(
  dataDir: string,
  databaseUrl: string | undefined,
): Promise<{ env: NodeJS.ProcessEnv; open: () => Promise<BulkDatabase>; drop: () => Promise<void> }> {
  if (!databaseUrl) {
    const file = path.join(dataDir, 'anvil.db');
    await migrateDatabase({ provider: 'sqlite', file });
    return { env: {}, open: async () => sqliteBulk(file), drop: async () => {} };
  }
  const name = `anvil_bench_lists_${process.pid}_${Date.now()}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  await migrateDatabase({ provider: 'postgresql', url: url.toString() });
  return {
    env: { ANVIL__database__URL: url.toString() },
    open: () => postgresBulk(url.toString()),
    drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/** Starts a server with `env`: `npm start`'s way when `npm run bench` runs the lists, plain node when run alone. */
export type StartServer = (env: NodeJS.ProcessEnv) => ChildProcess;

const startPlain: StartServer = (env) =>
  spawn(process.execPath, [path.join(root, 'scripts/start.cjs')], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });

function serverEnv(dataDir: string, port: number, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    ANVIL_DATA_DIR: dataDir,
    PORT: String(port),
    ANVIL__server__HTTP_ADDR: '127.0.0.1',
    ANVIL__log__LEVEL: 'warn',
    ANVIL__cron__ENABLED: 'false',
    // The federation key worker would spend the run making RSA key pairs for 200,000 seeded users, and each one it
    // stores is a commit that makes the kept counts count again.
    ANVIL__federation__ENABLED: 'false',
  };
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  server.kill();
  await new Promise((resolve) => server.once('exit', resolve));
}

/** The rows, and the highest RSS of the servers that answered them. */
export interface ListsRun {
  rows: ListGoalRow[];
  peakRss: number;
}

/** Every list's first and last page at SMALL and at LARGE rows, on SQLite or on the PostgreSQL of `databaseUrl`. */
export async function benchLists100k(databaseUrl?: string, startServer = startPlain): Promise<ListsRun> {
  const label = databaseUrl ? 'PostgreSQL' : 'SQLite';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-lists-'));
  const database = await freshDatabase(dataDir, databaseUrl);
  const port = 41_000 + Math.floor(Math.random() * 1000);
  let server: ChildProcess | undefined;
  let rss: ReturnType<typeof sampleRss> | undefined;
  let peakRss = 0;
  const start = () => {
    server = startServer(serverEnv(dataDir, port, database.env));
    rss = sampleRss(server.pid!);
    return server;
  };
  const stop = async () => {
    rss?.stop();
    peakRss = Math.max(peakRss, rss?.peak() ?? 0);
    if (server) await stopServer(server);
  };
  let db: BulkDatabase | undefined;
  const rows: ListGoalRow[] = [];
  try {
    db = await database.open();
    const owners = await seedListOwners(db);
    const smallSeconds = await seedLists(db, owners, 0, SMALL);
    start();
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/healthz`);
    const tokenOf = (target: ListTarget) => (target.reader === 'admin' ? owners.adminToken : owners.readerToken);
    const small = new Map<string, [PageTiming, PageTiming]>();
    for (const target of targets(owners.orgName)) small.set(target.name, await timeList(base, target, tokenOf(target)));
    // The server is started again on the grown database: a fresh process, and no keep-alive socket idle through seeding.
    await stop();
    const largeSeconds = await seedLists(db, owners, SMALL, LARGE);
    await db.close();
    db = undefined;
    start();
    await waitFor(`${base}/api/healthz`);
    console.log(
      `\nlists on ${label}: seeded ${SMALL} rows a list in ${smallSeconds.toFixed(1)} s, grown to ${LARGE} in ${largeSeconds.toFixed(0)} s` +
        ` (notifications: ${LARGE} threads of the reader among ${LARGE * 10}); ${SAMPLES} sequential requests a page, limit ${LIMIT}; load average ${os.loadavg()[0].toFixed(1)}`,
    );
    console.log(
      `| list (${label}) | page | rows | p50 ms at ${SMALL} | p50 ms | p99 ms | ratio | goal |\n|---|---|---|---|---|---|---|---|`,
    );
    for (const target of targets(owners.orgName)) {
      const large = await timeList(base, target, tokenOf(target));
      const before = small.get(target.name)!;
      ['first', 'last'].forEach((page, i) => {
        const ratio = large[i].p50 / before[i].p50;
        const p50Met = target.p50Goal === undefined || large[i].p50 < target.p50Goal;
        const met = ratio <= RATIO_GOAL && p50Met;
        const goal = `ratio ≤ ${RATIO_GOAL}${target.p50Goal !== undefined ? `, p50 < ${target.p50Goal} ms` : ''}`;
        console.log(
          `| ${target.name} | ${page} | ${large[i].total} | ${before[i].p50.toFixed(2)} | ${large[i].p50.toFixed(2)} | ${large[i].p99.toFixed(2)} | ${ratio.toFixed(2)} | ${goal}: ${met ? 'met' : 'below'} |`,
        );
        rows.push({
          name: `${label}: ${target.name}, ${page} page at ${large[i].total} rows`,
          measured: `p50 ${large[i].p50.toFixed(2)} ms, ×${ratio.toFixed(2)} of ${before[i].total} rows`,
          goal,
          met,
        });
      });
    }
  } finally {
    await db?.close().catch(() => undefined);
    await stop();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return { rows, peakRss };
}

// Run alone: `npx tsx scripts/bench-lists.ts [postgresql://…]`.
if (require.main === module) {
  benchLists100k(process.argv[2]).then(
    ({ rows }) => {
      console.log('\n| measure | measured | goal | |\n|---|---|---|---|');
      for (const row of rows)
        console.log(`| ${row.name} | ${row.measured} | ${row.goal} | ${row.met ? 'met' : 'below'} |`);
    },
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
