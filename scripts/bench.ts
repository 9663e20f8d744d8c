// `npm run bench`: starts Anvil as `npm start` does on a fresh SQLite database seeded with BENCH_SEED users and
// organizations. Measures the cold start of `npm start` itself, beside a bare node server started the same way
// (the floor here); the server's RSS after start and 20 requests and its peak over the whole run;
// token-authenticated GETs with autocannon (a separate process) next to a bare express
// handler (requests/s, p50/p99, ratio); org GET on one process against two; token against basic password
// sign-ins (16 connections) with the server's event-loop delay, read over IPC; markdown rendering; a 200 MiB
// upload to and download from the generic package registry with the server's RSS growth; git push and clone
// against git http-backend; issue search and notifications. Ends with every goal beside its measure.
// `BENCH_ONLY=footprint|lists|orgget|scale|signin|markdown|packages|issues|git|container|npm|cargo|vagrant|debian|rpm|alt|gemcran|conda|nuget|gocomposer|chef|conan|lists100k|bot`
// (one key, or several separated by commas) runs those rows alone (footprint: cold start and RSS; lists: token
// GETs against bare express; scale: two processes; lists100k: lists at 100,000 rows; bot: the CI-bot mix, on its own
// fresh databases).
// BENCH_DATABASE_URL=postgresql://…|auto runs on PostgreSQL, BENCH_DATABASES=sqlite,postgresql on both (bench-database.ts).
// Answers asked compressed are measured with wrk when installed (scripts/bench-wrk.ts). Never fails.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { npmStartCommand } from './npm-start-command.cjs';
import { hashAccessToken, lastEight, newAccessToken } from '../src/auth/access-token.ts';
import { passwordHasher } from '../src/auth/password.ts';
import { loadSettings } from '../src/config/settings.ts';
import { migrateDatabase } from '../src/infra/database/migrate.ts';
import type { EventLoopDelay } from '../src/infra/observability/event-loop-probe.ts';
import { renderMarkup } from '../src/render/markup.ts';
import { benchBot } from './bench-bot.ts';
import { benchCargo } from './bench-cargo.ts';
import { benchConan } from './bench-conan.ts';
import { benchConda } from './bench-conda.ts';
import { benchContainer } from './bench-container.ts';
import { benchDebian } from './bench-debian.ts';
import { benchGit, GIT_GOAL } from './bench-git.ts';
import { benchIssuesAndNotifications, seedIssuesAndNotifications } from './bench-issues.ts';
import { benchLists100k } from './bench-lists.ts';
import { benchNpm } from './bench-npm.ts';
import { benchVagrant } from './bench-vagrant.ts';
import { benchRpm } from './bench-rpm.ts';
import { benchAlt } from './bench-alt.ts';
import { benchGemCran } from './bench-gemcran.ts';
import { benchNugetHelmPub } from './bench-nuget.ts';
import { benchGoComposer } from './bench-gocomposer.ts';
import { benchEachDatabase, benchPostgres, benchProvider, copySeedToPostgres } from './bench-database.ts';
import { benchChef } from './bench-chef.ts';
import { rssMiB, sampleRss } from './bench-rss.ts';
import { asksCompressed, wrk, wrkInstalled } from './bench-wrk.ts';
import { seedActorKeys } from './bench-seed-keys.ts';

const root = path.resolve(__dirname, '..');
const SEED = Number(process.env.BENCH_SEED ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const SIGN_IN_CONNECTIONS = 16;
const BENCH_PASSWORD = 'bench-password-1';
/** BENCH_ONLY's keys (comma-separated), or undefined for every row. */
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((key) => key.trim())) : undefined;
/** Whether BENCH_ONLY asks for the rows of `key` (every row when it is unset). */
const wanted = (key: string) => ONLY === undefined || ONLY.has(key);
const PACKAGE_MIB = Number(process.env.BENCH_PACKAGE_MIB ?? 200);
const PACKAGE_RSS_GOAL_MIB = 50;
/** Twice the 400 req/s the admin organization list served before it moved to prepared statements. */
const ADMIN_ORGS_RPS_GOAL = 800;
const PROVIDER = benchProvider();
/** Issue 34's goals: a token org GET against bare express per database, idle RSS, `npm start` to a first 200. */
const ORG_GET_RATIO_GOAL = { sqlite: 0.75, postgresql: 0.6 };
const IDLE_RSS_GOAL_MIB = 100;
const COLD_START_GOAL_MS = 500;
/** Rows whose bench writes into the SQLite file itself run on SQLite alone. */
const onlyOnSqlite = (key: string) => PROVIDER === 'sqlite' && wanted(key);

