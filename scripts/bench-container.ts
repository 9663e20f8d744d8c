// The container registry rows of `npm run bench`: a 100 MiB layer pushed (POST, then one PUT ?digest= with the
// body, as a monolithic upload goes) and pulled (by curl when present), in MiB/s, and manifest GETs per second
// (autocannon), through Anvil and, side by side in the same run, through Debian's docker-registry (CNCF
// distribution) started here on loopback with filesystem storage in a temporary directory. Goal: Anvil at least as
// fast as the reference both ways. Skipped, with a line saying why, when /usr/bin/docker-registry is missing.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const REGISTRY_BINARY = process.env.BENCH_DOCKER_REGISTRY ?? '/usr/bin/docker-registry';
const LAYER_MIB = Number(process.env.BENCH_CONTAINER_MIB ?? 100);
const RUNS = 3;
/** Layer pushes and pulls take a second or two: more of them steady the medians on a busy machine. */
const LAYER_RUNS = 5;
const GOAL = 1.0;
const MiB = 1024 * 1024;
const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';

export interface ContainerBenchRow {
  name: string;
  measured: string;
  goal: string;
  met: boolean;
}

export type Measure = (url: string, headers: Record<string, string>) => Promise<{ rps: number; non2xx: number }>;

interface Target {
  name: string;
  base: string;
  image: string;
  headers: Record<string, string>;
}

/** The layer of run `seed`: a shared 1 MiB block, its first bytes made distinct per run. */
function layer(seed: number): { chunks: () => Generator<Buffer>; digest: string; bytes: number } {
  const block = Buffer.alloc(MiB);
  for (let i = 0; i < block.length; i += 4) block.writeUInt32LE((i * 2654435761) >>> 0, i);
  const first = Buffer.from(block);
  first.writeUInt32LE(seed, 0);
  function* chunks() {
    yield first;
    for (let i = 1; i < LAYER_MIB; i++) yield block;
  }
  const hash = createHash('sha256');
  for (const chunk of chunks()) hash.update(chunk);
  return { chunks, digest: `sha256:${hash.digest('hex')}`, bytes: LAYER_MIB * MiB };
}

