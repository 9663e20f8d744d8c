// Several Anvil processes on one PostgreSQL, one Redis ([queue] TYPE=redis) and one data directory, as behind a load
// balancer. Requests alternate between two processes spawned as `node src/main.ts`: orgs, repositories and hooks
// made on one are seen on the other; a push to one is cloned from the other; a package uploaded to one downloads
// byte-exact from the other; every webhook is delivered once; a cron slot due when both start runs once; and when
// one process is killed with SIGKILL in the middle of deliveries, the other completes them.
// Package blobs and avatars live in an S3 bucket (s3rver on loopback), as [storage] STORAGE_TYPE=minio puts them.
// Needs redis-server, s3rver, and PostgreSQL (TEST_DATABASE_URL, or initdb/pg_ctl on PATH for scripts/pg-cluster.sh).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import pg from 'pg';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { gitOk, tempDir, withCredentials } from '../helpers/git-client.ts';
import { type HookReceiver, sleep, startHookReceiver } from '../helpers/hook-receiver.ts';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { REDIS_MISSING, redisServerBinary, type RedisServer, startRedisServer } from '../helpers/redis-server.ts';
import { type S3TestServer, s3ServerUnavailable, startS3Server } from '../helpers/s3-server.ts';
import { freshPostgresDatabase, type TestApp } from '../helpers/test-app.ts';

const root = path.resolve(__dirname, '../..');
const hasPostgres =
  !!process.env.TEST_DATABASE_URL ||
  spawnSync('sh', ['-c', 'command -v initdb && command -v pg_ctl'], { stdio: 'ignore' }).status === 0;
const skipReason = !redisServerBinary
  ? REDIS_MISSING
  : (s3ServerUnavailable() ??
    (!hasPostgres ? 'no PostgreSQL (set TEST_DATABASE_URL, or put initdb and pg_ctl on PATH)' : null));
if (skipReason) console.log(`scale-out test skipped: ${skipReason}`);
const describeWithEngines = skipReason ? describe.skip : describe;

/** Every regular file below a directory. */
function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** One of the two processes, named in messages. */
type NamedProcess = AnvilProcess & { readonly name: string };