function seed(file: string, passwordHash: string): { token: string; orgName: string; passwordUser: string } {
  const db = new BetterSqlite3(file);
  const now = new Date().toISOString().replace('Z', '+00:00');
  const insertUser = db.prepare(
    `INSERT INTO "User" ("type", "name", "lowerName", "email", "isAdmin", "mustChangePassword", "loginName", "createdAt", "updatedAt")
     VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?)`,
  );
  const insertToken = db.prepare(
    `INSERT INTO "AccessToken" ("userId", "name", "tokenHash", "tokenLastEight", "scope", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, 'all', ?, ?)`,
  );
  const insertMember = db.prepare(`INSERT INTO "OrgUser" ("userId", "orgId", "isPublic") VALUES (?, ?, 1)`);
  let adminToken = '';
  db.transaction(() => {
    for (let i = 0; i < SEED; i++) {
      const name = `user${i}`;
      const userId = Number(
        insertUser.run(0, name, name, `${name}@example.com`, i === 0 ? 1 : 0, name, now, now).lastInsertRowid,
      );
      const token = newAccessToken();
      insertToken.run(userId, 'bench', hashAccessToken(token), lastEight(token), now, now);
      if (i === 0) adminToken = token;
      const orgName = `org${i}`;
      const orgId = Number(insertUser.run(1, orgName, orgName, '', 0, '', now, now).lastInsertRowid);
      insertMember.run(userId, orgId);
    }
  })();
  // The last user signs in with a password hashed at the default parameters.
  const passwordUser = `user${SEED - 1}`;
  db.prepare(`UPDATE "User" SET "passwordHash" = ? WHERE "lowerName" = ?`).run(passwordHash, passwordUser);
  db.close();
  return { token: adminToken, orgName: `org${Math.floor(SEED / 2)}`, passwordUser };
}

function start(script: string, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', path.join(root, script)], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

/** Anvil started the way `npm start` starts it (its environment, node options and entry from package.json), without npm around it. */
function startAnvil(env: NodeJS.ProcessEnv, nodeArgs: string[] = []): ChildProcess {
  const npmStart = npmStartCommand();
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return spawn(process.execPath, [...profile, ...nodeArgs, ...npmStart.nodeArgs, ...npmStart.args], {
    cwd: root,
    env: { ...process.env, ...npmStart.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

/** One goal of the bench and what this run measured, for the closing table. */
interface GoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}
const goals: GoalRow[] = [];

/** Median of three `npm start` runs in `cwd`, to the first 200 on /api/healthz. */
async function npmStartMs(cwd: string, port: number, env: NodeJS.ProcessEnv): Promise<number> {
  const runs: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd,
      env: { ...process.env, ...env, PORT: String(port) },
      stdio: 'ignore',
      detached: true,
    });
    try {
      await waitFor(`http://127.0.0.1:${port}/api/healthz`, 30_000, 10);
      runs.push(performance.now() - started);
    } finally {
      process.kill(-npm.pid!, 'SIGKILL');
      await new Promise((resolve) => npm.once('exit', resolve));
    }
  }
  return runs.sort((a, b) => a - b)[1];
}

/** Anvil's cold start on the seeded data directory. */
async function coldStart(dataDir: string, port: number, databaseEnv: NodeJS.ProcessEnv): Promise<number> {
  return npmStartMs(root, port, {
    ANVIL_DATA_DIR: dataDir,
    ...databaseEnv,
    ANVIL__server__HTTP_ADDR: '127.0.0.1',
    ANVIL__log__LEVEL: 'warn',
    ANVIL__cron__ENABLED: 'false',
  });
}

/** The floor of a cold start here: `npm start` of a bare node HTTP server answering 200 to everything. */
async function bareColdStart(port: number): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-bare-start-'));
  try {
    const server = "require('node:http').createServer((q, s) => s.end('ok')).listen(+process.env.PORT, '127.0.0.1')";
    fs.writeFileSync(path.join(dir, 'server.cjs'), `${server};\n`);
    const manifest = {
      name: 'bare-start',
      version: '1.0.0',
      private: true,
      scripts: { start: 'exec node server.cjs' },
    };
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify(manifest));
    return await npmStartMs(dir, port, {});
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The server's event-loop delay since the previous call (ANVIL_EVENT_LOOP_PROBE). */
function eventLoopDelay(child: ChildProcess): Promise<EventLoopDelay> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server did not report its event-loop delay')), 5000);
    child.once('message', (message: EventLoopDelay) => {
      clearTimeout(timer);
      resolve(message);
    });
    child.send({ type: 'event-loop-delay' });
  });
}

