// Webhook branch filters: refused on write when they are not globs or are too long (org and system hooks, create
// and edit), and matched on push without holding the event loop, whatever the pattern.
import { allowedStallMs, withEventLoopProbe } from '../helpers/event-loop-probe.ts';
import path from 'node:path';
import type { Server } from 'node:http';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let org: User;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
  owner = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
});
afterAll(() => t.close());

const hook = (branchFilter: string) => ({
  type: 'gitea',
  config: { url: 'https://hooks.example/in', content_type: 'json' },
  events: ['push'],
  active: true,
  branch_filter: branchFilter,
});

describe('branch filters on write', () => {
  const routes = () => [
    { base: `/api/v1/orgs/${org.name}/hooks`, auth: owner.auth },
    { base: '/api/v1/admin/hooks', auth: admin.auth },
  ];

  it.each([
    ['longer than 1024 characters', '*'.repeat(1025), /longer than 1024 characters/],
    ['not a glob', 'release-[', /not a valid glob pattern/],
  ])('refuses a filter %s with 422 on create and edit, and changes nothing', async (_case, filter, message) => {
    for (const { base, auth } of routes()) {
      const refused = await t.request().post(base).set('Authorization', auth).send(hook(filter)).expect(422);
      expect(refused.body.message).toMatch(message);
      const created = await t.request().post(base).set('Authorization', auth).send(hook('main')).expect(201);
      const edit = await t
        .request()
        .patch(`${base}/${created.body.id}`)
        .set('Authorization', auth)
        .send({ branch_filter: filter })
        .expect(422);
      expect(edit.body.message).toMatch(message);
      const stored = await t.request().get(`${base}/${created.body.id}`).set('Authorization', auth).expect(200);
      expect(stored.body.branch_filter).toBe('main');
    }
  });

  it('accepts a filter of exactly 1024 characters', async () => {
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/hooks`)
      .set('Authorization', owner.auth)
      .send(hook('a'.repeat(1024)))
      .expect(201);
  });
});

describe('branch filters on push', () => {
  let server: Server;
  let work: string;
  let remote: string;

  beforeAll(async () => {
    let base: string;
    ({ server, base } = await listen(t));
    const pushOrg = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${pushOrg.name}/hooks`)
      .set('Authorization', owner.auth)
      .send(hook('*a*a*a*a*a*a*a*a*a*a*b'))
      .expect(201);
    await t
      .request()
      .post(`/api/v1/orgs/${pushOrg.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'pushed', auto_init: true })
      .expect(201);
    remote = `${withCredentials(base, owner.token)}${pushOrg.name}/pushed.git`;
    work = path.join(tempDir(), 'w');
    await gitOk(['clone', '-q', remote, work]);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('keeps the event loop responsive while `*a*a*a*a*a*a*a*a*a*a*b` meets a branch of 38 × `a`', async () => {
    const tasksBefore = await t.context.db.prisma.hookTask.count();
    const { maxStallMs, workMs } = await withEventLoopProbe(() =>
      gitOk(['push', '-q', remote, `HEAD:refs/heads/${'a'.repeat(38)}`], work),
    );
    expect(maxStallMs).toBeLessThan(allowedStallMs(workMs));
    // The filter does not match, so nothing is queued; a branch that ends in `b` is.
    expect(await t.context.db.prisma.hookTask.count()).toBe(tasksBefore);
    await gitOk(['push', '-q', remote, `HEAD:refs/heads/${'a'.repeat(37)}b`], work);
    expect(await t.context.db.prisma.hookTask.count()).toBe(tasksBefore + 1);
  });
});
