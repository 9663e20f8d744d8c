// Two Anvil processes on one PostgreSQL and one Redis ([queue] TYPE=redis), each keeping its own cache of token and
// owner lookups: a change made through one process is seen by the other on its very next request, though both had
// just answered from their caches. Needs redis-server and PostgreSQL (TEST_DATABASE_URL, or initdb/pg_ctl on PATH).
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';
import { basicAuth, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { REDIS_MISSING, redisServerBinary, type RedisServer, startRedisServer } from '../helpers/redis-server.ts';
import { freshPostgresDatabase, type TestApp } from '../helpers/test-app.ts';

const root = path.resolve(__dirname, '../..');
const hasPostgres =
  !!process.env.TEST_DATABASE_URL ||
  spawnSync('sh', ['-c', 'command -v initdb && command -v pg_ctl'], { stdio: 'ignore' }).status === 0;
const skipReason = !redisServerBinary
  ? REDIS_MISSING
  : !hasPostgres
    ? 'no PostgreSQL (set TEST_DATABASE_URL, or put initdb and pg_ctl on PATH)'
    : null;
if (skipReason) console.log(`lookup cache scale-out test skipped: ${skipReason}`);
const describeWithEngines = skipReason ? describe.skip : describe;

describeWithEngines('the lookup caches of two processes on PostgreSQL and Redis', () => {
  let work: string;
  let dataDir: string;
  let database: { url: string; drop: () => Promise<void> };
  let redis: RedisServer;
  let admin: TestUser;
  let a: AnvilProcess;
  let b: AnvilProcess;

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
      ANVIL__log__LEVEL: 'info',
      ANVIL__cron__ENABLED: 'false',
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
      ANVIL__queue__TYPE: 'redis',
      ANVIL__queue__CONN_STR: redis.url,
    };
  }

  async function call(
    on: AnvilProcess,
    method: string,
    route: string,
    authorization?: string,
    body?: unknown,
  ): Promise<Response> {
    const headers: Record<string, string> = authorization ? { Authorization: authorization } : {};
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    return fetch(`${on.base}api/v1${route}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
    });
  }

  /** The status of a request; the body is read and dropped. */
  async function status(on: AnvilProcess, method: string, route: string, authorization?: string, body?: unknown) {
    const res = await call(on, method, route, authorization, body);
    await res.arrayBuffer();
    return res.status;
  }

  /** The same GET twice on each process, all 200: the second of each is answered from that process's cache. */
  async function cachedOnBoth(route: string, authorization?: string): Promise<void> {
    for (const on of [a, b, a, b]) expect(await status(on, 'GET', route, authorization)).toBe(200);
  }

  /** A user made through the admin API on process a, who signs in with a password. */
  async function newUser(): Promise<{ name: string; password: string }> {
    const name = uniqueName('cached');
    const password = 'password-of-' + name;
    const body = { username: name, email: `${name}@example.com`, password, must_change_password: false };
    expect(await status(a, 'POST', '/admin/users', admin.auth, body)).toBe(201);
    return { name, password };
  }

  /** A token of the user, made on process a. */
  async function newToken(user: { name: string; password: string }): Promise<{ name: string; sha1: string }> {
    const name = uniqueName('token');
    const res = await call(a, 'POST', `/users/${user.name}/tokens`, basicAuth(user.name, user.password), {
      name,
      scopes: ['all'],
    });
    expect(res.status).toBe(201);
    return { name, sha1: ((await res.json()) as { sha1: string }).sha1 };
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-lookup-cache-'));
    dataDir = path.join(work, 'data');
    [redis, database] = await Promise.all([startRedisServer(), startPostgres()]);
    const context = await bootstrap(loadSettings(settingsEnv(3000)), createLogger('silent'));
    try {
      admin = await createTestUser({ context } as TestApp, { admin: true });
    } finally {
      context.sharedRedis?.disconnect();
      await context.jobQueue.close();
      await context.db.close();
    }
    [a, b] = await Promise.all([startAnvilProcess(settingsEnv), startAnvilProcess(settingsEnv)]);
  }, 120_000);

  afterAll(async () => {
    for (const anvil of [a, b]) anvil?.child.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited]);
    await database?.drop();
    await redis?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('refuses a token deleted through one process at once on both', async () => {
    const user = await newUser();
    const token = await newToken(user);
    await cachedOnBoth('/user', `token ${token.sha1}`);
    expect(
      await status(a, 'DELETE', `/users/${user.name}/tokens/${token.name}`, basicAuth(user.name, user.password)),
    ).toBe(204);
    expect(await status(b, 'GET', '/user', `token ${token.sha1}`)).toBe(401);
    expect(await status(a, 'GET', '/user', `token ${token.sha1}`)).toBe(401);
  });

  it("refuses a deleted user's token at once on the process that did not delete it", async () => {
    const user = await newUser();
    const token = await newToken(user);
    await cachedOnBoth('/user', `token ${token.sha1}`);
    expect(await status(b, 'DELETE', `/admin/users/${user.name}`, admin.auth)).toBe(204);
    expect(await status(a, 'GET', '/user', `token ${token.sha1}`)).toBe(401);
    expect(await status(b, 'GET', '/user', `token ${token.sha1}`)).toBe(401);
  });

  it('serves a user renamed through one process under the old name only as the redirect, on both', async () => {
    const user = await newUser();
    const newName = uniqueName('renamed');
    await cachedOnBoth(`/users/${user.name}`, admin.auth);
    expect(await status(a, 'POST', `/admin/users/${user.name}/rename`, admin.auth, { new_username: newName })).toBe(
      204,
    );
    const old = await call(b, 'GET', `/users/${user.name}`, admin.auth);
    await old.arrayBuffer();
    expect(old.status).toBe(307);
    expect(old.headers.get('location')).toBe(`/api/v1/users/${newName}`);
  });

  it('hides an organization made private through one process at once on the other', async () => {
    const org = uniqueName('org');
    expect(await status(a, 'POST', '/orgs', admin.auth, { username: org })).toBe(201);
    await cachedOnBoth(`/orgs/${org}`);
    expect(await status(a, 'PATCH', `/orgs/${org}`, admin.auth, { visibility: 'private' })).toBe(200);
    expect(await status(b, 'GET', `/orgs/${org}`)).toBe(404);
  });

  it('refuses a collaborator removed through one process at once on the other', async () => {
    const org = uniqueName('org');
    const repo = uniqueName('repo');
    expect(await status(a, 'POST', '/orgs', admin.auth, { username: org })).toBe(201);
    expect(await status(a, 'POST', `/orgs/${org}/repos`, admin.auth, { name: repo, private: true })).toBe(201);
    const user = await newUser();
    const collaborator = `/repos/${org}/${repo}/collaborators/${user.name}`;
    expect(await status(a, 'PUT', collaborator, admin.auth, { permission: 'read' })).toBe(204);
    await cachedOnBoth(`/repos/${org}/${repo}`, basicAuth(user.name, user.password));
    expect(await status(a, 'DELETE', collaborator, admin.auth)).toBe(204);
    expect(await status(b, 'GET', `/repos/${org}/${repo}`, basicAuth(user.name, user.password))).toBe(404);
  });
});
