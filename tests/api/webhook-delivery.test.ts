// Webhook delivery end to end: events from the API and git pushes reach a real receiver on loopback, once, with
// Forgejo's headers and payloads and signatures that verify; matching, retries, failures and the allow list.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Server } from 'node:http';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { type HookReceiver, type ReceivedHook, sleep, startHookReceiver } from '../helpers/hook-receiver.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const SETTINGS = {
  ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback',
  ANVIL__webhook__RETRY_BACKOFF: '40ms',
  ANVIL__webhook__QUEUE_POLL_INTERVAL: '30ms',
  ANVIL__webhook__DELIVER_TIMEOUT: '30',
};

let t: TestApp;
let receiver: HookReceiver;
let admin: TestUser;
let owner: TestUser;
let orgA: User;
let orgB: User;

beforeAll(async () => {
  t = await startTestApp(SETTINGS);
  receiver = await startHookReceiver();
  t.context.services.hookDeliveries.startWorker(30, 4);
  admin = await createTestUser(t, { admin: true });
  owner = await createTestUser(t);
  orgA = await createTestOrg(t, owner.user);
  orgB = await createTestOrg(t, owner.user);
});
afterAll(async () => {
  await t.context.services.hookDeliveries.stopWorker();
  await receiver.close();
  await t.close();
});

interface HookOptions {
  type?: string;
  events?: string[];
  active?: boolean;
  secret?: string;
  contentType?: 'json' | 'form';
  branchFilter?: string;
  authorization?: string;
  system?: boolean;
}

/** Creates a hook posting to receiver/<name>; org hooks unless `org` is null (then an instance hook). */
async function createHook(org: User | null, name: string, options: HookOptions = {}): Promise<number> {
  const body = {
    type: options.type ?? 'gitea',
    config: {
      url: `${receiver.url}/${name}`,
      content_type: options.contentType ?? 'json',
      secret: options.secret ?? '',
      ...(org === null ? { is_system_webhook: String(options.system ?? false) } : {}),
      ...(options.type === 'slack' ? { channel: '#builds' } : {}),
    },
    events: options.events ?? [
      'repository',
      'push',
      'create',
      'delete',
      'issues',
      'issue_comment',
      'pull_request',
      'package',
    ],
    active: options.active ?? true,
    branch_filter: options.branchFilter ?? '',
    authorization_header: options.authorization ?? '',
  };
  const route = org === null ? '/api/v1/admin/hooks' : `/api/v1/orgs/${org.name}/hooks`;
  const res = await t
    .request()
    .post(route)
    .set('Authorization', (org === null ? admin : owner).auth)
    .send(body)
    .expect(201);
  return res.body.id;
}

async function createRepo(org: User, name: string): Promise<void> {
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name, auto_init: true })
    .expect(201);
}

const json = (hook: ReceivedHook) => JSON.parse(hook.body.toString('utf8'));
const hmac = (algorithm: string, secret: string, data: Buffer | string) =>
  createHmac(algorithm, secret).update(data).digest('hex');

/** An attempt is in flight from its claim until its answer is recorded; a job while it is leased. */
async function inFlight(): Promise<boolean> {
  const { prisma } = t.context.db;
  const claimed = await prisma.hookTask.count({ where: { status: 'pending', claimedUntil: { not: null } } });
  return claimed > 0 || (await prisma.job.count({ where: { leasedUntil: { gt: new Date() } } })) > 0;
}

/** Lets queued deliveries go out, then waits until every answer received is recorded (however slow the machine). */
async function settle(ms = 300): Promise<void> {
  await sleep(ms);
  await t.context.services.hookDeliveries.deliverDue(50);
  for (const deadline = Date.now() + 30_000; await inFlight(); await sleep(25))
    if (Date.now() > deadline) throw new Error('deliveries still in flight after 30 s');
}

/**
 * A hook at `/{path}` that has delivered its repository event once, and another pending delivery of the same payload
 * made by hand (no job runs it yet): what a relayed or orphaned delivery looks like.
 */
