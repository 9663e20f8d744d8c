// SIGTERM lets work in flight finish: the server (a child process, as `npm start` runs it) refuses new
// connections at once, completes a package upload that is still streaming and a webhook delivery still waiting
// for its answer, longer than the 5 s an earlier version allowed, then exits 0 with nothing left leased. Past
// [server] GRACEFUL_HAMMER_TIME it gives up instead, hands the delivery's lease back, and exits 1.
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bootstrap } from '../../src/app/bootstrap.ts';
import { loadSettings } from '../../src/config/settings.ts';
import { createLogger } from '../../src/infra/observability/logger.ts';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { createTestOrg, createTestUser } from '../helpers/factories.ts';
import type { TestApp } from '../helpers/test-app.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const GENEROUS_MS = 30_000;

let dataDir: string;
let anvil: AnvilProcess | null = null;
let receiver: http.Server;
/** How long the receiver takes to answer a delivery; Infinity never answers. */
let answerAfterMs = 0;
const deliveries: Array<{ answered: boolean }> = [];

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + GENEROUS_MS;
  while (!(await condition())) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not within ${GENEROUS_MS} ms; server output:\n${anvil?.output() ?? ''}`);
    await sleep(50);
  }
}

/** Whether a new connection to the port is refused. */
function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

interface RunningServer {
  base: string;
  port: number;
  /** Its settings, for opening its data after it stopped. */
  env: NodeJS.ProcessEnv;
  owner: Awaited<ReturnType<typeof createTestUser>>;
  orgName: string;
  /** The exit code, or 'still running' after a generous wait. */
  exitCode(): Promise<number | null | 'still running'>;
  output(): string;
}

/** An owner, an organization with a hook to the receiver, written before the server starts; then the server. */
async function startServer(settings: Record<string, string>): Promise<RunningServer> {
  const envOn = (port: number): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    ANVIL_DATA_DIR: dataDir,
    PORT: String(port),
    ANVIL_ROOT_URL: `http://127.0.0.1:${port}/`,
    ANVIL__server__HTTP_ADDR: '127.0.0.1',
    ANVIL__cron__ENABLED: 'false',
    ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback',
    ANVIL__webhook__DELIVER_TIMEOUT: '20',
    ANVIL__webhook__QUEUE_POLL_INTERVAL: '100ms',
    ...settings,
  });
  // The data goes in through settings with no port.
  const env = envOn(0);
  const setup = await bootstrap(loadSettings(env), createLogger('silent'));
  const owner = await createTestUser({ context: setup } as TestApp);
  const org = await createTestOrg({ context: setup } as TestApp, owner.user);
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as net.AddressInfo).port}/hook`;
  await setup.services.webhooks.createOrg(org, {
    type: 'forgejo',
    config: { url: receiverUrl, content_type: 'json' },
    events: ['repository'],
    active: true,
  });
  await setup.db.close();

  const started = await startAnvilProcess(envOn);
  anvil = started;
  return {
    base: started.base,
    port: started.port,
    env,
    owner,
    orgName: org.name,
    output: started.output,
    async exitCode() {
      let timer: NodeJS.Timeout | undefined;
      const gaveUp = new Promise<'still running'>(
        (resolve) => (timer = setTimeout(() => resolve('still running'), GENEROUS_MS)),
      );
      const code = await Promise.race([started.exited, gaveUp]);
      clearTimeout(timer);
      if (code !== 'still running') anvil = null;
      return code;
    },
  };
}

/** Creates a repository in the organization, which queues a delivery, and waits until it reaches the receiver. */
async function deliveryInFlight(server: RunningServer): Promise<void> {
  const before = deliveries.length;
  const created = await fetch(`${server.base}api/v1/orgs/${server.orgName}/repos`, {
    method: 'POST',
    headers: { Authorization: server.owner.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'announced' }),
  });
  expect(created.status).toBe(201);
  await until(() => deliveries.length === before + 1, 'the delivery reaches the receiver');
}

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const delivery = { answered: false };
    deliveries.push(delivery);
    req.resume();
    req.on('end', () => {
      if (answerAfterMs === Infinity) return;
      setTimeout(() => {
        delivery.answered = true;
        res.end('ok');
      }, answerAfterMs);
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-shutdown-'));
});
afterEach(() => {
  anvil?.child.kill('SIGKILL');
  anvil = null;
  fs.rmSync(dataDir, { recursive: true, force: true });
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

it('finishes an upload and a delivery in flight, refuses new connections, and exits 0', async () => {
  answerAfterMs = 6500;
  const server = await startServer({ ANVIL__server__GRACEFUL_HAMMER_TIME: '60s' });
  await deliveryInFlight(server);
  const delivery = deliveries[deliveries.length - 1];

  // A package upload in flight: its body is still streaming when SIGTERM arrives, and for 6 s after.
  const chunks = Array.from({ length: 10 }, (_, i) => Buffer.alloc(4096, i));
  const upload = http.request(`${server.base}api/packages/${server.owner.user.name}/generic/slow/1.0.0/slow.bin`, {
    method: 'PUT',
    agent: false,
    headers: {
      Authorization: server.owner.auth,
      'Content-Type': 'application/octet-stream',
      'Content-Length': 4096 * chunks.length,
    },
  });
  const uploaded = new Promise<number>((resolve, reject) => {
    upload.once('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    upload.once('error', reject);
  });
  upload.write(chunks[0]);
  await sleep(300);

  anvil!.child.kill('SIGTERM');
  await until(() => refused(server.port), 'new connections are refused');
  expect(delivery.answered).toBe(false);
  for (const chunk of chunks.slice(1)) {
    await sleep(650);
    upload.write(chunk);
  }
  upload.end();
  expect(await uploaded).toBe(201);

  expect({ code: await server.exitCode(), output: server.output() }).toEqual({ code: 0, output: expect.any(String) });
  expect(delivery.answered).toBe(true);

  const after = await bootstrap(loadSettings(server.env), createLogger('silent'));
  try {
    const { prisma } = after.db;
    expect((await prisma.hookTask.findMany()).map((task) => task.status)).toEqual(['delivered']);
    expect(await prisma.job.count()).toBe(0);
    const file = await prisma.packageFile.findFirstOrThrow({
      where: { lowerName: 'slow.bin' },
      include: { blob: true },
    });
    expect(Number(file.blob.size)).toBe(4096 * chunks.length);
  } finally {
    await after.db.close();
  }
}, 120_000);

it('past GRACEFUL_HAMMER_TIME hands the lease of an unfinished delivery back and exits 1', async () => {
  answerAfterMs = Infinity;
  const server = await startServer({ ANVIL__server__GRACEFUL_HAMMER_TIME: '1s' });
  await deliveryInFlight(server);
  anvil!.child.kill('SIGTERM');
  expect(await server.exitCode()).toBe(1);

  const after = await bootstrap(loadSettings(server.env), createLogger('silent'));
  try {
    const jobs = await after.db.prisma.job.findMany();
    // Queued again for any process, at once, its interrupted attempt not counted.
    expect(jobs.map(({ leasedBy, leasedUntil, attempts }) => ({ leasedBy, leasedUntil, attempts }))).toEqual([
      { leasedBy: '', leasedUntil: null, attempts: 0 },
    ]);
    expect((await after.db.prisma.hookTask.findMany()).map((task) => task.status)).toEqual(['pending']);
  } finally {
    await after.db.close();
  }
}, 120_000);
