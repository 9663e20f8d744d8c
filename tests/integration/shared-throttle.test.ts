// The sign-in throttle shared by several processes: with [queue] TYPE=redis, two Anvil processes spawned from dist/
// count failed password sign-ins in the same Redis, so failures through one are refused by the other; when that
// Redis goes away, each process falls back to its own counts and answers instead of failing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { REDIS_MISSING, redisServerBinary, type RedisServer, startRedisServer } from '../helpers/redis-server.ts';

if (!redisServerBinary) console.log(`shared throttle test skipped: ${REDIS_MISSING}`);
const describeWithRedis = redisServerBinary ? describe : describe.skip;

/** A password sign-in that fails (or is refused unchecked): its status. */
async function failSignIn(on: AnvilProcess, account: string): Promise<number> {
  const res = await fetch(`${on.base}api/v1/user`, {
    headers: { Authorization: `Basic ${Buffer.from(`${account}:wrong-password`).toString('base64')}` },
  });
  await res.arrayBuffer();
  return res.status;
}

describeWithRedis('two processes on one Redis', () => {
  let redis: RedisServer;
  const dataDirs: string[] = [];
  let a: AnvilProcess;
  let b: AnvilProcess;

  const start = () => {
    // Each process has its own data directory and SQLite database: only Redis is shared, and the throttle counts
    // unknown account names as it counts known ones.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-throttle-'));
    dataDirs.push(dataDir);
    return startAnvilProcess((port) => ({
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ANVIL_DATA_DIR: dataDir,
      PORT: String(port),
      ANVIL__server__HTTP_ADDR: '127.0.0.1',
      ANVIL__cron__ENABLED: 'false',
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
      ANVIL__security__PASSWORD_FAILURES_PER_ACCOUNT: '3',
      ANVIL__security__PASSWORD_FAILURES_PER_ADDRESS: '6',
      ANVIL__security__PASSWORD_FAILURE_WINDOW_SECONDS: '600',
      ANVIL__queue__TYPE: 'redis',
      ANVIL__queue__CONN_STR: redis.url,
    }));
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    [a, b] = await Promise.all([start(), start()]);
  }, 120_000);
  afterAll(async () => {
    for (const server of [a, b]) server?.child.kill('SIGKILL');
    await Promise.all([a?.exited, b?.exited]);
    await redis?.close();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an account in one process after its failures through the other', async () => {
    expect(await failSignIn(a, 'victim')).toBe(401);
    expect(await failSignIn(b, 'victim')).toBe(401);
    expect(await failSignIn(a, 'victim')).toBe(401);
    // Three failures in all: each process alone has seen fewer than its limit of three.
    expect(await failSignIn(b, 'victim')).toBe(429);
    expect(await failSignIn(a, 'VICTIM')).toBe(429);
  });

  it('refuses an address in one process after its failures through the other', async () => {
    // The three counted failures above came from this address too; three more over other names reach its six.
    expect(await failSignIn(b, 'other-1')).toBe(401);
    expect(await failSignIn(a, 'other-2')).toBe(401);
    expect(await failSignIn(b, 'other-3')).toBe(401);
    const refused = await fetch(`${a.base}api/v1/user`, {
      headers: { Authorization: `Basic ${Buffer.from('other-4:wrong').toString('base64')}` },
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(await failSignIn(b, 'other-5')).toBe(429);
  });

  it('keeps answering on its own counts while Redis is away', async () => {
    await redis.stop();
    try {
      // This process's memory has none of the failures Redis held: a fresh name is checked, and answered.
      expect(await failSignIn(a, 'while-away')).toBe(401);
      const output = a.output();
      expect(output).not.toMatch(/"level":50/);
      expect(output).not.toMatch(/Unhandled error event/);
      expect(output.match(/the shared redis does not answer/g)).toHaveLength(1);
    } finally {
      await redis.start();
    }
  });
});