async function handMadeDelivery(path: string, fields: { claimedUntil?: Date } = {}) {
  const hookId = await createHook(orgA, path, { events: ['repository'] });
  await createRepo(orgA, `${path}-repo`);
  await receiver.until(() => receiver.at(`/${path}`).length === 1);
  const [template] = await t.context.db.prisma.hookTask.findMany({ where: { hookId } });
  return t.context.db.prisma.hookTask.create({
    data: { hookId, uuid: crypto.randomUUID(), eventType: 'repository', payload: template.payload, ...fields },
  });
}

describe('webhook delivery', () => {
  it('delivers a repository event once, with Forgejo headers, payload and verifiable signatures', async () => {
    await createHook(orgA, 'signed', { secret: 'hook-secret', authorization: 'Bearer s3cr3t', events: ['repository'] });
    await createRepo(orgA, 'created-one');
    await receiver.until(() => receiver.at('/signed').length === 1);
    await settle();
    const [hook] = receiver.at('/signed');
    expect(receiver.at('/signed')).toHaveLength(1);
    const h = hook.headers;
    expect(h['content-type']).toBe('application/json');
    expect(h.authorization).toBe('Bearer s3cr3t');
    const id = h['x-forgejo-delivery'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    for (const prefix of ['x-forgejo', 'x-gitea', 'x-gogs', 'x-github']) {
      expect(h[`${prefix}-delivery`]).toBe(id);
      expect(h[`${prefix}-event`]).toBe('repository');
      expect(h[`${prefix}-event-type`]).toBe('repository');
    }
    const sha256 = hmac('sha256', 'hook-secret', hook.body);
    for (const prefix of ['x-forgejo', 'x-gitea', 'x-gogs']) expect(h[`${prefix}-signature`]).toBe(sha256);
    expect(h['x-hub-signature-256']).toBe(`sha256=${sha256}`);
    expect(h['x-hub-signature']).toBe(`sha1=${hmac('sha1', 'hook-secret', hook.body)}`);
    const payload = json(hook);
    expect(payload).toMatchObject({
      action: 'created',
      repository: { full_name: `${orgA.name}/created-one`, permissions: { admin: true, push: true, pull: true } },
      organization: { login: orgA.name },
      sender: { login: owner.user.name },
    });
    // Forgejo indents repository payloads by one space.
    expect(hook.body.toString()).toMatch(/^\{\n "action": "created",/);
    // The history keeps the request without the credential and the answer.
    const [task] = await t.context.db.prisma.hookTask.findMany({ where: { uuid: String(id) } });
    expect(task).toMatchObject({ status: 'delivered', attempts: 1, isSucceed: true, eventType: 'repository' });
    const request = JSON.parse(task.requestInfo);
    expect(request.headers.Authorization).toBe('Bearer ******');
    expect(request.body).toBe(hook.body.toString());
    expect(JSON.parse(task.responseInfo)).toMatchObject({
      status: 200,
      body: 'status 200',
      headers: { 'x-receiver': 'test' },
    });
  });

  it("sends nothing to inactive or uninterested hooks, nor to another organization's hooks", async () => {
    await createHook(orgA, 'inactive', { active: false });
    await createHook(orgA, 'push-only', { events: ['push'] });
    await createHook(orgB, 'other-org');
    await createHook(orgA, 'wanted', { events: ['repository'] });
    await createRepo(orgA, 'quiet-one');
    await receiver.until(() => receiver.at('/wanted').length === 1);
    await settle();
    expect(receiver.at('/inactive')).toHaveLength(0);
    expect(receiver.at('/push-only')).toHaveLength(0);
    expect(receiver.at('/other-org')).toHaveLength(0);
  });

  it('delivers to system hooks for every repository, and copies default hooks into new repositories', async () => {
    await createHook(null, 'system', { system: true, events: ['repository'] });
    await createHook(null, 'default', { system: false, events: ['repository'] });
    await createRepo(orgA, 'sys-a');
    await createRepo(orgB, 'sys-b');
    await receiver.until(() => receiver.at('/system').length === 2 && receiver.at('/default').length === 2);
    await settle();
    expect(
      receiver
        .at('/system')
        .map((hook) => json(hook).repository.full_name)
        .sort(),
    ).toEqual([`${orgA.name}/sys-a`, `${orgB.name}/sys-b`].sort());
    expect(receiver.at('/default')).toHaveLength(2);
    const copies = await t.context.db.prisma.webhook.findMany({
      where: { url: `${receiver.url}/default`, repoId: { gt: 0 } },
    });
    expect(copies).toHaveLength(2);
  });

  it('reports a deleted repository to its organization', async () => {
    await createHook(orgB, 'deleted', { events: ['repository'] });
    await createRepo(orgB, 'doomed');
    await receiver.until(() => receiver.at('/deleted').length === 1);
    await t.request().delete(`/api/v1/repos/${orgB.name}/doomed`).set('Authorization', owner.auth).expect(204);
    await receiver.until(() => receiver.at('/deleted').length === 2);
    expect(json(receiver.at('/deleted')[1])).toMatchObject({
      action: 'deleted',
      repository: { full_name: `${orgB.name}/doomed` },
    });
  });

  it('sends form hooks as payload=<JSON>, signed over the JSON', async () => {
    await createHook(orgB, 'form', { contentType: 'form', secret: 'f', events: ['repository'] });
    await createRepo(orgB, 'formed');
    await receiver.until(() => receiver.at('/form').length === 1);
    const [hook] = receiver.at('/form');
    expect(hook.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const payload = new URLSearchParams(hook.body.toString()).get('payload')!;
    expect(JSON.parse(payload)).toMatchObject({ action: 'created', repository: { name: 'formed' } });
    expect(hook.headers['x-forgejo-signature']).toBe(hmac('sha256', 'f', payload));
  });

  it('retries a 500 with the same delivery id and stops after a success', async () => {
    await createHook(orgA, 'flaky', { events: ['repository'] });
    let failures = 2;
    const previous = receiver.respond;
    receiver.respond = (hook) => (hook.path === '/flaky' && failures-- > 0 ? 500 : previous(hook));
    await createRepo(orgA, 'retried');
    await receiver.until(() => receiver.at('/flaky').some((hook) => hook.answered === 200));
    await settle(400);
    receiver.respond = previous;
    const hooks = receiver.at('/flaky');
    expect(hooks.map((hook) => hook.answered)).toEqual([500, 500, 200]);
    expect(new Set(hooks.map((hook) => hook.headers['x-forgejo-delivery'])).size).toBe(1);
    const task = await t.context.db.prisma.hookTask.findUnique({
      where: { uuid: String(hooks[0].headers['x-forgejo-delivery']) },
    });
    expect(task).toMatchObject({ status: 'delivered', attempts: 3 });
  });

  it('marks a delivery failed after five failed attempts', async () => {
    await createHook(orgA, 'down', { events: ['repository'] });
    const previous = receiver.respond;
    receiver.respond = (hook) => (hook.path === '/down' ? 503 : previous(hook));
    await createRepo(orgA, 'never');
    await receiver.until(() => receiver.at('/down').length === 5);
    await settle(600);
    receiver.respond = previous;
    expect(receiver.at('/down')).toHaveLength(5);
    const task = await t.context.db.prisma.hookTask.findUnique({
      where: { uuid: String(receiver.at('/down')[0].headers['x-forgejo-delivery']) },
    });
    expect(task).toMatchObject({ status: 'failed', attempts: 5, isSucceed: false });
    expect(JSON.parse(task!.responseInfo)).toMatchObject({ status: 503 });
    expect(await t.context.db.prisma.job.count()).toBe(0);
  });

  it('does not retry a 4xx answer', async () => {
    await createHook(orgB, 'gone', { events: ['repository'] });
    const previous = receiver.respond;
    receiver.respond = (hook) => (hook.path === '/gone' ? 410 : previous(hook));
    await createRepo(orgB, 'gone-repo');
    await receiver.until(() => receiver.at('/gone').length === 1);
    await settle(300);
    receiver.respond = previous;
    expect(receiver.at('/gone')).toHaveLength(1);
  });

  it('sends other deliveries while a receiver holds one', async () => {
    await createHook(orgA, 'slow', { events: ['repository'] });
    await createHook(orgB, 'quick', { events: ['repository'] });
    const previous = receiver.respond;
    receiver.respond = (hook) => (hook.path === '/slow' ? 'hold' : previous(hook));
    await createRepo(orgA, 'slow-repo');
    await receiver.until(() => receiver.at('/slow').length === 1);
    // The held delivery takes one of the worker's slots; a delivery due after it goes out through another.
    await createRepo(orgB, 'quick-repo');
    await receiver.until(() => receiver.at('/quick').some((hook) => hook.answered === 200));
    expect(receiver.at('/slow')[0].answered).toBeNull();
    receiver.respond = previous;
    receiver.release(200);
    await settle();
    expect(receiver.at('/slow').map((hook) => hook.answered)).toEqual([200]);
  });

  it('sends a delivery once when two runs of its job meet (a job relayed twice), and still retries it', async () => {
    const task = await handMadeDelivery('raced');
    const previous = receiver.respond;
    let failures = 1;
    receiver.respond = (hook) => (hook.path === '/raced' && failures-- > 0 ? 500 : previous(hook));
    const job = { kind: 'webhook_delivery', payload: JSON.stringify({ hookTaskId: task.id }) };
    await t.context.db.prisma.job.createMany({ data: [job, job, job] });
    await Promise.all([
      t.context.services.hookDeliveries.deliverDue(50),
      t.context.services.hookDeliveries.deliverDue(50),
    ]);
    await receiver.until(() =>
      receiver.at('/raced').some((hook) => hook.headers['x-forgejo-delivery'] === task.uuid && hook.answered === 200),
    );
    await settle();
    receiver.respond = previous;
    const sent = receiver.at('/raced').filter((hook) => hook.headers['x-forgejo-delivery'] === task.uuid);
    expect(sent.map((hook) => hook.answered)).toEqual([500, 200]);
    expect(await t.context.db.prisma.hookTask.findUniqueOrThrow({ where: { id: task.id } })).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });
  });

  it('lets no run claim an attempt with a count read before another run recorded one', async () => {
    const task = await handMadeDelivery('stale');
    const hookTasks = t.context.repos.hookTasks;
    const readBefore = (await hookTasks.findById(task.id))!;
    const claim = await hookTasks.claimAttempt(task.id, readBefore.attempts, 60_000);
    expect(claim).not.toBeNull();
    await hookTasks.recordAttempt(task.id, {
      status: 'pending',
      attempts: readBefore.attempts + 1,
      isSucceed: false,
      requestInfo: '',
      responseInfo: '{}',
      durationMs: 1,
      deliveredAt: new Date(),
    });
    expect(await hookTasks.claimAttempt(task.id, readBefore.attempts, 60_000)).toBeNull();
    expect(await hookTasks.claimAttempt(task.id, readBefore.attempts + 1, 60_000)).not.toBeNull();
    await t.context.db.prisma.hookTask.delete({ where: { id: task.id } });
  });

  it('sends a delivery whose claim was left by a run that died, once the claim expires', async () => {
    // What a process killed in the middle of sending leaves: a pending delivery claimed for a while yet.
    const task = await handMadeDelivery('orphaned', { claimedUntil: new Date(Date.now() + 1500) });
    await t.context.db.prisma.job.create({
      data: { kind: 'webhook_delivery', payload: JSON.stringify({ hookTaskId: task.id }) },
    });
    await t.context.services.hookDeliveries.deliverDue(50);
    await receiver.until(() =>
      receiver.at('/orphaned').some((hook) => hook.headers['x-forgejo-delivery'] === task.uuid),
    );
    // The answer is recorded just after the receiver sees the request.
    const recorded = async () => t.context.db.prisma.hookTask.findUniqueOrThrow({ where: { id: task.id } });
    for (let waited = 0; (await recorded()).status === 'pending' && waited < 10_000; waited += 50) await sleep(50);
    expect(await recorded()).toMatchObject({
      status: 'delivered',
      attempts: 1,
    });
  });

  it('refuses hook types Anvil does not deliver with 422', async () => {
    const res = await t
      .request()
      .post(`/api/v1/orgs/${orgA.name}/hooks`)
      .set('Authorization', owner.auth)
      .send({ type: 'dingtalk', config: { url: `${receiver.url}/x`, content_type: 'json' } })
      .expect(422);
    expect(res.body.message).toMatch(
      /^\[type\]: must be equal to one of the allowed values: forgejo, gitea, gogs, slack, discord/,
    );
  });
});

describe('push webhooks', () => {
  let server: Server;
  let work: string;
  let remote: string;

  beforeAll(async () => {
    ({ server } = await listen(t));
    const base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
    const org = await createTestOrg(t, owner.user);
    await createHook(org, 'push', { type: 'forgejo', secret: 'p', events: ['push', 'create', 'delete'] });
    await createHook(org, 'feature-only', { events: ['push', 'create', 'delete'], branchFilter: 'feature/*' });
    await createHook(org, 'slack', { type: 'slack', events: ['push'] });
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'pushed', auto_init: true })
      .expect(201);
    remote = `${withCredentials(base, owner.token)}${org.name}/pushed.git`;
    work = path.join(tempDir(), 'w');
    await gitOk(['clone', '-q', remote, work]);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  async function commit(file: string): Promise<string> {
    fs.writeFileSync(path.join(work, file), `${file}\n`);
    await gitOk(['add', file], work);
    await gitOk(['commit', '-q', '-m', `add ${file}\n\nbody`], work);
    return (await gitOk(['rev-parse', 'HEAD'], work)).trim();
  }

  /** A hook's events in the order they happened (deliveries run side by side, so they may arrive in another). */
  async function events(name: string): Promise<string[]> {
    const hooks = receiver.at(name);
    const tasks = await t.context.db.prisma.hookTask.findMany({
      where: { uuid: { in: hooks.map((hook) => String(hook.headers['x-forgejo-delivery'])) } },
      select: { uuid: true, id: true },
    });
    const order = new Map(tasks.map((task) => [task.uuid, task.id]));
    const position = (hook: (typeof hooks)[number]) => order.get(String(hook.headers['x-forgejo-delivery'])) ?? 0;
    return [...hooks]
      .sort((a, b) => position(a) - position(b))
      .map((hook) => `${hook.headers['x-forgejo-event']}:${json(hook).ref}`);
  }

  it('delivers push for a branch update, create+push for a new branch, push+create for a tag, delete', async () => {
    const old = (await gitOk(['rev-parse', 'HEAD'], work)).trim();
    const head = await commit('a.txt');
    await gitOk(['push', '-q', remote, 'HEAD:refs/heads/main'], work);
    await receiver.until(() => receiver.at('/push').length === 1 && receiver.at('/slack').length === 1);
    const [push] = receiver.at('/push');
    expect(push.headers['x-forgejo-signature']).toBe(hmac('sha256', 'p', push.body));
    const payload = json(push);
    expect(payload).toMatchObject({
      ref: 'refs/heads/main',
      before: old,
      after: head,
      total_commits: 1,
      compare_url: expect.stringMatching(new RegExp(`/compare/${old}\\.\\.\\.${head}$`)),
      head_commit: {
        id: head,
        message: 'add a.txt\n\nbody\n',
        added: ['a.txt'],
        author: { name: 'Test', email: 'test@example.com' },
      },
      pusher: { login: owner.user.name },
      sender: { login: owner.user.name },
      repository: { name: 'pushed' },
    });
    expect(payload.commits.map((c: { id: string }) => c.id)).toEqual([head]);
    // forgejo hooks get a `compare` copy, re-marshalled with sorted keys as Forgejo does.
    expect(payload.compare).toBe(payload.compare_url);
    expect(push.body.toString()).toMatch(/^\{\n {2}"after": /);
    expect(JSON.parse(receiver.at('/slack')[0].body.toString()).text).toContain('1 new commit');
    expect(receiver.at('/feature-only')).toHaveLength(0);

    await commit('b.txt');
    await gitOk(['push', '-q', remote, 'HEAD:refs/heads/feature/x'], work);
    await gitOk(['tag', 'v1'], work);
    await gitOk(['push', '-q', remote, 'v1'], work);
    await gitOk(['push', '-q', remote, ':refs/heads/feature/x'], work);
    await receiver.until(() => receiver.at('/push').length === 6 && receiver.at('/feature-only').length === 5);
    await settle();
    expect(await events('/push')).toEqual([
      'push:refs/heads/main',
      'create:refs/heads/feature/x',
      'push:refs/heads/feature/x',
      'push:refs/tags/v1',
      'create:refs/tags/v1',
      'delete:refs/heads/feature/x',
    ]);
    // The branch filter lets feature/* through and never filters tags; gitea hooks get short refs in create/delete.
    expect(await events('/feature-only')).toEqual([
      'create:feature/x',
      'push:refs/heads/feature/x',
      'push:refs/tags/v1',
      'create:v1',
      'delete:feature/x',
    ]);
    // Deliveries run side by side, so arrival order is not event order: pick each event by its kind.
    const delivered = (event: string) =>
      receiver
        .at('/push')
        .find((hook) => hook.headers['x-forgejo-event'] === event && json(hook).ref_type === 'branch')!;
    const create = json(delivered('create'));
    expect(create).toMatchObject({
      ref: 'refs/heads/feature/x',
      ref_type: 'branch',
      repository: { permissions: { admin: false } },
    });
    const deleted = json(delivered('delete'));
    expect(deleted).toMatchObject({ ref: 'refs/heads/feature/x', ref_type: 'branch', pusher_type: 'user' });
    // slack hooks get no push without commits (the tag).
    expect(receiver.at('/slack')).toHaveLength(2);
  });
});

describe('issue, comment, pull request and package events', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    ({ server } = await listen(t));
    base = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it("delivers them from the API and git, in Forgejo's shapes, signed, to the hooks that asked", async () => {
    const org = await createTestOrg(t, owner.user);
    await createHook(org, 'tracker', { secret: 'i', events: ['issues', 'issue_comment', 'pull_request', 'package'] });
    await createHook(org, 'only-push', { events: ['push'] });
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'tracker', auto_init: true })
      .expect(201);
    const api = `/api/v1/repos/${org.name}/tracker`;

    const issue = (
      await t
        .request()
        .post(`${api}/issues`)
        .set('Authorization', owner.auth)
        .send({ title: 'Broken', body: 'It <b>breaks</b>' })
        .expect(201)
    ).body;
    await t
      .request()
      .patch(`${api}/issues/${issue.number}`)
      .set('Authorization', owner.auth)
      .send({ title: 'Broken badly' })
      .expect(201);
    await t
      .request()
      .post(`${api}/issues/${issue.number}/comments`)
      .set('Authorization', owner.auth)
      .send({ body: 'Me too' })
      .expect(201);
    await t
      .request()
      .patch(`${api}/issues/${issue.number}`)
      .set('Authorization', owner.auth)
      .send({ state: 'closed' })
      .expect(201);

    // A pull request from a pushed branch.
    const work = path.join(tempDir(), 'pr');
    await gitOk(['clone', '-q', `${withCredentials(base, owner.token)}${org.name}/tracker.git`, work]);
    await gitOk(['checkout', '-q', '-b', 'fix'], work);
    fs.writeFileSync(path.join(work, 'fix.txt'), 'fixed\n');
    await gitOk(['add', 'fix.txt'], work);
    await gitOk(['commit', '-q', '-m', 'fix'], work);
    await gitOk(['push', '-q', 'origin', 'fix'], work);
    const pull = (
      await t
        .request()
        .post(`${api}/pulls`)
        .set('Authorization', owner.auth)
        .send({ head: 'fix', base: 'main', title: 'Fix it' })
        .expect(201)
    ).body;
    await t
      .request()
      .post(`${api}/issues/${pull.number}/comments`)
      .set('Authorization', owner.auth)
      .send({ body: 'Looks good' })
      .expect(201);

    // A package of the organization, then its deletion.
    await t
      .request()
      .put(`/api/packages/${org.name}/generic/lib/1.0.0/lib.tgz`)
      .set('Authorization', owner.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('bytes'))
      .expect(201);
    await t
      .request()
      .put(`/api/packages/${org.name}/generic/lib/1.0.0/lib.sig`)
      .set('Authorization', owner.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('sig'))
      .expect(201);
    await t
      .request()
      .delete(`/api/packages/${org.name}/generic/lib/1.0.0`)
      .set('Authorization', owner.auth)
      .expect(204);

    const expected = [
      'issues:opened',
      'issues:edited',
      'issue_comment:created',
      'issues:closed',
      'pull_request:opened',
      'pull_request_comment:created',
      'package:created',
      'package:deleted',
    ];
    await receiver.until(() => receiver.at('/tracker').length >= expected.length).catch(() => undefined);
    await settle();
    const hooks = receiver.at('/tracker');
    expect(hooks.map((hook) => `${hook.headers['x-forgejo-event-type']}:${json(hook).action}`).sort()).toEqual(
      [...expected].sort(),
    );
    for (const hook of hooks) expect(hook.headers['x-forgejo-signature']).toBe(hmac('sha256', 'i', hook.body));
    const find = (type: string, action: string) =>
      hooks
        .map((hook) => ({ type: hook.headers['x-forgejo-event-type'], body: json(hook), raw: hook.body }))
        .find((hook) => hook.type === type && hook.body.action === action)!;

    const opened = find('issues', 'opened');
    expect(opened.body).toMatchObject({
      number: issue.number,
      issue: { id: issue.id, number: issue.number, title: 'Broken', state: 'open' },
      repository: { name: 'tracker', full_name: `${org.name}/tracker` },
      sender: { login: owner.user.name },
      commit_id: '',
    });
    // Go's JSON escaping of HTML characters.
    expect(opened.raw.toString()).toContain('\\u003cb\\u003e');
    expect(find('issues', 'edited').body).toMatchObject({
      issue: { title: 'Broken badly' },
      changes: { title: { from: 'Broken' } },
    });
    expect(find('issues', 'closed').body.issue).toMatchObject({ state: 'closed' });
    expect(find('issue_comment', 'created').body).toMatchObject({
      is_pull: false,
      comment: { body: 'Me too' },
      issue: { number: issue.number },
    });
    const pr = find('pull_request', 'opened').body;
    expect(pr).toMatchObject({
      number: pull.number,
      pull_request: { number: pull.number, title: 'Fix it', head: { ref: 'fix' }, base: { ref: 'main' } },
    });
    expect(pr.pull_request.base.sha).toMatch(/^[0-9a-f]{40}$/);
    expect(find('pull_request_comment', 'created').body).toMatchObject({
      is_pull: true,
      comment: { body: 'Looks good' },
      pull_request: { number: pull.number },
    });
    // One created event per new version, not per file.
    expect(find('package', 'created').body).toMatchObject({
      package: { name: 'lib', version: '1.0.0', type: 'generic', owner: { login: org.name } },
    });
    expect(find('package', 'deleted').body).toMatchObject({ package: { name: 'lib', version: '1.0.0' } });
    // The push-only hook heard the branch push and nothing else.
    expect(receiver.at('/only-push').map((hook) => hook.headers['x-forgejo-event'])).toEqual(['push']);
  });

  it('sends nothing for a change that rolls back', async () => {
    const org = await createTestOrg(t, owner.user);
    await createHook(org, 'rolled-back', { events: ['issues'] });
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'calm' })
      .expect(201);
    const repo = await t.context.db.prisma.repository.findFirstOrThrow({
      where: { ownerId: org.id, lowerName: 'calm' },
      include: { owner: true, units: true },
    });
    const created = (
      await t
        .request()
        .post(`/api/v1/repos/${org.name}/calm/issues`)
        .set('Authorization', owner.auth)
        .send({ title: 'x' })
        .expect(201)
    ).body;
    await receiver.until(() => receiver.at('/rolled-back').length === 1);
    const issueRow = await t.context.db.prisma.issue.findFirstOrThrow({
      where: { repoId: repo.id, index: created.number },
    });
    const [details] = await t.context.services.issues.details([issueRow]);
    await expect(
      t.context.transactions.run(async (repos) => {
        await t.context.services.hookEvents.issues(repos, {
          repo,
          sender: owner.user,
          action: 'closed',
          issue: details,
        });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await settle();
    expect(receiver.at('/rolled-back')).toHaveLength(1);
  });
});