async function waitFor(url: string, timeoutMs = 30_000, pollMs = 20): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
}

function autocannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
  connections = CONNECTIONS,
): Promise<Measurement> {
  if (asksCompressed(headers) && wrkInstalled()) return wrk(url, headers, seconds, connections);
  const args = [
    '-c',
    String(connections),
    '-d',
    String(seconds),
    '-j',
    ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]),
    url,
  ];
  return new Promise((resolve, reject) => {
    execFile(
      path.join(root, 'node_modules/.bin/autocannon'),
      args,
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        const result = JSON.parse(stdout);
        resolve({
          rps: result.requests.average,
          p50: result.latency.p50,
          p99: result.latency.p99,
          non2xx: result.non2xx,
        });
      },
    );
  });
}

async function measure(
  url: string,
  headers: Record<string, string>,
  connections = CONNECTIONS,
  beforeRun?: () => Promise<unknown>,
): Promise<Measurement> {
  if (WARMUP > 0) await autocannon(url, headers, WARMUP, connections);
  await beforeRun?.();
  return autocannon(url, headers, DURATION, connections);
}

/** Token against basic password sign-ins on GET /api/v1/user, with the server's event-loop delay during each. */
async function signInRows(
  anvil: ChildProcess,
  base: string,
  credentials: Array<{ name: string; authorization: string }>,
): Promise<void> {
  console.log(
    `\n| sign-in (GET /api/v1/user, ${SIGN_IN_CONNECTIONS} connections) | req/s | p50 ms | p99 ms | event-loop delay p99 ms | max ms |`,
  );
  console.log('|---|---|---|---|---|---|');
  for (const { name, authorization } of credentials) {
    const headers = { Authorization: authorization };
    const sample = await fetch(`${base}/api/v1/user`, { headers });
    await sample.arrayBuffer();
    if (sample.status !== 200) {
      console.log(`| ${name} | answers ${sample.status}, not measured | | | | |`);
      continue;
    }
    const run = await measure(`${base}/api/v1/user`, headers, SIGN_IN_CONNECTIONS, () => eventLoopDelay(anvil));
    const delay = await eventLoopDelay(anvil);
    console.log(`| ${name} | ${run.rps.toFixed(0)} | ${run.p50} | ${run.p99} | ${delay.p99} | ${delay.max} |`);
    if (run.non2xx > 0) console.log(`  (${run.non2xx} non-2xx answers during the run)`);
  }
}

/** About 100 KB of markdown exercising what documents use: headings, lists, tables, code, links, mentions, raw HTML. */
function markdownDocument(bytes = 100 * 1024): string {
  const section = (i: number) => `## Section ${i}

Some *emphasis*, **strong text**, \`inline code\`, a [relative link](docs/page-${i}.md), https://example.com/${i} and
www.example.org/${i}, a mention of @user${i} and issue #${i}. ~~Struck~~ text with <kbd>Ctrl</kbd> and <b onclick="x()">raw HTML</b>.

- [x] done ${i}
- [ ] todo ${i}
  1. nested
  2. list

| name | value |
|:-----|------:|
| a${i} | ${i} |
| b${i} | ${i * 2} |

\`\`\`ts
const answer${i} = ${i}; // code block
\`\`\`

> quoted paragraph ${i}
> over two lines

`;
  let text = '# Benchmark document\n\n';
  for (let i = 0; text.length < bytes; i++) text += section(i);
  return text;
}

