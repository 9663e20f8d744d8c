// The CI-bot rows of `npm run bench` (BENCH_ONLY=bot): 64 connections of mixed traffic, as bots drive a forge —
// 55 % token GETs (repository, user, file contents, org, notifications), 15 % commit statuses and issue comments
// posted, 15 % notification polls with `since`, 10 % package downloads, 5 % git over smart HTTP (the ref
// advertisement, protocol v2 ls-refs, and a fetch) — for BENCH_BOT_SECONDS (60). Runs on a fresh SQLite data
// directory or, when BENCH_DATABASE_URL is set, a fresh PostgreSQL database (bench-database.ts); the data is made
// through the CLI and the API, so both databases get the same; BENCH_DATABASES=sqlite,postgresql sets them side by side. Reports requests/s, p50/p99 over all requests and per
// kind, errors, and the server's event-loop delay over the run (its /metrics gauge, prom-client's
// monitorEventLoopDelay). BENCH_BOT_PROFILE=1 runs the server under --cpu-prof and prints the top frames by self time.
import { type ChildProcess, execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { summariseCpuProfile } from './bench-cpu-profile.ts';
import { benchPostgres, benchProvider } from './bench-database.ts';
import { sampleRss } from './bench-rss.ts';

// autocannon has no type declarations; the part used here.
interface CannonRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}
interface CannonResult {
  requests: { total: number; average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}
type Autocannon = (options: {
  url: string;
  connections: number;
  duration: number;
  requests: Array<{
    setupRequest: (request: CannonRequest, context: BotContext) => CannonRequest;
    onResponse: (status: number, body: string, context: BotContext) => void;
  }>;
}) => Promise<CannonResult>;
const autocannon = require('autocannon') as Autocannon;

const root = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.BENCH_BOT_SECONDS ?? 60);
const WARMUP_SECONDS = Number(process.env.BENCH_BOT_WARMUP ?? 5);
const CONNECTIONS = Number(process.env.BENCH_BOT_CONNECTIONS ?? 64);
const PROFILE = process.env.BENCH_BOT_PROFILE === '1';
/** BENCH_BOT_PROFILE_TO=file keeps the server's profile there (for a closer look than the summary). */
const KEEP_PROFILE = process.env.BENCH_BOT_PROFILE_TO;
/** BENCH_BOT_KINDS=a,b runs only the kinds whose names contain one of these (to cost one kind alone). */
const ONLY_KINDS = (process.env.BENCH_BOT_KINDS ?? '').split(',').filter(Boolean);
const BOTS = 8;
const ISSUES = 8;
const PASSWORD = 'bench-bot-password-1';
const RPS_GOAL = { sqlite: 1500, postgresql: 1000 } as const;
const P99_GOAL_MS = 100;
const LOOP_DELAY_GOAL_MS = 20;
/** prom-client samples the event loop every 10 ms; each recorded delay includes that interval. */
const LOOP_RESOLUTION_MS = 10;

type Database = keyof typeof RPS_GOAL;

export interface BotGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

/** The goal rows of a mix, and its server's peak RSS in MiB. */
export interface BotRun {
  rows: BotGoalRow[];
  peakRss: number;
}

/** What a connection's current request is, for its answer. */
interface BotContext {
  kind?: string;
  expected?: number;
  started?: number;
}

interface World {
  base: string;
  org: string;
  repo: string;
  sha: string;
  bots: Array<{ name: string; token: string }>;
  packagePath: string;
}

function pkt(line: string): string {
  return (line.length + 4).toString(16).padStart(4, '0') + line;
}