describeWithEngines('two Anvil processes on PostgreSQL, Redis and one data directory', () => {
  let work: string;
  let dataDir: string;
  let database: { url: string; drop: () => Promise<void> };
  let redis: RedisServer;
  let s3: S3TestServer;
  let receiver: HookReceiver;
  let admin: TestUser;
  let a: NamedProcess;
  let b: NamedProcess;
  let sql: pg.Client;

  /** A local PostgreSQL cluster when TEST_DATABASE_URL is not set; its database is the test's. */
  async function startPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
    if (process.env.TEST_DATABASE_URL) return freshPostgresDatabase(process.env.TEST_DATABASE_URL, { empty: true });
    const clusterDir = path.join(work, 'pg');
    const script = path.join(root, 'scripts/pg-cluster.sh');
    const url = execFileSync('bash', [script, 'start', clusterDir], { encoding: 'utf8' }).trim().split('\n').pop()!;
    return { url, drop: async () => void execFileSync('bash', [script, 'stop', clusterDir], { stdio: 'ignore' }) };
  }

  function settingsEnv(port: number): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANVIL_DATA_DIR: dataDir,
      PORT: String(port),
      ANVIL_ROOT_URL: `http://127.0.0.1:${port}/`,
      DATABASE_URL: database.url,
      ANVIL__server__HTTP_ADDR: '127.0.0.1',
      ANVIL__log__LEVEL: process.env.SCALE_OUT_LOG ?? 'info',
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
      ANVIL__queue__TYPE: 'redis',
      ANVIL__queue__CONN_STR: redis.url,
      ANVIL__queue__RELAY_SWEEP_INTERVAL: '500ms',
      ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback',
      // Short enough that the requests the kill test holds on the surviving process time out and are sent again;
      // long enough that a loaded machine's stall neither times out a send that was answered nor lets a lease lapse.
      ANVIL__webhook__DELIVER_TIMEOUT: '5',
      ANVIL__webhook__DELIVERY_LEASE: '5s',
      ANVIL__webhook__RETRY_BACKOFF: '200ms',
      ANVIL__webhook__DELIVERY_CONCURRENCY: '2',
      ...s3.env(),
    };
  }

  async function startAnvil(name: string): Promise<NamedProcess> {
    return { name, ...(await startAnvilProcess(settingsEnv)) };
  }

  /** An API call to one process as the admin; the parsed body (or null) and the status. */
  async function api(
    on: NamedProcess,
    method: string,
    route: string,
    body?: unknown,
  ): Promise<{ status: number; body: any }> {
    const res = await fetch(`${on.base}api/v1${route}`, {
      method,
      headers: { Authorization: admin.auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  }

  async function ok(on: NamedProcess, method: string, route: string, body?: unknown, expected = 201): Promise<any> {
    const res = await api(on, method, route, body);
    if (res.status !== expected)
      throw new Error(`${method} ${route} on ${on.name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  const answeredOnce = (hookPath: string) => {
    const ids = receiver
      .at(hookPath)
      .filter((hook) => hook.answered === 200)
      .map((hook) => String(hook.headers['x-forgejo-delivery']));
    return { ids, unique: new Set(ids) };
  };

  async function hookTasks(hookId: number): Promise<Array<{ uuid: string; status: string }>> {
    return (await sql.query('SELECT uuid, status FROM "HookTask" WHERE "hookId" = $1 ORDER BY id', [hookId])).rows;
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-scale-'));
    dataDir = path.join(work, 'data');
    fs.mkdirSync(dataDir);
    [redis, database, receiver, s3] = await Promise.all([
      startRedisServer(),
      startPostgres(),
      startHookReceiver(),
      startS3Server(),
    ]);
    // The admin, written before the processes start (this also migrates the database once).
    const context = await bootstrap(loadSettings(settingsEnv(3000)), createLogger('silent'));
    try {
      admin = await createTestUser({ context } as TestApp, { admin: true });
    } finally {
      context.sharedRedis?.disconnect();
      await context.jobQueue.close();
      await context.db.close();
    }
    sql = new pg.Client({ connectionString: database.url });
    await sql.connect();
    // A cron slot already due when both processes start: both schedulers look at once on start, one runs it.
    await sql.query(
      `INSERT INTO "CronTask" (name, "nextRunAt") VALUES ('update_checker', now() - interval '1 second')`,
    );
    [a, b] = await Promise.all([startAnvil('a'), startAnvil('b')]);
  }, 120_000);

  afterAll(async () => {
    for (const anvil of [a, b]) anvil?.child.kill('SIGKILL');
    await sql?.end();
    await receiver?.close();
    await redis?.close();
    await s3?.stop();
    await database?.drop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('serves one state from both processes, delivers each webhook once and ran the due cron slot once', async () => {
    // Orgs made on one process are seen on the other.
    const orgName = uniqueName('scale');
    await ok(a, 'POST', '/orgs', { username: orgName });
    expect((await ok(b, 'GET', `/orgs/${orgName}`, undefined, 200)).username).toBe(orgName);
    const hook = await ok(b, 'POST', `/orgs/${orgName}/hooks`, {
      type: 'gitea',
      config: { url: `${receiver.url}/scale`, content_type: 'json' },
      events: ['repository', 'push', 'package'],
      active: true,
    });
    expect((await ok(a, 'GET', `/orgs/${orgName}/hooks/${hook.id}`, undefined, 200)).id).toBe(hook.id);
    await ok(a, 'POST', `/orgs/${orgName}/repos`, { name: 'shared' });
    expect((await ok(b, 'GET', `/repos/${orgName}/shared`, undefined, 200)).full_name).toBe(`${orgName}/shared`);

    // Push to b, clone from a: one repository root.
    const local = tempDir();
    const clone = tempDir();
    try {
      fs.writeFileSync(path.join(local, 'README.md'), '# scaled\n');
      await gitOk(['init', '-q'], local);
      await gitOk(['add', '.'], local);
      await gitOk(['commit', '-q', '-m', 'first'], local);
      const head = (await gitOk(['rev-parse', 'HEAD'], local)).trim();
      await gitOk(
        ['push', '-q', `${withCredentials(b.base, admin.user.name, admin.token)}${orgName}/shared.git`, 'main'],
        local,
      );
      await gitOk([
        'clone',
        '-q',
        `${withCredentials(a.base, admin.user.name, admin.token)}${orgName}/shared.git`,
        clone,
      ]);
      expect((await gitOk(['rev-parse', 'HEAD'], clone)).trim()).toBe(head);
      expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe('# scaled\n');
    } finally {
      fs.rmSync(local, { recursive: true, force: true });
      fs.rmSync(clone, { recursive: true, force: true });
    }

    // Upload a package to a, download it from b, byte for byte.
    const bytes = randomBytes(300 * 1024);
    const packageUrl = (on: NamedProcess) => `${on.base}api/packages/${orgName}/generic/blob/1.0.0/blob.bin`;
    const put = await fetch(packageUrl(a), {
      method: 'PUT',
      headers: { Authorization: admin.auth, 'Content-Type': 'application/octet-stream' },
      body: bytes,
    });
    expect(put.status).toBe(201);
    const got = await fetch(packageUrl(b), { headers: { Authorization: admin.auth } });
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // The bytes live in the bucket, under their SHA-256, and nowhere in the shared data directory.
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    expect(await s3.keys('packages/')).toContain(`packages/${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}`);
    expect(filesUnder(dataDir).filter((file) => fs.readFileSync(file).equals(bytes))).toEqual([]);

    // Each webhook (repository created, push, package) delivered once, whichever process sent it.
    await receiver.until(() => answeredOnce('/scale').unique.size >= 3, 30_000);
    await sleep(1000);
    const tasks = await hookTasks(hook.id);
    expect(tasks.length).toBeGreaterThanOrEqual(3);
    expect(tasks.every((task) => task.status === 'delivered')).toBe(true);
    const { ids, unique } = answeredOnce('/scale');
    expect(ids).toHaveLength(tasks.length);
    expect(unique).toEqual(new Set(tasks.map((task) => task.uuid)));
    expect(
      receiver
        .at('/scale')
        .map((hook) => hook.headers['x-forgejo-event'])
        .sort(),
    ).toEqual(['package', 'push', 'repository']);

    // The cron slot that was due at start ran once, and its next run moved on a week.
    for (const on of [a, b]) {
      const [task] = (await ok(on, 'GET', '/admin/cron', undefined, 200)).filter(
        (row: { name: string }) => row.name === 'update_checker',
      );
      expect(task.exec_times).toBe(1);
      expect(new Date(task.next).getTime()).toBeGreaterThan(Date.now() + 24 * 3600_000);
    }
  }, 120_000);

  it('completes on the surviving process the deliveries of a process killed in the middle of them', async () => {
    const orgName = uniqueName('kill');
    await ok(b, 'POST', '/orgs', { username: orgName });
    const hook = await ok(a, 'POST', `/orgs/${orgName}/hooks`, {
      type: 'gitea',
      config: { url: `${receiver.url}/kill`, content_type: 'json' },
      events: ['repository'],
      active: true,
    });
    // The receiver holds every delivery open: each process takes at most 2 (DELIVERY_CONCURRENCY), so with 4 held
    // both hold some.
    receiver.respond = (received) => (received.path === '/kill' ? 'hold' : 200);
    for (let i = 0; i < 4; i++) await ok(i % 2 === 0 ? a : b, 'POST', `/orgs/${orgName}/repos`, { name: `r${i}` });
    await receiver.until((received) => received.filter((hook) => hook.path === '/kill').length >= 4, 30_000);

    const queue = new Queue('webhook_sender_queue', {
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: 'anvil',
    });
    try {
      const active = await queue.getJobs(['active']);
      const pidOf = (holder: string | undefined) => Number(holder?.split(':')[1]);
      const heldByA = active.filter((job) => pidOf(job.processedBy) === a.child.pid).map((job) => job.id!);
      expect(heldByA.length).toBeGreaterThan(0);
      a.child.kill('SIGKILL');
      await new Promise((resolve) => (a.child.exitCode !== null ? resolve(null) : a.child.once('exit', resolve)));

      receiver.respond = () => 200;
      await receiver.until(() => answeredOnce('/kill').unique.size === 4, 45_000);
      await sleep(1000);
      const { ids, unique } = answeredOnce('/kill');
      expect(ids).toHaveLength(4);
      expect((await hookTasks(hook.id)).map((task) => task.status)).toEqual([
        'delivered',
        'delivered',
        'delivered',
        'delivered',
      ]);
      expect(unique).toEqual(new Set((await hookTasks(hook.id)).map((task) => task.uuid)));
      // The jobs a held were finished by b.
      for (const id of heldByA) {
        const job = await queue.getJob(id);
        expect(await job?.getState()).toBe('completed');
        expect(pidOf(job?.processedBy)).toBe(b.child.pid);
      }
    } finally {
      await queue.close();
    }
  }, 120_000);
});
