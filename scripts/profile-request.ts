// `npm run profile:request`: where one token-authenticated `GET /api/v1/orgs/{org}` spends its CPU time. Runs Anvil
// in this process on a fresh SQLite database (the compiled copy in dist/, as `npm start` does), drives it with
// autocannon from another process, samples the CPU with the inspector while it does, and charges every sample to
// the innermost layer on its stack. Prints µs per request for each layer: the README's "Measured" table.
// PROFILE_HEAP=1 reports the bytes each function allocates per request instead.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..');
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 32);
/** Another path to profile, and how many more organizations and users to seed for it (e.g. /api/v1/admin/orgs?limit=50). */
const PATH = process.env.PROFILE_PATH ?? '/api/v1/orgs/profiled';
const EXTRA_ORGS = Number(process.env.PROFILE_ORGS ?? 0);
const EXTRA_USERS = Number(process.env.PROFILE_USERS ?? 0);
const dist = (module: string) => path.join(root, 'dist', 'src', module);

/** Layers from the innermost out: the first that matches a frame of a sample's stack, leaf first, gets the sample. */
const LAYERS: Array<{ name: string; matches: (url: string, fn: string) => boolean }> = [
  { name: 'logging (pino)', matches: (url) => /node_modules\/pino|src\/logger/.test(url) },
  {
    name: 'serialisation (converters, JSON.stringify)',
    matches: (url, fn) => /src\/convert\/|src\/api\/view|absent-nulls/.test(url) || (url === '' && fn === 'stringify'),
  },
  {
    name: 'database (prepared statements, Prisma)',
    matches: (url) => /src\/db\/|better-sqlite3|@prisma|generated\/prisma/.test(url),
  },
  { name: 'service', matches: (url) => /src\/services\/|src\/domain\//.test(url) },
  { name: 'authentication', matches: (url) => /src\/auth\//.test(url) },
  {
    name: 'validation (generated validators, route table)',
    matches: (url) =>
      /generated\/(request-|response-|operation-routes)|node_modules\/ajv|src\/api\/(operation-lookup|request-contract|request-media-type|response-contract)/.test(
        url,
      ),
  },
  {
    name: 'dispatch (express, guards, handler)',
    matches: (url) =>
      /node_modules\/(express|router|finalhandler|send|parseurl|qs|type-is|content-type|mime)|src\/api\/|src\/http\/|src\/app\.js/.test(
        url,
      ),
  },
  {
    name: 'HTTP parsing and writing (node:http, sockets)',
    matches: (url) => /^node:(_http|http|net|stream|internal\/(http|streams|stream_base|net))/.test(url),
  },
  { name: 'garbage collection', matches: (_url, fn) => fn === '(garbage collector)' },
];
const OTHER = 'other (event loop, timers, idle)';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

function layerTimes(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): Map<string, number> {
  const parent = new Map<number, ProfileNode>();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const layerOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = layerOf.get(id);
    if (known) return known;
    let layer = OTHER;
    for (let node = byId.get(id); node; node = parent.get(node.id)) {
      if (node.callFrame.functionName === '(idle)') break;
      const match = LAYERS.find((candidate) => candidate.matches(node!.callFrame.url, node!.callFrame.functionName));
      if (match) {
        layer = match.name;
        break;
      }
    }
    layerOf.set(id, layer);
    return layer;
  };
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    if (byId.get(id)?.callFrame.functionName === '(idle)') return;
    const layer = classify(id);
    totals.set(layer, (totals.get(layer) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return totals;
}

function autocannon(url: string, token: string, seconds: number): Promise<{ requests: number; rps: number }> {
  const args = ['-c', String(CONNECTIONS), '-d', String(seconds), '-j', '-H', `Authorization=token ${token}`, url];
  return new Promise((resolve, reject) => {
    execFile(
      path.join(root, 'node_modules/.bin/autocannon'),
      args,
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return reject(error);
        const result = JSON.parse(stdout);
        resolve({ requests: result.requests.total, rps: result.requests.average });
      },
    );
  });
}

/** Where the CPU goes, by layer: the README's table. */
async function reportLayers(session: inspector.Session, url: string, token: string): Promise<void> {
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  const run = await autocannon(url, token, SECONDS);
  const { profile } = await session.post('Profiler.stop');
  session.disconnect();

  if (process.env.PROFILE_SAVE) fs.writeFileSync(process.env.PROFILE_SAVE, JSON.stringify(profile));
  const totals = layerTimes(profile as never);
  const perRequest = (micros: number) => micros / run.requests;
  const sum = [...totals.values()].reduce((a, b) => a + b, 0);
  console.log(
    `GET ${PATH} with a token: ${run.requests} requests, ${run.rps.toFixed(0)} req/s, ${CONNECTIONS} connections, ${SECONDS} s`,
  );
  console.log('\n| layer | µs per request | share |\n|---|---|---|');
  for (const name of [...LAYERS.map((layer) => layer.name), OTHER]) {
    const micros = totals.get(name) ?? 0;
    console.log(`| ${name} | ${perRequest(micros).toFixed(0)} | ${((100 * micros) / sum).toFixed(0)} % |`);
  }
  console.log(`| **all of the server's CPU** | ${perRequest(sum).toFixed(0)} | 100 % |`);
}

interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

/** PROFILE_HEAP=1: bytes allocated per request by the functions allocating most, from V8's sampling heap profiler. */
async function reportAllocations(session: inspector.Session, url: string, token: string): Promise<void> {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  const run = await autocannon(url, token, SECONDS);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  session.disconnect();
  const bySite = new Map<string, number>();
  let total = 0;
  const pending: AllocationNode[] = [(profile as { head: AllocationNode }).head];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const { functionName, url: file, lineNumber } = node.callFrame;
    const site = `${functionName || '(anonymous)'} ${file.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}`;
    bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    total += node.selfSize;
    pending.push(...node.children);
  }
  console.log(
    `GET ${PATH} with a token: ${run.requests} requests, ${(total / run.requests / 1024).toFixed(1)} KiB allocated per request\n`,
  );
  console.log('| function | bytes per request |\n|---|---|');
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`| ${site} | ${(bytes / run.requests).toFixed(0)} |`);
}

