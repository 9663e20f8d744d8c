// The npm rows of `npm run bench`: Anvil's npm registry beside verdaccio, the registry npm users run themselves,
// in one run on loopback. Verdaccio is installed when missing into a folder of its own under the OS temp dir (not a
// project dependency), pinned, with node-fetch pinned by an npm override, and started with its storage in a temp
// dir. The same package (BENCH_NPM_VERSIONS versions and a 5 MiB tarball) is published to both; then packument
// GETs (requests/s, autocannon) and 5 MiB tarball GETs (MiB/s, Node's HTTP client) are measured, the servers taking turns three times (medians) — goal Anvil ≥ 1.5×
// verdaccio on both — and a 50 MiB package is published to Anvil while its resident memory is sampled (goal growth < 60 MiB).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { rssMiB, sampleRss } from './bench-rss.ts';

const root = path.resolve(__dirname, '..');
const VERDACCIO_VERSION = '6.2.0';
const VERDACCIO_DIR = path.join(os.tmpdir(), 'anvil-bench-verdaccio');
const VERSIONS = Number(process.env.BENCH_NPM_VERSIONS ?? 30);
const DURATION = Number(process.env.BENCH_NPM_DURATION ?? 5);
const ROUNDS = 3;
const TARBALL_MIB = 5;
const PUBLISH_MIB = 50;
const RATIO_GOAL = 1.5;
const RSS_GOAL_MIB = 60;

export interface NpmGoalRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

interface Target {
  name: string;
  /** The registry's root, ending in a slash. */
  registry: string;
  headers: Record<string, string>;
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
  });
}

async function ensureVerdaccio(): Promise<string> {
  const bin = path.join(VERDACCIO_DIR, 'node_modules', '.bin', 'verdaccio');
  const installed = path.join(VERDACCIO_DIR, 'node_modules', 'verdaccio', 'package.json');
  if (fs.existsSync(installed) && JSON.parse(fs.readFileSync(installed, 'utf8')).version === VERDACCIO_VERSION)
    return bin;
  console.log(`installing verdaccio ${VERDACCIO_VERSION} into ${VERDACCIO_DIR}…`);
  fs.mkdirSync(VERDACCIO_DIR, { recursive: true });
  fs.writeFileSync(
    path.join(VERDACCIO_DIR, 'package.json'),
    JSON.stringify({
      name: 'anvil-bench-verdaccio',
      private: true,
      dependencies: { verdaccio: VERDACCIO_VERSION },
      overrides: { 'node-fetch': '2.7.0' },
    }),
  );
  await run('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts'], VERDACCIO_DIR);
  return bin;
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/** Verdaccio on loopback, storage in a temp dir, anyone may publish (no accounts to set up). */
async function startVerdaccio(port: number): Promise<{ child: ChildProcess; storage: string }> {
  const bin = await ensureVerdaccio();
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-verdaccio-storage-'));
  const config = path.join(storage, 'config.yaml');
  fs.writeFileSync(
    config,
    [
      `storage: ${path.join(storage, 'packages')}`,
      'auth:',
      '  htpasswd:',
      `    file: ${path.join(storage, 'htpasswd')}`,
      'uplinks: {}',
      'packages:',
      "  '**':",
      '    access: $all',
      '    publish: $all',
      '    unpublish: $all',
      'max_body_size: 200mb',
      'log: { type: stdout, format: pretty, level: error }',
      '',
    ].join('\n'),
  );
  const child = spawn(bin, ['--config', config, '--listen', `127.0.0.1:${port}`], {
    cwd: storage,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  await waitFor(`http://127.0.0.1:${port}/-/ping`);
  return { child, storage };
}

function digest(algorithm: string, bytes: Buffer, encoding: 'hex' | 'base64'): string {
  return createHash(algorithm).update(bytes).digest(encoding);
}

/** `npm publish`'s body, streamed: the metadata, then the tarball in base64 a piece at a time. */
function publishBody(name: string, version: string, tarball: Buffer): Readable {
  const fileName = `${name}-${version}.tgz`;
  const manifest = {
    name,
    version,
    description: `bench package ${name}`,
    main: 'index.js',
    dependencies: { left: '^1.0.0', right: '^2.0.0' },
    _id: `${name}@${version}`,
    dist: {
      integrity: `sha512-${digest('sha512', tarball, 'base64')}`,
      shasum: digest('sha1', tarball, 'hex'),
      tarball: `http://localhost/${name}/-/${fileName}`,
    },
  };
  const head = JSON.stringify({
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: { [version]: manifest },
    _attachments: { [fileName]: { content_type: 'application/octet-stream', data: '@DATA@', length: tarball.length } },
  });
  const [before, after] = head.split('"@DATA@"');
  const PIECE = 3 * 256 * 1024;
  return Readable.from(
    (function* () {
      yield `${before}"`;
      for (let at = 0; at < tarball.length; at += PIECE) yield tarball.subarray(at, at + PIECE).toString('base64');
      yield `"${after}`;
    })(),
  );
}

function put(url: string, headers: Record<string, string>, body: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers: { ...headers, 'Content-Type': 'application/json' } });
    request.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    request.on('error', reject);
    body.pipe(request);
  });
}

