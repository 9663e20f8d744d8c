// The skopeo round trip of container-skopeo.test.ts where the bytes live in an S3 bucket ([storage] STORAGE_TYPE=
// minio, the s3rver the scale-out tests start), first behind one process on SQLite, then behind two processes on
// PostgreSQL, Redis and one bucket that answer at one address (a TCP proxy in front, as a load balancer): a layer
// pushed through one process is pulled through the other, a chunked upload started on one is continued and
// finished on the other, and a multi-platform index copied with connections spread over both comes back the same.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { createTestUser } from '../helpers/factories.ts';
import { REDIS_MISSING, redisServerBinary, type RedisServer, startRedisServer } from '../helpers/redis-server.ts';
import { type S3TestServer, s3ServerUnavailable, startS3Server } from '../helpers/s3-server.ts';
import { hasSkopeo, Layout, layoutDigests, run, sha256, skopeoIn } from '../helpers/skopeo.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';
import { freshPostgresDatabase, type TestApp } from '../helpers/test-app.ts';

const root = path.resolve(__dirname, '../..');
const hasPostgres =
  !!process.env.TEST_DATABASE_URL ||
  spawnSync('sh', ['-c', 'command -v initdb && command -v pg_ctl'], { stdio: 'ignore' }).status === 0;
const s3Missing = !hasSkopeo ? 'skopeo is not installed (apt-get install skopeo)' : s3ServerUnavailable();
const scaleMissing =
  s3Missing ??
  (!redisServerBinary ? REDIS_MISSING : !hasPostgres ? 'no PostgreSQL (set TEST_DATABASE_URL, or initdb)' : null);
if (s3Missing) console.log(`container S3 test skipped: ${s3Missing}`);
if (scaleMissing) console.log(`container two-process test skipped: ${scaleMissing}`);

const BASE_ENV = {
  ANVIL__server__HTTP_ADDR: '127.0.0.1',
  ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
};

/** The S3 key a blob's bytes are kept under. */
const bucketKey = (digest: string) => {
  const hex = digest.replace(/^sha256:/, '');
  return `packages/${hex.slice(0, 2)}/${hex.slice(2, 4)}/${hex}`;
};

const layerBytes = (layoutDir: string, digest: string) =>
  fs.readFileSync(path.join(layoutDir, 'blobs', 'sha256', digest.replace(/^sha256:/, '')));

/** Every regular file below a directory. */
const filesUnder = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));

(s3Missing ? describe.skip : describe)('skopeo against one Anvil keeping its blobs in S3', () => {
  let work: string;
  let s3: S3TestServer;
  let server: AnvilProcess;
  let creds: string;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-skopeo-s3-'));
    s3 = await startS3Server();
    const env: NodeJS.ProcessEnv = { ...process.env, ...BASE_ENV, ANVIL_DATA_DIR: path.join(work, 'data') };
    delete env.DATABASE_URL;
    const { stdout } = await run(
      process.execPath,
      [
        'dist/src/cli.js',
        ...['admin', 'user', 'create', '--username', 'alice', '--password', 'alice-password'],
        ...['--email', 'alice@example.com', '--must-change-password=false', '--access-token'],
      ],
      { cwd: root, env },
    );
    creds = `alice:${stdout.trim().split('\n').pop()!}`;
    server = await startAnvilProcess((port) => ({
      ...env,
      ...s3.env(),
      PORT: String(port),
      ANVIL_ROOT_URL: `http://127.0.0.1:${port}/`,
    }));
  }, 120_000);

  afterAll(async () => {
    server?.child.kill();
    await s3?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('copies an image there and back with the same digests, its layer kept in the bucket only', async () => {
    const client = skopeoIn(work);
    const registry = `127.0.0.1:${server.port}`;
    const layout = new Layout(path.join(work, 'src'));
    const image = layout.image('amd64');
    layout.tag(image, 'v1');
    await client.push(layout.dir, 'v1', registry, 'alice/app:v1', creds);
    const [layer] = layout.layers;
    expect(await s3.keys('packages/')).toContain(bucketKey(layer.digest));
    const layerFile = layerBytes(layout.dir, layer.digest);
    expect(filesUnder(path.join(work, 'data')).filter((file) => fs.readFileSync(file).equals(layerFile))).toEqual([]);

    expect(`sha256:${sha256(Buffer.from(await client.raw(registry, 'alice/app:v1', ['--creds', creds])))}`).toBe(
      image.digest,
    );
    const back = path.join(work, 'back');
    await client.pull(registry, 'alice/app:v1', ['--src-creds', creds], back, 'v1');
    expect(layoutDigests(back)).toEqual([image.digest]);
    expect(layerBytes(back, layer.digest).equals(layerBytes(layout.dir, layer.digest))).toBe(true);
  }, 120_000);
});