describe('cleanup_hook_task_table', () => {
  it('keeps the newest ten finished deliveries per hook', async () => {
    const hookId = await createHook(orgA, 'history', { events: ['push'] });
    const { prisma } = t.context.db;
    for (let i = 0; i < 13; i++) {
      await prisma.hookTask.create({
        data: {
          hookId,
          uuid: `history-${i}`,
          eventType: 'push',
          payload: '{}',
          status: i === 0 ? 'pending' : 'delivered',
        },
      });
    }
    await t.context.services.cron.runNow('cleanup_hook_task_table');
    const left = await prisma.hookTask.findMany({ where: { hookId }, orderBy: { id: 'asc' } });
    expect(left.map((task) => task.uuid)).toEqual([
      'history-0',
      ...Array.from({ length: 10 }, (_, i) => `history-${i + 3}`),
    ]);
    await prisma.hookTask.deleteMany({ where: { hookId } });
  });
});

describe('target addresses', () => {
  it('never connects to an address the allow list refuses, resolved names included', async () => {
    const strict = await startTestApp({ ...SETTINGS, ANVIL__webhook__ALLOWED_HOST_LIST: 'external' });
    const connections: string[] = [];
    const listener = net.createServer((socket) => {
      connections.push(String(socket.remoteAddress));
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = (listener.address() as net.AddressInfo).port;
    try {
      const user = await createTestUser(strict);
      const org = await createTestOrg(strict, user.user);
      for (const host of ['127.0.0.1', 'localhost', '[::ffff:127.0.0.1]']) {
        await strict
          .request()
          .post(`/api/v1/orgs/${org.name}/hooks`)
          .set('Authorization', user.auth)
          .send({
            type: 'forgejo',
            config: { url: `http://${host}:${port}/hook`, content_type: 'json' },
            events: ['repository'],
            active: true,
          })
          .expect(201);
      }
      await strict
        .request()
        .post(`/api/v1/orgs/${org.name}/repos`)
        .set('Authorization', user.auth)
        .send({ name: 'r' })
        .expect(201);
      await strict.context.services.hookDeliveries.deliverDue(10);
      const tasks = await strict.context.db.prisma.hookTask.findMany();
      expect(tasks).toHaveLength(3);
      for (const task of tasks) {
        expect(task).toMatchObject({ status: 'failed', attempts: 1 });
        expect(JSON.parse(task.responseInfo).body).toMatch(/ALLOWED_HOST_LIST/);
      }
      await sleep(100);
      expect(connections).toEqual([]);
    } finally {
      await new Promise((resolve) => listener.close(resolve));
      await strict.close();
    }
  });

  it('stops creation and delivery when webhooks are disabled', async () => {
    const off = await startTestApp({ ...SETTINGS, ANVIL__security__DISABLE_WEBHOOKS: 'true' });
    try {
      const root = await createTestUser(off, { admin: true });
      await off
        .request()
        .post('/api/v1/admin/hooks')
        .set('Authorization', root.auth)
        .send({ type: 'forgejo', config: { url: `${receiver.url}/off`, content_type: 'json' }, active: true })
        .expect(403);
      expect(await off.context.services.hookDeliveries.deliverDue(10)).toBe(0);
    } finally {
      await off.close();
    }
  });
});