/** Renders per second of a 100 KB document: in process (parser + sanitiser) and through POST /api/v1/markdown. */
async function benchMarkdown(base: string, auth: Record<string, string>): Promise<void> {
  const text = markdownDocument();
  const noReferences = { accounts: new Map<string, string>(), issuesUrl: null };
  const rate = async (render: () => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < 5; i++) await render();
    let count = 0;
    const started = performance.now();
    while (performance.now() - started < DURATION * 1000) {
      await render();
      count++;
    }
    return count / ((performance.now() - started) / 1000);
  };
  const inProcess = await rate(async () =>
    renderMarkup({ mode: 'gfm', text, base: 'http://localhost/o/r', wiki: false }, noReferences),
  );
  const body = JSON.stringify({ Mode: 'gfm', Text: text, Context: 'o/r' });
  const headers = { ...auth, 'Content-Type': 'application/json' };
  const sample = await fetch(`${base}/api/v1/markdown`, { method: 'POST', headers, body });
  await sample.text();
  const overHttp =
    sample.status === 200
      ? await rate(async () => (await fetch(`${base}/api/v1/markdown`, { method: 'POST', headers, body })).text())
      : NaN;
  console.log(`\nmarkdown rendering, ${(text.length / 1024).toFixed(0)} KB gfm document (one at a time):`);
  console.log(
    `| path | renders/s |\n|---|---|\n| in process (markdown-it + sanitize-html) | ${inProcess.toFixed(1)} |`,
  );
  console.log(
    `| POST /api/v1/markdown | ${Number.isNaN(overHttp) ? `answers ${sample.status}, not measured` : overHttp.toFixed(1)} |`,
  );
}

/** The highest RSS of the process while `work` runs, sampled every 20 ms. */
async function peakRssDuring<T>(pid: number, work: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const rss = sampleRss(pid, 20);
  let result: T;
  try {
    result = await work();
  } finally {
    rss.stop();
  }
  return { result, peak: rss.peak() };
}