function request(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: Iterable<Buffer>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let bytes = 0;
      const small: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= 64 * 1024) small.push(chunk);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, text: Buffer.concat(small).toString() }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!body) return void req.end();
    const iterator = body[Symbol.iterator]();
    const pump = () => {
      for (let next = iterator.next(); !next.done; next = iterator.next()) {
        if (!req.write(next.value)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/** POST …/blobs/uploads/ then PUT ?digest= with the whole body; answers the seconds it took. */
async function pushLayer(target: Target, seed: number): Promise<number> {
  const { chunks, digest, bytes } = layer(seed);
  const started = performance.now();
  const post = await request(`${target.base}/v2/${target.image}/blobs/uploads/`, 'POST', {
    ...target.headers,
    'Content-Length': 0,
  });
  if (post.status !== 202) throw new Error(`${target.name}: upload start answered ${post.status} ${post.text}`);
  const location = new URL(post.headers.location!, target.base);
  location.searchParams.set('digest', digest);
  const put = await request(
    location.toString(),
    'PUT',
    { ...target.headers, 'Content-Type': 'application/octet-stream', 'Content-Length': bytes },
    chunks(),
  );
  if (put.status !== 201) throw new Error(`${target.name}: upload answered ${put.status} ${put.text}`);
  return (performance.now() - started) / 1000;
}

/**
 * The layer downloaded by curl into /dev/null, in curl's own time: the same client for both registries, and one that
 * is not the limit (this script's Node client tops out near 500 MiB/s on its own, where both servers went faster).
 */
const CURL = ['/usr/bin/curl', '/bin/curl'].find((file) => fs.existsSync(file));

function curlDownload(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; bytes: number; seconds: number }> {
  const args = [
    '--silent',
    '--show-error',
    '--output',
    '/dev/null',
    '--write-out',
    '%{http_code} %{size_download} %{time_total}',
  ];
  for (const [name, value] of Object.entries(headers)) args.push('--header', `${name}: ${value}`);
  return new Promise((resolve, reject) => {
    const child = spawn(CURL!, [...args, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const [status, bytes, seconds] = out.trim().split(' ').map(Number);
      if (code !== 0) reject(new Error(`curl exited with ${code}`));
      else resolve({ status, bytes, seconds });
    });
  });
}

async function pullLayer(target: Target, seed: number): Promise<number> {
  const { digest, bytes } = layer(seed);
  const url = `${target.base}/v2/${target.image}/blobs/${digest}`;
  if (CURL) {
    const got = await curlDownload(url, target.headers);
    if (got.status !== 200 || got.bytes !== bytes) throw new Error(`${target.name}: pull answered ${got.status}`);
    return got.seconds;
  }
  const started = performance.now();
  const got = await request(url, 'GET', target.headers);
  if (got.status !== 200 || got.bytes !== bytes) throw new Error(`${target.name}: pull answered ${got.status}`);
  return (performance.now() - started) / 1000;
}

/** A small image tagged v1, for the manifest GETs. */
async function pushManifest(target: Target): Promise<void> {
  const config = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers' } }));
  const blobs = [config, Buffer.from('a small layer')];
  const descriptor = (bytes: Buffer, mediaType: string) => ({
    mediaType,
    digest: `sha256:${createHash('sha256').update(bytes).digest('hex')}`,
    size: bytes.length,
  });
  for (const blob of blobs) {
    const digest = descriptor(blob, '').digest;
    const post = await request(`${target.base}/v2/${target.image}/blobs/uploads/`, 'POST', {
      ...target.headers,
      'Content-Length': 0,
    });
    const location = new URL(post.headers.location!, target.base);
    location.searchParams.set('digest', digest);
    const put = await request(location.toString(), 'PUT', { ...target.headers, 'Content-Length': blob.length }, [blob]);
    if (put.status !== 201) throw new Error(`${target.name}: blob answered ${put.status} ${put.text}`);
  }
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      config: descriptor(config, 'application/vnd.oci.image.config.v1+json'),
      layers: [descriptor(blobs[1], 'application/vnd.oci.image.layer.v1.tar+gzip')],
    }),
  );
  const put = await request(
    `${target.base}/v2/${target.image}/manifests/v1`,
    'PUT',
    { ...target.headers, 'Content-Type': OCI_MANIFEST, 'Content-Length': manifest.length },
    [manifest],
  );
  if (put.status !== 201) throw new Error(`${target.name}: manifest answered ${put.status} ${put.text}`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** docker-registry on loopback with filesystem storage under `dir`; resolves once /v2/ answers. */
async function startReference(dir: string): Promise<{ base: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const config = path.join(dir, 'config.yml');
  fs.writeFileSync(
    config,
    [
      'version: 0.1',
      'log:',
      '  level: error',
      '  accesslog:',
      '    disabled: true',
      'storage:',
      '  filesystem:',
      `    rootdirectory: ${path.join(dir, 'data')}`,
      '  delete:',
      '    enabled: true',
      'http:',
      `  addr: 127.0.0.1:${port}`,
      '',
    ].join('\n'),
  );
  const child = spawn(REGISTRY_BINARY, ['serve', config], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/v2/`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error('docker-registry did not start');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    base,
    stop: async () => {
      child.kill();
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * Push and pull MiB/s (medians of LAYER_RUNS) and manifest GETs per second (medians of RUNS) through each registry,
 * the registries taking turns within every run, which of them goes first alternating (so that load from elsewhere,
 * and what the other just did, falls on both alike).
 */
async function measureTargets(targets: readonly Target[], measure: Measure) {
  const push = targets.map((): number[] => []);
  const pull = targets.map((): number[] => []);
  const manifests = targets.map((): number[] => []);
  for (const target of targets) await pushManifest(target);
  for (let run = 0; run < Math.max(RUNS, LAYER_RUNS); run++) {
    const turns = [...targets.entries()];
    if (run % 2 === 1) turns.reverse();
    if (run < LAYER_RUNS) {
      for (const [i, target] of turns) push[i].push(LAYER_MIB / (await pushLayer(target, run + 1)));
      for (const [i, target] of turns) pull[i].push(LAYER_MIB / (await pullLayer(target, run + 1)));
    }
    if (run >= RUNS) continue;
    for (const [i, target] of turns) {
      const url = `${target.base}/v2/${target.image}/manifests/v1`;
      const result = await measure(url, { ...target.headers, Accept: OCI_MANIFEST });
      if (result.non2xx > 0) throw new Error(`${target.name}: ${result.non2xx} manifest GETs failed`);
      manifests[i].push(result.rps);
    }
  }
  return targets.map((_, i) => ({ push: median(push[i]), pull: median(pull[i]), manifestRps: median(manifests[i]) }));
}

/** The three rows, Anvil (as `owner`, with its access token) beside docker-registry. */
export async function benchContainer(options: {
  base: string;
  owner: string;
  token: string;
  measure: Measure;
}): Promise<ContainerBenchRow[]> {
  if (!fs.existsSync(REGISTRY_BINARY)) {
    console.log(`container registry rows skipped: ${REGISTRY_BINARY} is missing (apt-get install docker-registry)`);
    return [];
  }
  const basic = `Basic ${Buffer.from(`${options.owner}:${options.token}`).toString('base64')}`;
  const issued = await fetch(`${options.base}/v2/token`, { headers: { Authorization: basic } });
  if (issued.status !== 200) throw new Error(`Anvil's /v2/token answered ${issued.status}`);
  const { token } = (await issued.json()) as { token: string };
  const anvil: Target = {
    name: 'Anvil',
    base: options.base,
    image: `${options.owner}/bench`,
    headers: { Authorization: `Bearer ${token}` },
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-bench-registry-'));
  const reference = await startReference(dir);
  try {
    const theirTarget: Target = { name: 'docker-registry', base: reference.base, image: 'bench/bench', headers: {} };
    const [ours, theirs] = await measureTargets([anvil, theirTarget], options.measure);
    const rows = [
      { name: `container blob PUT, ${LAYER_MIB} MiB layer`, ours: ours.push, theirs: theirs.push, unit: 'MiB/s' },
      {
        name: `container blob GET, ${LAYER_MIB} MiB layer${CURL ? ', curl client' : ''}`,
        ours: ours.pull,
        theirs: theirs.pull,
        unit: 'MiB/s',
      },
      { name: 'container manifest GET', ours: ours.manifestRps, theirs: theirs.manifestRps, unit: 'req/s' },
    ];
    console.log('\n| container registry | Anvil | docker-registry | ratio |\n|---|---|---|---|');
    return rows.map((row) => {
      const ratio = row.ours / row.theirs;
      console.log(
        `| ${row.name} | ${row.ours.toFixed(0)} ${row.unit} | ${row.theirs.toFixed(0)} ${row.unit} | ${ratio.toFixed(2)} |`,
      );
      return {
        name: row.name,
        measured: `${row.ours.toFixed(0)} ${row.unit}, ratio ${ratio.toFixed(2)}`,
        goal: `≥ ${GOAL.toFixed(1)}× docker-registry`,
        met: ratio >= GOAL,
      };
    });
  } finally {
    await reference.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
