// Webhook deliveries on [queue] TYPE=redis: the delivery rows are the outbox, relayed to BullMQ after commit; each
// delivery is made once, retries go through BullMQ, and a Redis that is down while changes are acknowledged loses
// nothing: once it is back, the relay moves what waited in the database and the deliveries are made.
import { Queue } from 'bullmq';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { type HookReceiver, sleep, startHookReceiver } from '../helpers/hook-receiver.ts';
import { REDIS_MISSING, redisServerBinary, type RedisServer, startRedisServer } from '../helpers/redis-server.ts';
import { startSecondApp, type SecondApp } from '../helpers/second-app.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

if (!redisServerBinary) console.log(`webhook deliveries through Redis skipped: ${REDIS_MISSING}`);
const describeWithRedis = redisServerBinary ? describe : describe.skip;

describeWithRedis('webhook deliveries through Redis ([queue] TYPE=redis)', () => {
  let redis: RedisServer;
  let t: TestApp;
  let receiver: HookReceiver;
  let owner: TestUser;
  let org: User;

  const settings = () => ({
    ANVIL__queue__TYPE: 'redis',
    ANVIL__queue__CONN_STR: redis.url,
    ANVIL__queue__RELAY_SWEEP_INTERVAL: '300ms',
    ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback',
    ANVIL__webhook__RETRY_BACKOFF: '100ms',
    // Generous: the receiver runs in this process, and a send that times out while a loaded machine stalls it is
    // rightly sent again — which these tests, counting each delivery once, would take for a duplicate.
    ANVIL__webhook__DELIVER_TIMEOUT: '30',
  });

  beforeAll(async () => {
    redis = await startRedisServer();
    t = await startTestApp(settings());
    receiver = await startHookReceiver();
    t.context.services.hookDeliveries.startWorker(30, 4);
    owner = await createTestUser(t);
    org = await createTestOrg(t, owner.user);
  });
  afterAll(async () => {
    await t?.context.services.hookDeliveries.stopWorker();
    await receiver?.close();
    await t?.close();
    await redis?.close();
  });

  async function createHook(name: string): Promise<void> {
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/hooks`)
      .set('Authorization', owner.auth)
      .send({
        type: 'gitea',
        config: { url: `${receiver.url}/${name}`, content_type: 'json' },
        events: ['repository'],
        active: true,
      })
      .expect(201);
  }

  async function createRepos(prefix: string, count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      await t
        .request()
        .post(`/api/v1/orgs/${org.name}/repos`)
        .set('Authorization', owner.auth)
        .send({ name: `${prefix}${i}` })
        .expect(201);
    }
  }

  const deliveryIds = (path: string) =>
    receiver
      .at(path)
      .filter((hook) => hook.answered === 200)
      .map((hook) => String(hook.headers['x-forgejo-delivery']));

  async function tasksOf(path: string) {
    const hooks = await t.context.db.prisma.webhook.findMany({
      where: { url: `${receiver.url}${path}` },
      select: { id: true },
    });
    return t.context.db.prisma.hookTask.findMany({
      where: { hookId: { in: hooks.map((hook) => hook.id) } },
      orderBy: { id: 'asc' },
    });
  }

  it('delivers each event once through BullMQ and records the result on the HookTask; the outbox empties', async () => {
    await createHook('once');
    await createRepos('once', 5);
    await receiver.until(() => deliveryIds('/once').length >= 5);
    await sleep(800); // time for a second delivery of any of them, which must not come
    const ids = deliveryIds('/once');
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    const tasks = await tasksOf('/once');
    expect(tasks.map((task) => [task.status, task.attempts, task.isSucceed])).toEqual(
      Array(5).fill(['delivered', 1, true]),
    );
    expect(new Set(tasks.map((task) => task.uuid))).toEqual(new Set(ids));
    expect(await t.context.db.prisma.job.count()).toBe(0);
    // The jobs went through Redis, under the outbox row ids.
    const queue = new Queue('webhook_sender_queue', {
      connection: { host: '127.0.0.1', port: redis.port },
      prefix: 'anvil',
    });
    try {
      const completed = await queue.getJobs(['completed']);
      expect(completed.length).toBeGreaterThanOrEqual(5);
      expect(completed.every((job) => /^outbox-\d+$/.test(job.id!))).toBe(true);
    } finally {
      await queue.close();
    }
  });

  it('retries a 5xx answer through BullMQ with the configured back-off, counting attempts', async () => {
    await createHook('flaky');
    let answers = 0;
    receiver.respond = (hook) => (hook.path === '/flaky' && answers++ < 2 ? 503 : 200);
    try {
      await createRepos('flaky', 1);
      await receiver.until(() => deliveryIds('/flaky').length === 1);
      await sleep(500);
      expect(receiver.at('/flaky').map((hook) => hook.answered)).toEqual([503, 503, 200]);
      expect(new Set(receiver.at('/flaky').map((hook) => hook.headers['x-forgejo-delivery'])).size).toBe(1);
      const [task] = await tasksOf('/flaky');
      expect(task).toMatchObject({ status: 'delivered', attempts: 3, isSucceed: true });
    } finally {
      receiver.respond = () => 200;
    }
  });

  it('keeps changes acknowledged while Redis is down in the outbox and delivers them once Redis is back', async () => {
    await createHook('outage');
    await redis.stop();
    await createRepos('outage', 3); // every request answers 201: the change and its delivery rows are committed
    await sleep(700); // a relay pass and a sweep find no Redis
    expect(await t.context.db.prisma.job.count()).toBeGreaterThanOrEqual(3);
    expect(deliveryIds('/outage')).toEqual([]);
    await redis.start();
    await receiver.until(() => deliveryIds('/outage').length >= 3, 30_000);
    await sleep(800);
    expect(deliveryIds('/outage')).toHaveLength(3);
    expect(new Set(deliveryIds('/outage')).size).toBe(3);
    expect((await tasksOf('/outage')).map((task) => task.status)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(await t.context.db.prisma.job.count()).toBe(0);
  });

  describe('with a second process on the same database and Redis', () => {
    let second: SecondApp;
    beforeAll(async () => {
      second = await startSecondApp(t, { ...settings(), ANVIL__log__LEVEL: 'silent' });
      second.context.services.hookDeliveries.startWorker(30, 4);
    });
    afterAll(async () => {
      await second?.context.services.hookDeliveries.stopWorker();
      await second?.close();
    });

    it('delivers once although both processes relay the same rows and both work the queue', async () => {
      await createHook('shared');
      await createRepos('shared', 4);
      // Rows written behind the relays' backs (as by a process that died before relaying): both relays find the
      // same rows at once; the job ids are the row ids, so Redis keeps one job per row.
      const [{ id: hookId }] = await t.context.db.prisma.webhook.findMany({ where: { url: `${receiver.url}/shared` } });
      const [template] = await tasksOf('/shared');
      for (let i = 0; i < 4; i++) {
        const task = await t.context.db.prisma.hookTask.create({
          data: { hookId, uuid: crypto.randomUUID(), eventType: 'repository', payload: template.payload },
        });
        await t.context.db.prisma.job.create({
          data: { kind: 'webhook_delivery', payload: JSON.stringify({ hookTaskId: task.id }) },
        });
      }
      await Promise.all([
        t.context.services.hookDeliveries.deliverDue(),
        second.context.services.hookDeliveries.deliverDue(),
      ]);
      await receiver.until(() => deliveryIds('/shared').length >= 8);
      await sleep(800);
      expect(deliveryIds('/shared')).toHaveLength(8);
      expect(new Set(deliveryIds('/shared')).size).toBe(8);
      expect(await t.context.db.prisma.job.count()).toBe(0);
    });
  });
});
