// Failed webhook deliveries are visible: the delivery's history (Forgejo's hook_task: status, attempts, the answer
// or Anvil's "Delivery: <error>" text) and one warning log line naming the hook, the delivery and what went wrong,
// without the hook's URL, secret or authorization header. (The API's Hook has no last-status field to carry it.)
import { freePort } from '../helpers/free-port.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { type HookReceiver, sleep, startHookReceiver } from '../helpers/hook-receiver.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import type { User } from '../../src/db/prisma.ts';

let t: TestApp;
let receiver: HookReceiver;
let owner: TestUser;
/** Each test's own organization, so the hooks of one test see none of another's events. */
let org: User;

const SECRETS = ['url-path-credential', 'url-query-credential', 'hook-authorization-credential', 'hook-signing-secret'];

beforeAll(async () => {
  t = await startTestApp({
    ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback',
    ANVIL__webhook__RETRY_BACKOFF: '40ms',
    ANVIL__webhook__MAX_ATTEMPTS: '2',
    ANVIL__webhook__DELIVER_TIMEOUT: '3',
  });
  receiver = await startHookReceiver();
  t.context.services.hookDeliveries.startWorker(30, 4);
  owner = await createTestUser(t);
});
beforeEach(async () => {
  org = await createTestOrg(t, owner.user);
});
afterAll(async () => {
  await t.context.services.hookDeliveries.stopWorker();
  await receiver.close();
  await t.close();
});
afterEach(() => jest.restoreAllMocks());

/** An org hook for repository events posting to `url`, with credentials in its URL, headers and secret. */
async function createHook(url: string): Promise<number> {
  const res = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/hooks`)
    .set('Authorization', owner.auth)
    .send({
      type: 'gitea',
      config: { url, content_type: 'json', secret: 'hook-signing-secret' },
      events: ['repository'],
      active: true,
      authorization_header: 'Bearer hook-authorization-credential',
    })
    .expect(201);
  return res.body.id;
}

async function createRepo(name: string): Promise<void> {
  await t.request().post(`/api/v1/orgs/${org.name}/repos`).set('Authorization', owner.auth).send({ name }).expect(201);
}

/** The hook's one delivery, once it is finished. */
async function finishedDelivery(hookId: number) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(25)) {
    const task = await t.context.db.prisma.hookTask.findFirst({ where: { hookId } });
    if (task && task.status !== 'pending') return task;
  }
  throw new Error(`the delivery of hook ${hookId} did not finish`);
}

function spyOnLog() {
  return { warn: jest.spyOn(t.context.log, 'warn'), info: jest.spyOn(t.context.log, 'info') };
}

const calls = (spy: jest.SpyInstance, msg: string) =>
  spy.mock.calls.filter((call) => call[1] === msg).map((call) => call[0] as Record<string, unknown>);

describe('a failed webhook delivery', () => {
  it('keeps the network error in its history and logs one warning without the hook credentials', async () => {
    const log = spyOnLog();
    const closedPort = await freePort();
    const hookId = await createHook(
      `http://127.0.0.1:${closedPort}/hooks/url-path-credential?token=url-query-credential`,
    );
    await createRepo('unreachable');
    const task = await finishedDelivery(hookId);
    expect(task).toMatchObject({ status: 'failed', attempts: 2, isSucceed: false });
    const response = JSON.parse(task.responseInfo);
    expect(response).toMatchObject({ status: 0, body: expect.stringMatching(/^Delivery: .*ECONNREFUSED/) });
    // The recorded request masks the authorization header, as Forgejo's history does.
    expect(JSON.parse(task.requestInfo).headers.Authorization).toBe('Bearer ******');

    const retried = calls(log.info, 'webhook delivery attempt failed, will retry');
    expect(retried).toEqual([
      expect.objectContaining({ hookId, delivery: task.uuid, status: 'pending', attempt: 1, responseStatus: 0 }),
    ]);
    expect(calls(log.warn, 'webhook delivery failed')).toEqual([
      {
        hookId,
        delivery: task.uuid,
        status: 'failed',
        attempt: 2,
        responseStatus: 0,
        error: expect.stringMatching(/ECONNREFUSED/),
      },
    ]);
    const logged = JSON.stringify([...log.warn.mock.calls, ...log.info.mock.calls]);
    for (const secret of SECRETS) expect(logged).not.toContain(secret);
  });

  it("keeps the receiver's answer in its history and logs the status it answered", async () => {
    const log = spyOnLog();
    const previous = receiver.respond;
    receiver.respond = (hook) => (hook.path.startsWith('/refusing') ? 404 : previous(hook));
    try {
      const hookId = await createHook(`${receiver.url}/refusing/url-path-credential?token=url-query-credential`);
      await createRepo('refused');
      const task = await finishedDelivery(hookId);
      expect(task).toMatchObject({ status: 'failed', attempts: 1, isSucceed: false });
      expect(JSON.parse(task.responseInfo)).toMatchObject({ status: 404 });
      expect(calls(log.warn, 'webhook delivery failed')).toEqual([
        { hookId, delivery: task.uuid, status: 'failed', attempt: 1, responseStatus: 404, error: 'answered 404' },
      ]);
      const logged = JSON.stringify(log.warn.mock.calls);
      for (const secret of SECRETS) expect(logged).not.toContain(secret);
    } finally {
      receiver.respond = previous;
    }
  });

  it('logs no warning for a delivery that succeeds', async () => {
    const log = spyOnLog();
    const hookId = await createHook(`${receiver.url}/fine`);
    await createRepo('delivered');
    expect(await finishedDelivery(hookId)).toMatchObject({ status: 'delivered', isSucceed: true });
    expect(calls(log.warn, 'webhook delivery failed')).toEqual([]);
  });
});
