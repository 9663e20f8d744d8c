// Deliveries are durable: a server killed with SIGKILL while deliveries are queued and in flight delivers every
// one after a restart, and none twice once it was answered with success.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { createTestOrg, createTestUser } from '../helpers/factories.ts';
import { type HookReceiver, sleep, startHookReceiver } from '../helpers/hook-receiver.ts';
import type { TestApp } from '../helpers/test-app.ts';

const REPOS = 6;
let dataDir: string;
let receiver: HookReceiver;
let server: AnvilProcess | null = null;

/** The server's settings on a port; the data written before it starts goes to the same place. */
function serverEnv(port: number): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANVIL_DATA_DIR: dataDir,
    PORT: String(port),
    ANVIL_ROOT_URL: `http://127.0.0.1:${port}/`,
    ANVIL__server__HTTP_ADDR: '127.0.0.1',
    ANVIL__cron__ENABLED: 'false',
    ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback',
    // Generous: a loaded machine's stall must not time out a send that was answered, nor let a lease lapse.
    ANVIL__webhook__DELIVER_TIMEOUT: '30',
    ANVIL__webhook__DELIVERY_LEASE: '5s',
    ANVIL__webhook__RETRY_BACKOFF: '200ms',
    ANVIL__webhook__QUEUE_POLL_INTERVAL: '100ms',
    ANVIL__webhook__DELIVERY_CONCURRENCY: '2',
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-restart-'));
  receiver = await startHookReceiver();
});
afterAll(async () => {
  server?.child.kill('SIGKILL');
  await receiver.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

it('delivers every queued delivery after a SIGKILL and restart, each answered once', async () => {
  // The data: a user, an org and its hook, written before the server starts (through settings with no port).
  const context = await bootstrap(loadSettings(serverEnv(0)), createLogger('silent'));
  const fake = { context } as TestApp;
  const owner = await createTestUser(fake);
  const org = await createTestOrg(fake, owner.user);
  await context.services.webhooks.createOrg(org, {
    type: 'forgejo',
    config: { url: `${receiver.url}/durable`, content_type: 'json' },
    events: ['repository'],
    active: true,
  });
  await context.db.close();

  // The receiver holds every request: two deliveries are in flight, the rest wait in the queue.
  receiver.respond = () => 'hold';
  server = await startAnvilProcess(serverEnv);
  for (let i = 0; i < REPOS; i++) {
    const res = await fetch(`${server.base}api/v1/orgs/${org.name}/repos`, {
      method: 'POST',
      headers: { Authorization: owner.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `r${i}` }),
    });
    expect(res.status).toBe(201);
  }
  await receiver.until((received) => received.length >= 2);
  server.child.kill('SIGKILL');
  await server.exited;
  const beforeRestart = new Set(receiver.received.map((hook) => hook.headers['x-forgejo-delivery']));
  expect(beforeRestart.size).toBeLessThan(REPOS);

  receiver.respond = () => 200;
  server = await startAnvilProcess(serverEnv);
  const succeeded = () => receiver.received.filter((hook) => hook.answered === 200);
  await receiver.until(
    () => new Set(succeeded().map((hook) => hook.headers['x-forgejo-delivery'])).size === REPOS,
    30_000,
  );
  await sleep(1500);
  const ids = succeeded().map((hook) => String(hook.headers['x-forgejo-delivery']));
  expect(new Set(ids).size).toBe(REPOS);
  expect(ids).toHaveLength(REPOS);
  expect(
    succeeded()
      .map((hook) => JSON.parse(hook.body.toString()).repository.name)
      .sort(),
  ).toEqual(Array.from({ length: REPOS }, (_, i) => `r${i}`));

  server.child.kill('SIGTERM');
  await server.exited;
  server = null;
  const after = await bootstrap(loadSettings(serverEnv(0)), createLogger('silent'));
  try {
    const tasks = await after.db.prisma.hookTask.findMany();
    expect(tasks.map((task) => task.status)).toEqual(Array(REPOS).fill('delivered'));
    expect(await after.db.prisma.job.count()).toBe(0);
  } finally {
    await after.db.close();
  }
}, 90_000);