(scaleMissing ? describe.skip : describe)('skopeo against two Anvil processes behind one address', () => {
  let work: string;
  let database: { url: string; drop: () => Promise<void> };
  let redis: RedisServer;
  let s3: S3TestServer;
  let proxy: TcpProxy;
  let processes: AnvilProcess[] = [];
  let creds: string;
  let authorization: string;
  let registry: string;

  async function startPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
    if (process.env.TEST_DATABASE_URL) return freshPostgresDatabase(process.env.TEST_DATABASE_URL, { empty: true });
    const clusterDir = path.join(work, 'pg');
    const script = path.join(root, 'scripts/pg-cluster.sh');
    const url = execFileSync('bash', [script, 'start', clusterDir], { encoding: 'utf8' }).trim().split('\n').pop()!;
    return { url, drop: async () => void execFileSync('bash', [script, 'stop', clusterDir], { stdio: 'ignore' }) };
  }

  /** Both processes name the proxy as their root: the token realm they announce is the one address. */
  function settingsEnv(port: number): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...BASE_ENV,
      ANVIL_DATA_DIR: path.join(work, 'data'),
      PORT: String(port),
      ANVIL_ROOT_URL: `http://127.0.0.1:${proxy.port}/`,
      DATABASE_URL: database.url,
      ANVIL__queue__TYPE: 'redis',
      ANVIL__queue__CONN_STR: redis.url,
      ...s3.env(),
    };
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-skopeo-scale-'));
    fs.mkdirSync(path.join(work, 'data'));
    [redis, database, s3, proxy] = await Promise.all([
      startRedisServer(),
      startPostgres(),
      startS3Server(),
      startTcpProxy(),
    ]);
    const context = await bootstrap(loadSettings(settingsEnv(3000)), createLogger('silent'));
    try {
      const admin = await createTestUser({ context } as TestApp, { admin: true });
      creds = `${admin.user.name}:${admin.token}`;
      authorization = admin.auth;
    } finally {
      context.sharedRedis?.disconnect();
      await context.jobQueue.close();
      await context.db.close();
    }
    processes = await Promise.all([startAnvilProcess(settingsEnv), startAnvilProcess(settingsEnv)]);
    proxy.backends = processes.map((anvil) => anvil.port);
    registry = `127.0.0.1:${proxy.port}`;
  }, 120_000);

  afterAll(async () => {
    for (const anvil of processes) anvil.child.kill('SIGKILL');
    await proxy?.close();
    await redis?.close();
    await s3?.stop();
    await database?.drop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  const owner = () => creds.split(':')[0];

  it('pulls through one process the image pushed through the other', async () => {
    const client = skopeoIn(work);
    const layout = new Layout(path.join(work, 'pushed'));
    const image = layout.image('amd64');
    layout.tag(image, 'v1');
    const [layer] = layout.layers;

    proxy.route = 0;
    await client.push(layout.dir, 'v1', registry, `${owner()}/app:v1`, creds);
    expect(proxy.sent[1] ?? 0).toBe(0);
    expect(await s3.keys('packages/')).toContain(bucketKey(layer.digest));

    proxy.route = 1;
    const back = path.join(work, 'pulled');
    await client.pull(registry, `${owner()}/app:v1`, ['--src-creds', creds], back, 'v1');
    expect(proxy.sent[1]).toBeGreaterThan(0);
    expect(layoutDigests(back)).toEqual([image.digest]);
    expect(layerBytes(back, layer.digest).equals(layerBytes(layout.dir, layer.digest))).toBe(true);
  }, 120_000);

  it('finishes on one process a chunked upload started and continued on the other', async () => {
    const [a, b] = processes;
    const bytes = randomBytes(3 * 1024 * 1024);
    const digest = `sha256:${sha256(bytes)}`;
    const image = `${owner()}/chunked`;
    const send = (on: AnvilProcess, method: string, location: string, body?: Buffer, range?: string) =>
      fetch(new URL(location, on.base), {
        method,
        headers: {
          Authorization: authorization,
          ...(body ? { 'Content-Type': 'application/octet-stream' } : {}),
          ...(range ? { 'Content-Range': range } : {}),
        },
        body,
      });
    const started = await send(a, 'POST', `/v2/${image}/blobs/uploads/`);
    expect(started.status).toBe(202);
    let location = started.headers.get('location')!;
    const half = bytes.length / 2;
    const first = await send(b, 'PATCH', location, bytes.subarray(0, half), `0-${half - 1}`);
    expect([first.status, first.headers.get('range')]).toEqual([202, `0-${half - 1}`]);
    location = first.headers.get('location')!;
    const second = await send(a, 'PATCH', location, bytes.subarray(half), `${half}-${bytes.length - 1}`);
    expect([second.status, second.headers.get('range')]).toEqual([202, `0-${bytes.length - 1}`]);
    location = second.headers.get('location')!;
    const finished = await send(b, 'PUT', `${location}${location.includes('?') ? '&' : '?'}digest=${digest}`);
    expect([finished.status, finished.headers.get('docker-content-digest')]).toEqual([201, digest]);

    for (const on of [a, b]) {
      const got = await send(on, 'GET', `/v2/${image}/blobs/${digest}`);
      expect(got.status).toBe(200);
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    }
    expect(await s3.keys('packages/')).toContain(bucketKey(digest));
  }, 120_000);

  it('copies a multi-platform index there and back over connections spread on both processes', async () => {
    const client = skopeoIn(work);
    const layout = new Layout(path.join(work, 'multi'));
    const index = layout.index([layout.image('amd64'), layout.image('arm64')]);
    layout.tag(index, 'v1');
    proxy.route = 'alternate';
    const before = [...proxy.sent];
    await client.push(layout.dir, 'v1', registry, `${owner()}/multi:v1`, creds, ['--all']);
    const back = path.join(work, 'multi-back');
    await client.pull(registry, `${owner()}/multi:v1`, ['--src-creds', creds], back, 'v1', ['--all']);
    expect(proxy.sent.map((count, i) => count - (before[i] ?? 0)).every((count) => count > 0)).toBe(true);
    expect(layoutDigests(back)).toEqual([index.digest]);
    for (const layer of layout.layers) {
      expect(layerBytes(back, layer.digest).equals(layerBytes(layout.dir, layer.digest))).toBe(true);
    }
  }, 120_000);
});