async function main(): Promise<void> {
  require(path.join(root, 'scripts', 'build.cjs')).ensureBuilt();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-profile-'));
  process.env.ANVIL_DATA_DIR = dataDir;
  try {
    const { loadSettings } = require(dist('config/settings.js'));
    const { createLogger } = require(dist('infra/observability/logger.js'));
    const { bootstrap } = require(dist('app/bootstrap.js'));
    const { createApp } = require(dist('http/app.js'));
    const { hashAccessToken, lastEight, newAccessToken } = require(dist('auth/access-token.js'));
    const settings = loadSettings({ ...process.env, ANVIL__log__LEVEL: 'warn' });
    const context = await bootstrap(settings, createLogger('warn'));
    const token = newAccessToken();
    const user = await context.db.prisma.user.create({
      data: {
        name: 'profiler',
        lowerName: 'profiler',
        email: 'profiler@example.com',
        loginName: 'profiler',
        isAdmin: true,
      },
    });
    await context.db.prisma.accessToken.create({
      data: {
        userId: user.id,
        name: 'profile',
        tokenHash: hashAccessToken(token),
        tokenLastEight: lastEight(token),
        scope: 'all',
      },
    });
    const org = await context.db.prisma.user.create({
      data: { type: 1, name: 'profiled', lowerName: 'profiled', email: '' },
    });
    await context.db.prisma.orgUser.create({ data: { userId: user.id, orgId: org.id, isPublic: true } });
    for (let i = 0; i < EXTRA_ORGS; i++)
      await context.db.prisma.user.create({ data: { type: 1, name: `org${i}`, lowerName: `org${i}`, email: '' } });
    for (let i = 0; i < EXTRA_USERS; i++) {
      await context.db.prisma.user.create({
        data: { name: `user${i}`, lowerName: `user${i}`, email: `user${i}@example.com`, loginName: `user${i}` },
      });
    }
    const server = createApp(context).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as { port: number }).port}${PATH}`;

    await autocannon(url, token, 3);
    const session = new inspector.Session();
    session.connect();
    if (process.env.PROFILE_HEAP) await reportAllocations(session, url, token);
    else await reportLayers(session, url, token);
    server.close();
    await context.db.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