/** PUT of `mib` MiB, generated 1 MiB at a time so the bench itself never holds the file. */
function uploadStream(url: URL, authorization: string, mib: number): Promise<number> {
  const chunk = Buffer.alloc(1024 * 1024);
  for (let i = 0; i < chunk.length; i += 4) chunk.writeUInt32LE((i * 2654435761) >>> 0, i);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'PUT',
        headers: {
          Authorization: authorization,
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(mib * chunk.length),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    let sent = 0;
    const pump = () => {
      while (sent < mib) {
        sent++;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function downloadStream(url: string, authorization: string): Promise<{ status: number; bytes: number }> {
  const res = await fetch(url, { headers: { Authorization: authorization } });
  let bytes = 0;
  for await (const part of res.body ?? []) bytes += (part as Uint8Array).length;
  return { status: res.status, bytes };
}

/** Upload and download of one large file through the generic registry: throughput and the server's RSS growth. */
async function benchPackages(anvil: ChildProcess, base: string, token: string, owner: string): Promise<void> {
  const pid = anvil.pid!;
  const authorization = `token ${token}`;
  const url = `${base}/api/packages/${owner}/generic/bench/1.0.0/big.bin`;
  // Warm the route up with a small file first, so the idle figure includes what any first upload loads.
  await uploadStream(new URL(`${base}/api/packages/${owner}/generic/bench/0.0.1/small.bin`), authorization, 1);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = rssMiB(pid);
  const started = performance.now();
  const up = await peakRssDuring(pid, () => uploadStream(new URL(url), authorization, PACKAGE_MIB));
  const upSeconds = (performance.now() - started) / 1000;
  const beforeDownload = rssMiB(pid);
  const downStarted = performance.now();
  const down = await peakRssDuring(pid, () => downloadStream(url, authorization));
  const downSeconds = (performance.now() - downStarted) / 1000;
  const growth = up.peak - idle;
  console.log(`
| generic package, ${PACKAGE_MIB} MiB file | status | MiB/s | server RSS before, MiB | peak RSS growth, MiB | goal (growth < ${PACKAGE_RSS_GOAL_MIB} MiB) |`);
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| upload (PUT, streamed to the blob store) | ${up.result} | ${(PACKAGE_MIB / upSeconds).toFixed(0)} | ${idle.toFixed(0)} | ${growth.toFixed(1)} | ${growth < PACKAGE_RSS_GOAL_MIB ? 'met' : 'missed'} |`,
  );
  goals.push({
    name: `generic package, ${PACKAGE_MIB} MiB upload: RSS growth`,
    measured: `${growth.toFixed(1)} MiB`,
    goal: `< ${PACKAGE_RSS_GOAL_MIB} MiB`,
    met: growth < PACKAGE_RSS_GOAL_MIB,
  });
  const downMiB = down.result.bytes / (1024 * 1024);
  console.log(
    `| download (GET) | ${down.result.status} | ${(downMiB / downSeconds).toFixed(0)} | ${beforeDownload.toFixed(0)} | ${(down.peak - beforeDownload).toFixed(1)} | |`,
  );
}

/**
 * Org GET on one process, then on two processes over the same database, each driven by its own autocannon with
 * half the connections (a load balancer's fan-out without the balancer's own cost). Both share this machine's cores.
 */
async function benchTwoProcesses(
  first: string,
  second: string,
  requestPath: string,
  auth: Record<string, string>,
  startSecond: () => ChildProcess,
): Promise<void> {
  const one = await measure(first + requestPath, auth);
  const child = startSecond();
  try {
    await waitFor(`${second}/api/healthz`);
    const half = Math.max(1, Math.floor(CONNECTIONS / 2));
    if (WARMUP > 0)
      await Promise.all([
        autocannon(first + requestPath, auth, WARMUP, half),
        autocannon(second + requestPath, auth, WARMUP, half),
      ]);
    const [a, b] = await Promise.all([
      autocannon(first + requestPath, auth, DURATION, half),
      autocannon(second + requestPath, auth, DURATION, half),
    ]);
    const two = a.rps + b.rps;
    console.log(`\n| GET /api/v1/orgs/{org}, ${CONNECTIONS} connections | req/s |\n|---|---|`);
    console.log(
      `| one process | ${one.rps.toFixed(0)} |\n| two processes, one database | ${two.toFixed(0)} (×${(two / one.rps).toFixed(2)}) |`,
    );
    goals.push({
      name: 'org GET, two processes against one',
      measured: `${two.toFixed(0)} vs ${one.rps.toFixed(0)} req/s (×${(two / one.rps).toFixed(2)})`,
      goal: 'reported (2 cores shared with the load generators)',
      met: true,
    });
  } finally {
    child.kill();
    await new Promise((resolve) => child.once('exit', resolve));
  }
}

async function main(): Promise<void> {
  if (await benchEachDatabase(__filename)) return;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-'));
  const anvilPort = 39_000 + Math.floor(Math.random() * 500);
  const barePort = anvilPort + 500;
  const children: ChildProcess[] = [];
  let postgres: Awaited<ReturnType<typeof benchPostgres>> | undefined;
  try {
    const dbFile = path.join(dataDir, 'anvil.db');
    await migrateDatabase({ provider: 'sqlite', file: dbFile });
    console.log(`seeding ${SEED} users (one token each) and ${SEED} organizations…`);
    const defaults = loadSettings({ ...process.env, ANVIL_DATA_DIR: dataDir });
    const passwordHash = await passwordHasher(defaults.security.PASSWORD_HASH_ALGO, { concurrency: 1 }).hash(
      BENCH_PASSWORD,
    );
    const { token, orgName, passwordUser } = seed(dbFile, passwordHash);
    console.log('seeding issues and notification threads…');
    const issueSeed = seedIssuesAndNotifications(dbFile, SEED);
    seedActorKeys(dbFile);
    const databaseEnv: NodeJS.ProcessEnv = {};
    if (PROVIDER === 'postgresql') {
      postgres = await benchPostgres();
      console.log('copying the seeded rows to PostgreSQL…');
      await migrateDatabase({ provider: 'postgresql', url: postgres.url });
      await copySeedToPostgres(dbFile, postgres.url);
      databaseEnv.DATABASE_URL = postgres.url;
    }

    if (wanted('footprint')) {
      const coldMs = await coldStart(dataDir, anvilPort, databaseEnv);
      const bareMs = await bareColdStart(anvilPort);
      console.log(
        `cold start, \`npm start\` to a 200 from /api/healthz (median of 3): ${coldMs.toFixed(0)} ms (goal ≤ ${COLD_START_GOAL_MS} ms; a bare node server through \`npm start\`: ${bareMs.toFixed(0)} ms)\n`,
      );
      goals.push({
        name: 'cold start (`npm start` to a 200 on /api/healthz)',
        measured: `${(coldMs / 1000).toFixed(2)} s (a bare node server through npm start: ${(bareMs / 1000).toFixed(2)} s)`,
        goal: `≤ ${COLD_START_GOAL_MS / 1000} s`,
        met: coldMs <= COLD_START_GOAL_MS,
      });
    }
    const serverEnv = {
      ANVIL_DATA_DIR: dataDir,
      ...databaseEnv,
      ANVIL__server__HTTP_ADDR: '127.0.0.1',
      ANVIL__log__LEVEL: 'warn',
      ANVIL_EVENT_LOOP_PROBE: '1',
    };
    const anvilProcess = startAnvil({ ...serverEnv, PORT: String(anvilPort) });
    children.push(anvilProcess);
    await waitFor(`http://127.0.0.1:${anvilPort}/api/healthz`);
    const base = `http://127.0.0.1:${anvilPort}`;
    const auth = { Authorization: `token ${token}` };

    // The server's resident memory after start and 20 requests, then its peak over everything that follows.
    for (const requestPath of [
      '/api/v1/user',
      `/api/v1/orgs/${orgName}`,
      '/api/v1/admin/users?limit=50',
      '/api/v1/admin/orgs?limit=50',
    ]) {
      for (let i = 0; i < 5; i++) await (await fetch(base + requestPath, { headers: auth })).arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idleRss = rssMiB(anvilProcess.pid!);
    let peakRss = idleRss;
    // Which part of the bench the peak came in.
    let section = 'start';
    let peakSection = section;
    const samplePeak = () => {
      const rss = rssMiB(anvilProcess.pid!);
      if (rss > peakRss) [peakRss, peakSection] = [rss, section];
    };
    const sampler = setInterval(samplePeak, 50);
    console.log(
      `server RSS after start and 20 requests: ${idleRss.toFixed(0)} MiB (goal ≤ ${IDLE_RSS_GOAL_MIB} MiB)\n`,
    );
    goals.push({
      name: 'server RSS after start and 20 requests',
      measured: `${idleRss.toFixed(0)} MiB`,
      goal: `≤ ${IDLE_RSS_GOAL_MIB} MiB`,
      met: idleRss <= IDLE_RSS_GOAL_MIB,
    });

    if (ONLY?.has('packages')) await benchPackages(anvilProcess, base, token, 'user0');
    section = 'git';
    if (wanted('git')) {
      for (const row of await benchGit({ base: `${base}/`, token, owner: 'user0', pid: anvilProcess.pid })) {
        goals.push({
          name: row.name,
          measured: `${(1 / row.ratio).toFixed(2)}× git http-backend's time, RSS growth ${row.rssGrowthMiB.toFixed(1)} MiB`,
          goal: `≤ ${(1 / GIT_GOAL).toFixed(1)}×, RSS growth < 30 MiB`,
          met: row.ratio >= GIT_GOAL && row.rssGrowthMiB < 30,
        });
      }
    }
    const allTargets =
      !wanted('lists') && !ONLY?.has('orgget')
        ? []
        : [
            { name: 'GET /api/v1/user', path: '/api/v1/user', ratioGoal: 0.25 },
            { name: 'GET /api/v1/admin/users?limit=50', path: '/api/v1/admin/users?limit=50', ratioGoal: 0.25 },
            {
              name: `GET /api/v1/admin/orgs?limit=50 (${SEED} organizations)`,
              path: '/api/v1/admin/orgs?limit=50',
              rpsGoal: ADMIN_ORGS_RPS_GOAL,
            },
            {
              name: 'GET /api/v1/orgs/{org}',
              path: `/api/v1/orgs/${orgName}`,
              ratioGoal: ORG_GET_RATIO_GOAL[PROVIDER],
            },
          ];
    // BENCH_ONLY=orgget: the org GET alone (with BENCH_CPU_PROF=DIR, the server's CPU profile of it).
    const targets = ONLY?.has('orgget') && !ONLY.has('lists') ? allTargets.slice(-1) : allTargets;
    if (targets.length > 0) {
      console.log('| request | Anvil req/s | p50 ms | p99 ms | bare req/s | ratio | goal |');
      console.log('|---|---|---|---|---|---|---|');
    }
    for (const target of targets) {
      section = target.name;
      const sample = await fetch(base + target.path, { headers: auth });
      const body = await sample.text();
      if (sample.status !== 200) {
        console.log(`| ${target.name} | answers ${sample.status}, not measured | | | | | |`);
        continue;
      }
      const anvil = await measure(base + target.path, auth);
      const bare = start('scripts/bench-bare.ts', { PORT: String(barePort), BENCH_BODY: body });
      await waitFor(`http://127.0.0.1:${barePort}/`);
      const yardstick = await measure(`http://127.0.0.1:${barePort}${target.path}`, {});
      bare.kill();
      await new Promise((resolve) => bare.once('exit', resolve));
      const ratio = anvil.rps / yardstick.rps;
      const met = target.ratioGoal !== undefined ? ratio >= target.ratioGoal : anvil.rps >= target.rpsGoal!;
      const goal = target.ratioGoal !== undefined ? `ratio ≥ ${target.ratioGoal}` : `≥ ${target.rpsGoal} req/s`;
      console.log(
        `| ${target.name} | ${anvil.rps.toFixed(0)} | ${anvil.p50} | ${anvil.p99} | ${yardstick.rps.toFixed(0)} | ${ratio.toFixed(2)} | ${goal}: ${met ? 'met' : 'below'} |`,
      );
      goals.push({
        name: target.name,
        measured: `${anvil.rps.toFixed(0)} req/s, ratio ${ratio.toFixed(2)}, p50 ${anvil.p50} ms`,
        goal,
        met,
      });
      if (anvil.non2xx > 0) console.log(`  (${anvil.non2xx} non-2xx answers during the run)`);
    }
    if (wanted('scale')) {
      section = 'two processes';
      await benchTwoProcesses(base, `http://127.0.0.1:${anvilPort + 1}`, `/api/v1/orgs/${orgName}`, auth, () => {
        const second = startAnvil({
          ...serverEnv,
          PORT: String(anvilPort + 1),
          ANVIL_EVENT_LOOP_PROBE: '0',
          ANVIL__cron__ENABLED: 'false',
        });
        children.push(second);
        return second;
      });
    }
    if (wanted('signin')) {
      section = 'sign-ins';
      await signInRows(anvilProcess, base, [
        { name: 'token', authorization: `token ${token}` },
        {
          name: 'basic, password (argon2 at the default parameters)',
          authorization: `Basic ${Buffer.from(`${passwordUser}:${BENCH_PASSWORD}`).toString('base64')}`,
        },
      ]);
    }
    if (wanted('markdown')) {
      section = 'markdown';
      await benchMarkdown(base, auth);
    }
    if (ONLY === undefined) {
      section = 'packages';
      await benchPackages(anvilProcess, base, token, 'user0');
    }
    if (wanted('container')) {
      section = 'container registry';
      goals.push(...(await benchContainer({ base, owner: 'user0', token, measure })));
    }
    section = 'conda';
    if (onlyOnSqlite('conda'))
      goals.push(...(await benchConda({ base, owner: 'user0', token, dbFile, measure, pid: anvilProcess.pid! })));
    section = 'npm';
    if (wanted('npm')) goals.push(...(await benchNpm({ base, token, owner: 'user0', pid: anvilProcess.pid! })));
    section = 'cargo';
    if (onlyOnSqlite('cargo')) goals.push(...(await benchCargo({ base, token, owner: 'user0', dbFile })));
    section = 'vagrant';
    if (onlyOnSqlite('vagrant'))
      goals.push(...(await benchVagrant({ base, token, owner: 'user0', dbFile, pid: anvilProcess.pid! })));
    section = 'debian';
    if (wanted('debian')) goals.push(...(await benchDebian({ base, token, owner: 'user0', measure })));
    section = 'rpm';
    if (onlyOnSqlite('rpm')) goals.push(...(await benchRpm({ base, token, owner: 'user0', dataDir, measure })));
    section = 'alt';
    if (onlyOnSqlite('alt')) goals.push(...(await benchAlt({ base, token, owner: 'user0', dataDir, measure })));
    section = 'gem and cran';
    if (onlyOnSqlite('gemcran'))
      goals.push(
        ...(await benchGemCran({ base, token, dbFile, owners: ['user1', 'user2'], publisher: 'user0', measure })),
      );
    section = 'nuget, helm, pub';
    if (onlyOnSqlite('nuget')) {
      const owners = ['user0', 'user7', 'user8', 'user9', 'user10', 'user11', 'user12'];
      goals.push(...(await benchNugetHelmPub({ base, token, dbFile, owners, measure })));
    }
    section = 'conan';
    if (onlyOnSqlite('conan'))
      goals.push(...(await benchConan({ base, token, dbFile, owners: ['user0', 'user16', 'user17'], measure })));
    section = 'go and composer';
    if (onlyOnSqlite('gocomposer'))
      goals.push(...(await benchGoComposer({ base, token, owner: 'user0', dbFile, pid: anvilProcess.pid! })));
    section = 'chef';
    if (onlyOnSqlite('chef'))
      goals.push(
        ...(await benchChef({
          base,
          token,
          dbFile,
          owners: ['user13', 'user14', 'user15'],
          measure,
          pid: anvilProcess.pid!,
        })),
      );
    section = 'issues and notifications';
    if (onlyOnSqlite('issues')) {
      for (const row of await benchIssuesAndNotifications(base, issueSeed)) {
        goals.push({
          name: row.name,
          measured: `p50 ${row.p50.toFixed(1)} ms`,
          goal: `p50 < ${row.goal} ms`,
          met: row.p50 < row.goal,
        });
      }
    }
    section = 'lists at 100,000 rows';
    if (wanted('lists100k')) {
      const lists = await benchLists100k(postgres?.url, (env) => startAnvil(env));
      goals.push(...lists.rows);
      // The lists run on servers of their own.
      if (lists.peakRss > peakRss) [peakRss, peakSection] = [lists.peakRss, 'lists at 100,000 rows, their servers'];
    }
    section = 'ci bot';
    if (wanted('bot')) {
      const bot = await benchBot({
        startServer: (env, nodeArgs) => startAnvil({ ...serverEnv, ...env }, nodeArgs),
        port: anvilPort + 2,
      });
      goals.push(...bot.rows);
      // The mix runs on a server of its own.
      if (bot.peakRss > peakRss) [peakRss, peakSection] = [bot.peakRss, 'ci bot, its server'];
    }
    clearInterval(sampler);
    samplePeak();
    goals.push({
      name: 'peak server RSS during the bench',
      measured: `${peakRss.toFixed(0)} MiB (during ${peakSection})`,
      goal: '≤ 250 MiB',
      met: peakRss <= 250,
    });

    const load = os.loadavg().map((l) => l.toFixed(1));
    console.log(`\nEvery goal of this run (${PROVIDER}, load average ${load.join(' ')}):\n`);
    console.log('| measure | measured | goal | |\n|---|---|---|---|');
    for (const row of goals)
      console.log(`| ${row.name} | ${row.measured} | ${row.goal} | ${row.met ? 'met' : 'below'} |`);
    if (process.env.BENCH_GOALS_FILE) fs.writeFileSync(process.env.BENCH_GOALS_FILE, JSON.stringify(goals));
  } catch (error) {
    console.log(`benchmark could not finish: ${(error as Error).message}`);
  } finally {
    for (const child of children) child.kill();
    await Promise.all(children.map((child) => child.exitCode === null && new Promise((r) => child.once('exit', r))));
    await postgres?.drop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main();