function autocannon(url: string, headers: Record<string, string>, connections: number) {
  const args = ['-c', String(connections), '-d', String(DURATION), '-j'];
  for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}=${value}`);
  return run(path.join(root, 'node_modules/.bin/autocannon'), [...args, url], root).then((stdout) => {
    const result = JSON.parse(stdout);
    return { rps: result.requests.average as number, non2xx: result.non2xx as number };
  });
}

/**
 * MiB/s of downloads of one URL over `connections` kept-alive connections for DURATION seconds, read with Node's
 * own HTTP client (autocannon's parser, not the servers, would bound a large body's rate).
 */
async function downloadRate(url: string, headers: Record<string, string>, connections: number): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = performance.now() + DURATION * 1000;
  let bytes = 0;
  let failures = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(url, { agent, headers }, (res) => {
          if (res.statusCode !== 200) failures++;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('end', () => resolve());
          res.on('error', reject);
        })
        .on('error', reject);
    });
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < deadline) await once();
    }),
  );
  agent.destroy();
  if (failures > 0) console.log(`  (${failures} downloads of ${url} did not answer 200)`);
  return bytes / (1024 * 1024) / ((performance.now() - started) / 1000);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function publishAll(target: Target, name: string): Promise<void> {
  for (let i = 0; i < VERSIONS; i++) {
    const status = await put(
      `${target.registry}${name}`,
      target.headers,
      publishBody(name, `1.0.${i}`, randomBytes(2048)),
    );
    if (status >= 300) throw new Error(`${target.name}: publishing ${name}@1.0.${i} answered ${status}`);
  }
  const big = randomBytes(TARBALL_MIB * 1024 * 1024);
  const status = await put(`${target.registry}${name}`, target.headers, publishBody(name, '2.0.0', big));
  if (status >= 300) throw new Error(`${target.name}: publishing the ${TARBALL_MIB} MiB version answered ${status}`);
}

async function tarballUrl(target: Target, name: string): Promise<string> {
  const res = await fetch(`${target.registry}${name}`, { headers: target.headers });
  const doc = (await res.json()) as { versions: Record<string, { dist: { tarball: string } }> };
  return doc.versions['2.0.0'].dist.tarball;
}

/** Runs the rows; `anvil` is the running server's registry root for `owner` and its process id. */
export async function benchNpm(anvil: {
  base: string;
  token: string;
  owner: string;
  pid: number;
}): Promise<NpmGoalRow[]> {
  const rows: NpmGoalRow[] = [];
  const port = 41_000 + Math.floor(Math.random() * 1000);
  const verdaccio = await startVerdaccio(port);
  try {
    const targets: Target[] = [
      {
        name: 'Anvil',
        registry: `${anvil.base}/api/packages/${anvil.owner}/npm/`,
        headers: { Authorization: `Bearer ${anvil.token}` },
      },
      { name: 'verdaccio', registry: `http://127.0.0.1:${port}/`, headers: {} },
    ];
    const name = `bench-npm-${randomBytes(3).toString('hex')}`;
    const measured: Record<string, { packument: number; tarball: number }> = {};
    for (const target of targets) await publishAll(target, name);
    // The two servers take turns, ROUNDS times, and each keeps its median: on a shared machine the load drifts.
    const samples: Record<string, { packument: number[]; tarball: number[] }> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const target of targets) {
        const packument = await autocannon(
          `${target.registry}${name}`,
          { ...target.headers, Accept: 'application/json' },
          32,
        );
        if (packument.non2xx > 0) console.log(`  (${target.name}: non-2xx packument answers during the run)`);
        const tarball = await downloadRate(await tarballUrl(target, name), target.headers, 8);
        samples[target.name] ??= { packument: [], tarball: [] };
        samples[target.name].packument.push(packument.rps);
        samples[target.name].tarball.push(tarball);
      }
    }
    for (const target of targets) {
      const { packument, tarball } = samples[target.name];
      measured[target.name] = { packument: median(packument), tarball: median(tarball) };
    }
    const [ours, theirs] = [measured.Anvil, measured.verdaccio];
    console.log(`\n| npm registry (${VERSIONS + 1} versions) | Anvil | verdaccio | ratio | goal |`);
    console.log('|---|---|---|---|---|');
    for (const [label, key, unit] of [
      ['packument GET, req/s', 'packument', 'req/s'],
      [`${TARBALL_MIB} MiB tarball GET, MiB/s`, 'tarball', 'MiB/s'],
    ] as const) {
      const ratio = ours[key] / theirs[key];
      const met = ratio >= RATIO_GOAL;
      console.log(
        `| ${label} | ${ours[key].toFixed(0)} | ${theirs[key].toFixed(0)} | ${ratio.toFixed(2)} | ≥ ${RATIO_GOAL}: ${met ? 'met' : 'below'} |`,
      );
      rows.push({
        name: `npm ${label.split(',')[0]}`,
        measured: `${ours[key].toFixed(0)} ${unit} vs verdaccio ${theirs[key].toFixed(0)}, ratio ${ratio.toFixed(2)}`,
        goal: `≥ ${RATIO_GOAL}× verdaccio`,
        met,
      });
    }

    // A 50 MiB publish with the server's resident memory sampled every 20 ms.
    const big = randomBytes(PUBLISH_MIB * 1024 * 1024);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const idle = rssMiB(anvil.pid);
    const rss = sampleRss(anvil.pid, 20);
    const started = performance.now();
    const status = await put(
      `${targets[0].registry}${name}-big`,
      targets[0].headers,
      publishBody(`${name}-big`, '1.0.0', big),
    );
    const seconds = (performance.now() - started) / 1000;
    rss.stop();
    const peak = rss.peak();
    const growth = peak - idle;
    console.log(
      `| ${PUBLISH_MIB} MiB npm publish to Anvil | ${status}, ${(PUBLISH_MIB / seconds).toFixed(0)} MiB/s | RSS ${idle.toFixed(0)} → peak ${peak.toFixed(0)} MiB | growth ${growth.toFixed(1)} MiB | < ${RSS_GOAL_MIB} MiB: ${growth < RSS_GOAL_MIB && status === 201 ? 'met' : 'below'} |`,
    );
    rows.push({
      name: `npm publish of a ${PUBLISH_MIB} MiB package: server RSS growth`,
      measured: `${growth.toFixed(1)} MiB (status ${status})`,
      goal: `< ${RSS_GOAL_MIB} MiB`,
      met: growth < RSS_GOAL_MIB && status === 201,
    });
  } finally {
    verdaccio.child.kill();
    fs.rmSync(verdaccio.storage, { recursive: true, force: true });
  }
  return rows;
}