/** The request kinds and their weights (per cent). */
function requestKinds(world: World): Array<{ kind: string; weight: number; make: () => CannonRequest }> {
  const repoPath = `/api/v1/repos/${world.org}/${world.repo}`;
  const git = `/${world.org}/${world.repo}.git`;
  let sequence = 0;
  const json = (body: unknown) => ({ 'Content-Type': 'application/json', body: JSON.stringify(body) });
  const get = (requestPath: string) => () => ({ method: 'GET', path: requestPath, headers: {} });
  const post = (requestPath: () => string, body: () => unknown) => () => {
    const { body: text, ...headers } = json(body());
    return { method: 'POST', path: requestPath(), headers, body: text };
  };
  const gitV2 = {
    'Content-Type': 'application/x-git-upload-pack-request',
    Accept: 'application/x-git-upload-pack-result',
    'Git-Protocol': 'version=2',
  };
  const lsRefs = `${pkt('command=ls-refs\n')}0001${pkt('peel\n')}${pkt('symrefs\n')}${pkt('ref-prefix HEAD\n')}${pkt('ref-prefix refs/heads/\n')}0000`;
  const fetchHead = `${pkt('command=fetch\n')}0001${pkt('ofs-delta\n')}${pkt(`want ${world.sha}\n`)}${pkt('done\n')}0000`;
  return [
    { kind: 'GET repository', weight: 15, make: get(repoPath) },
    { kind: 'GET user', weight: 10, make: get('/api/v1/user') },
    { kind: 'GET file contents', weight: 15, make: get(`${repoPath}/contents/README.md`) },
    { kind: 'GET org', weight: 10, make: get(`/api/v1/orgs/${world.org}`) },
    { kind: 'GET notifications', weight: 5, make: get('/api/v1/notifications?limit=20') },
    {
      kind: 'POST commit status',
      weight: 8,
      make: post(
        () => `${repoPath}/statuses/${world.sha}`,
        () => ({ state: 'success', context: `ci/bot-${sequence++ % 16}`, description: 'build passed' }),
      ),
    },
    {
      kind: 'POST issue comment',
      weight: 7,
      make: post(
        () => `${repoPath}/issues/${1 + (sequence++ % ISSUES)}/comments`,
        () => ({ body: `build ${sequence} passed` }),
      ),
    },
    {
      kind: 'GET notifications?since',
      weight: 15,
      make: () => ({
        method: 'GET',
        path: `/api/v1/notifications?since=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}&limit=20`,
        headers: {},
      }),
    },
    { kind: 'GET package file', weight: 10, make: get(world.packagePath) },
    {
      kind: 'git info/refs',
      weight: 2,
      make: () => ({ method: 'GET', path: `${git}/info/refs?service=git-upload-pack`, headers: {} }),
    },
    {
      kind: 'git ls-refs (v2)',
      weight: 2,
      make: () => ({ method: 'POST', path: `${git}/git-upload-pack`, headers: gitV2, body: lsRefs }),
    },
    {
      kind: 'git fetch (v2)',
      weight: 1,
      make: () => ({ method: 'POST', path: `${git}/git-upload-pack`, headers: gitV2, body: fetchHead }),
    },
  ];
}

async function call(
  base: string,
  method: string,
  requestPath: string,
  authorization: string,
  body?: unknown,
  expected = [200, 201, 204],
): Promise<any> {
  const res = await fetch(base + requestPath, {
    method,
    headers: { Authorization: authorization, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body:
      body === undefined ? undefined : typeof body === 'string' || body instanceof Buffer ? body : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expected.includes(res.status)) throw new Error(`${method} ${requestPath} answered ${res.status}: ${text}`);
  return text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
}

/** An org with a repository (README, a commit), issues, a package file, and bots with tokens who watch it. */
async function makeWorld(base: string, adminToken: string): Promise<World> {
  const admin = `token ${adminToken}`;
  const org = 'bots-org';
  const repo = 'service';
  await call(base, 'POST', '/api/v1/orgs', admin, { username: org });
  await call(base, 'POST', `/api/v1/orgs/${org}/repos`, admin, { name: repo, auto_init: true, readme: 'Default' });
  const branch = await call(base, 'GET', `/api/v1/repos/${org}/${repo}/branches/main`, admin);
  const sha = branch.commit.id as string;
  for (let i = 1; i <= ISSUES; i++)
    await call(base, 'POST', `/api/v1/repos/${org}/${repo}/issues`, admin, { title: `flaky test ${i}` });
  const packagePath = `/api/packages/${org}/generic/artifact/1.0.0/build.tar.gz`;
  await call(base, 'PUT', packagePath, admin, randomBytes(32 * 1024));
  const bots: World['bots'] = [];
  const userIds = [(await call(base, 'GET', '/api/v1/user', admin)).id as number];
  for (let i = 0; i < BOTS; i++) {
    const name = `bot${i}`;
    const bot = await call(base, 'POST', '/api/v1/admin/users', admin, {
      username: name,
      email: `${name}@example.com`,
      password: PASSWORD,
      must_change_password: false,
    });
    await call(base, 'PUT', `/api/v1/repos/${org}/${repo}/collaborators/${name}`, admin, { permission: 'write' });
    const basic = `Basic ${Buffer.from(`${name}:${PASSWORD}`).toString('base64')}`;
    const token = await call(base, 'POST', `/api/v1/users/${name}/tokens`, basic, { name: 'ci', scopes: ['all'] });
    await call(base, 'PUT', `/api/v1/repos/${org}/${repo}/subscription`, `token ${token.sha1}`);
    bots.push({ name, token: token.sha1 as string });
    userIds.push(bot.id as number);
  }
  await actorKeysMade(base, userIds);
  return { base, org, repo, sha, bots, packagePath };
}

/**
 * Waits until the key worker has made every new user's ActivityPub key pair (federation is on by default): it makes
 * a 3072-bit RSA pair per user in the background at up to a quarter of a core for a while after users are created,
 * and a bot server runs long past that. The actor answers 404 until its pair exists.
 */
async function actorKeysMade(base: string, userIds: number[], timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (const id of userIds) {
    for (;;) {
      const res = await fetch(`${base}/api/v1/activitypub/user-id/${id}`);
      await res.arrayBuffer();
      if (res.status === 200) break;
      if (res.status !== 404) throw new Error(`the actor of user ${id} answered ${res.status}`);
      if (Date.now() > deadline) throw new Error(`user ${id} had no actor key pair after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The server's event-loop delay p99 since the previous scrape (prom-client resets it on each), in ms. */
async function loopDelayP99(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = /^nodejs_eventloop_lag_p99_seconds(?:\{[^}]*\})? ([\d.e+-]+)$/m.exec(text);
  return match ? Number(match[1]) * 1000 : NaN;
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

function cli(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['dist/src/cli.js', ...args],
      { cwd: root, env: { ...process.env, ...env } },
      (e, out, err) => (e ? reject(new Error(`cli ${args.join(' ')}: ${err}`)) : resolve(out)),
    ),
  );
}

/** A fresh place for the server's data: a data directory, and a database on BENCH_DATABASE_URL's server. */
async function freshStore(database: Database): Promise<{ env: NodeJS.ProcessEnv; drop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-bot-'));
  const removeDir = () => fs.rmSync(dataDir, { recursive: true, force: true });
  // An empty DATABASE_URL is no URL: SQLite in the data directory, whatever the caller's environment says.
  if (database === 'sqlite')
    return { env: { ANVIL_DATA_DIR: dataDir, DATABASE_URL: '' }, drop: async () => removeDir() };
  const postgres = await benchPostgres();
  return {
    env: { ANVIL_DATA_DIR: dataDir, DATABASE_URL: postgres.url },
    drop: async () => {
      await postgres.drop();
      removeDir();
    },
  };
}

/** CPU time (user + system) the process has used, in ms; NaN where /proc is missing. */
function processCpuMs(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime are fields 14 and 15 of stat, counted in clock ticks (100 per second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return NaN;
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** Each kind once, in turn: a kind that does not answer as expected stops the bench with its answer. */
async function probeKinds(world: World): Promise<void> {
  for (const kind of requestKinds(world)) {
    const made = kind.make();
    const started = performance.now();
    const res = await fetch(world.base + made.path, {
      method: made.method,
      headers: { ...made.headers, Authorization: `token ${world.bots[0].token}` },
      body: made.body,
    });
    const body = Buffer.from(await res.arrayBuffer());
    const expected = expectedStatus(made);
    const ms = (performance.now() - started).toFixed(1);
    if (process.env.BENCH_BOT_DEBUG) console.log(`${kind.kind}: ${res.status}, ${body.length} bytes, ${ms} ms`);
    if (res.status !== expected)
      throw new Error(`${kind.kind} answered ${res.status}, not ${expected}: ${body.toString().slice(0, 300)}`);
  }
}

function expectedStatus(request: CannonRequest): number {
  return request.method === 'POST' && !request.path.includes('.git/') ? 201 : 200;
}

/** One run of the mix: the totals, and latencies and failures per kind. */
async function drive(world: World, seconds: number) {
  const kinds = requestKinds(world).filter(
    (kind) => ONLY_KINDS.length === 0 || ONLY_KINDS.some((name) => kind.kind.includes(name)),
  );
  const total = kinds.reduce((sum, kind) => sum + kind.weight, 0);
  const perKind = new Map(
    kinds.map((kind) => [kind.kind, { times: [] as number[], failed: new Map<number, number>() }]),
  );
  const pick = () => {
    let roll = Math.random() * total;
    for (const kind of kinds) if ((roll -= kind.weight) < 0) return kind;
    return kinds[kinds.length - 1];
  };
  let connection = 0;
  const result = await autocannon({
    url: world.base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      {
        setupRequest: (request, context) => {
          const kind = pick();
          const made = kind.make();
          // The bots take turns.
          const bot = world.bots[(connection = (connection + 1) % world.bots.length)];
          context.kind = kind.kind;
          context.expected = expectedStatus(made);
          context.started = performance.now();
          return {
            ...request,
            ...made,
            headers: { ...request.headers, ...made.headers, Authorization: `token ${bot.token}` },
          };
        },
        onResponse: (status, _body, context) => {
          const stats = perKind.get(context.kind!)!;
          stats.times.push(performance.now() - context.started!);
          if (status !== context.expected) stats.failed.set(status, (stats.failed.get(status) ?? 0) + 1);
        },
      },
    ],
  });
  return { result, perKind };
}

/** Starts the server, makes the world, runs the mix; the rows for one database. */
async function benchOn(
  database: Database,
  startServer: (env: NodeJS.ProcessEnv, nodeArgs: string[]) => ChildProcess,
  port: number,
): Promise<BotRun> {
  const store = await freshStore(database);
  /** This server's highest RSS from its start to the end of the run (the bench's own peak row reads it). */
  let peakRss = 0;
  let stopSampling = () => undefined as void;
  const profileDir = PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bot-profile-')) : null;
  let server: ChildProcess | null = null;
  try {
    const adminOut = await cli(
      [
        'admin',
        'user',
        'create',
        '--username',
        'bench-admin',
        '--email',
        'bench-admin@example.com',
        '--password',
        PASSWORD,
        '--admin',
        '--must-change-password=false',
        '--access-token',
      ],
      store.env,
    );
    const adminToken = adminOut.trim().split('\n').pop()!.trim();
    const base = `http://127.0.0.1:${port}`;
    server = startServer(
      {
        ...store.env,
        PORT: String(port),
        ANVIL__metrics__ENABLED: 'true',
        ANVIL__cron__ENABLED: 'false',
      },
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
    const exited = new Promise((resolve) => server!.once('exit', resolve));
    await waitFor(`${base}/api/healthz`);
    const rss = sampleRss(server.pid!);
    stopSampling = () => {
      rss.stop();
      peakRss = rss.peak();
    };
    const world = await makeWorld(base, adminToken);
    await probeKinds(world);
    if (WARMUP_SECONDS > 0) await drive(world, WARMUP_SECONDS);
    await loopDelayP99(base); // starts the window
    const cpuBefore = processCpuMs(server.pid!);
    const { result, perKind } = await drive(world, SECONDS);
    const cpuMs = processCpuMs(server.pid!) - cpuBefore;
    const loopP99 = Math.max(0, (await loopDelayP99(base)) - LOOP_RESOLUTION_MS);
    const failures = [...perKind.values()].reduce(
      (sum, kind) => sum + [...kind.failed.values()].reduce((a, b) => a + b, 0),
      0,
    );
    const errors = result.errors + result.timeouts + failures;
    const load = os.loadavg()[0].toFixed(1);

    console.log(
      `\n| CI-bot mix on ${database}, ${CONNECTIONS} connections, ${SECONDS} s (load average ${load}) | requests | share | p50 ms | p99 ms | failed |`,
    );
    console.log('|---|---|---|---|---|---|');
    const all = result.requests.total || 1;
    for (const [kind, stats] of perKind) {
      const sorted = stats.times.sort((a, b) => a - b);
      const failed = [...stats.failed].map(([status, count]) => `${count}× ${status}`).join(', ');
      console.log(
        `| ${kind} | ${sorted.length} | ${((100 * sorted.length) / all).toFixed(1)} % | ${percentile(sorted, 0.5).toFixed(1)} | ${percentile(sorted, 0.99).toFixed(1)} | ${failed} |`,
      );
    }
    console.log(
      `| **all** | ${result.requests.total} (${result.requests.average.toFixed(0)} req/s) | | ${result.latency.p50} | ${result.latency.p99} | ${errors} (socket errors ${result.errors}, timeouts ${result.timeouts}) |`,
    );
    console.log(
      `server event-loop delay p99 over the run: ${loopP99.toFixed(1)} ms (beyond the 10 ms sampling interval)`,
    );
    stopSampling();
    console.log(`server peak RSS over the mix: ${peakRss.toFixed(0)} MiB`);
    if (Number.isFinite(cpuMs))
      console.log(
        `server CPU over the run: ${(cpuMs / 1000).toFixed(1)} s, ${(cpuMs / all).toFixed(2)} ms per request`,
      );

    const rpsGoal = RPS_GOAL[database];
    const rows: BotGoalRow[] = [
      {
        name: `CI-bot mix (${CONNECTIONS} connections, ${SECONDS} s)`,
        measured: `${result.requests.average.toFixed(0)} req/s, p99 ${result.latency.p99} ms, ${errors} errors (load ${load})`,
        goal: `≥ ${rpsGoal} req/s, p99 < ${P99_GOAL_MS} ms, no errors`,
        met: result.requests.average >= rpsGoal && result.latency.p99 < P99_GOAL_MS && errors === 0,
      },
      {
        name: 'CI-bot mix: server event-loop delay p99',
        measured: `${loopP99.toFixed(1)} ms`,
        goal: `< ${LOOP_DELAY_GOAL_MS} ms`,
        met: loopP99 < LOOP_DELAY_GOAL_MS,
      },
    ];
    server.kill('SIGTERM');
    await exited;
    server = null;
    if (profileDir) {
      const [file] = fs.readdirSync(profileDir).filter((name) => name.endsWith('.cpuprofile'));
      if (file) {
        console.log(`\nCPU profile of the server (warm-up, seeding and the run), top frames by self time:`);
        console.log(summariseCpuProfile(path.join(profileDir, file), 25));
        if (KEEP_PROFILE) fs.copyFileSync(path.join(profileDir, file), KEEP_PROFILE);
      } else console.log('(the server wrote no CPU profile)');
    }
    return { rows, peakRss };
  } finally {
    stopSampling();
    if (server) {
      server.kill('SIGKILL');
    }
    await store.drop();
    if (profileDir) fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

/** The CI-bot rows on this run's database (PostgreSQL when BENCH_DATABASE_URL is set: bench-database.ts). */
export async function benchBot(options: {
  startServer: (env: NodeJS.ProcessEnv, nodeArgs: string[]) => ChildProcess;
  port: number;
}): Promise<BotRun> {
  return benchOn(benchProvider(), options.startServer, options.port);
}
