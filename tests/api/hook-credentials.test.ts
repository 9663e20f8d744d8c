// Webhook secrets and authorization headers are stored encrypted and never answered (both write-only; Forgejo
// answers the header, a deliberate difference), and rows written before encryption are read as they are and
// encrypted at the next start.
import { startupHousekeeping } from '../../src/app/background-work.ts';
import { AtRestCipher } from '../../src/crypto/at-rest-cipher.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startSecondApp } from '../helpers/second-app.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

const hookBody = (authorization: string, secret: string) => ({
  type: 'gitea',
  config: { url: 'https://hooks.example/in', content_type: 'json', secret },
  events: ['push'],
  active: true,
  authorization_header: authorization,
});

async function storedHook(id: number) {
  return t.context.db.prisma.webhook.findUniqueOrThrow({ where: { id } });
}

/** The header as Anvil reads it back for delivery. */
async function openedHeader(app: Pick<TestApp, 'context'>, id: number): Promise<string | undefined> {
  const row = await storedHook(id);
  return (await app.context.repos.webhooks.find({ ownerId: row.ownerId, repoId: row.repoId }, id))?.authorization;
}

/** Every hook record in a body carries the field, empty. */
function expectHeaderHidden(body: unknown, clear: string): void {
  const hooks = Array.isArray(body) ? body : [body];
  expect(hooks.length).toBeGreaterThan(0);
  for (const hook of hooks) expect(hook).toHaveProperty('authorization_header', '');
  expect(JSON.stringify(body)).not.toContain(clear);
}

describe('hook credentials at rest', () => {
  it('stores the authorization header and secret encrypted and answers neither', async () => {
    const org = await createTestOrg(t, owner.user);
    const base = `/api/v1/orgs/${org.name}/hooks`;
    const created = await t
      .request()
      .post(base)
      .set('Authorization', owner.auth)
      .send(hookBody('Bearer org-header-1', 'org-secret-1'))
      .expect(201);
    expectHeaderHidden(created.body, 'org-header-1');
    expect(await openedHeader(t, created.body.id)).toBe('Bearer org-header-1');

    const row = await storedHook(created.body.id);
    for (const [column, clear] of [
      [row.authorization, 'Bearer org-header-1'],
      [row.secret, 'org-secret-1'],
    ]) {
      expect(column).toMatch(/^enc1:[0-9a-f]{8}:/);
      expect(column).not.toContain(clear);
    }
    const read = await t.request().get(`${base}/${created.body.id}`).set('Authorization', owner.auth).expect(200);
    expectHeaderHidden(read.body, 'org-header-1');
    expectHeaderHidden((await t.request().get(base).set('Authorization', owner.auth).expect(200)).body, 'org-header-1');

    const edited = await t
      .request()
      .patch(`${base}/${created.body.id}`)
      .set('Authorization', owner.auth)
      .send({ authorization_header: 'Bearer org-header-2', config: { secret: 'org-secret-2' } })
      .expect(200);
    expectHeaderHidden(edited.body, 'org-header-2');
    expect(await openedHeader(t, created.body.id)).toBe('Bearer org-header-2');
    const editedRow = await storedHook(created.body.id);
    expect(editedRow.authorization).not.toContain('org-header-2');
    expect(editedRow.authorization).not.toBe(row.authorization);
    expect(editedRow.secret).not.toContain('org-secret-2');
    expect(JSON.stringify(edited.body)).not.toContain('org-secret');
  });

  it('encrypts two equal system hook headers differently, hides them and reads both from a restarted app', async () => {
    const created: { id: number }[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await t
        .request()
        .post('/api/v1/admin/hooks')
        .set('Authorization', admin.auth)
        .send({
          ...hookBody('token same-header', ''),
          config: { url: 'https://hooks.example/in', content_type: 'json', is_system_webhook: 'true' },
        })
        .expect(201);
      expectHeaderHidden(res.body, 'same-header');
      created.push(res.body);
    }
    const edited = await t
      .request()
      .patch(`/api/v1/admin/hooks/${created[0].id}`)
      .set('Authorization', admin.auth)
      .send({ authorization_header: 'token same-header' })
      .expect(200);
    expectHeaderHidden(edited.body, 'same-header');
    const read = await t
      .request()
      .get(`/api/v1/admin/hooks/${created[0].id}`)
      .set('Authorization', admin.auth)
      .expect(200);
    expectHeaderHidden(read.body, 'same-header');
    const [a, b] = await Promise.all(created.map((hook) => storedHook(hook.id)));
    expect(a.authorization).not.toBe(b.authorization);

    const restarted = await startSecondApp(t);
    try {
      const listed = await restarted.request().get('/api/v1/admin/hooks').set('Authorization', admin.auth).expect(200);
      expectHeaderHidden(listed.body, 'same-header');
      for (const hook of created) expect(await openedHeader(restarted, hook.id)).toBe('token same-header');
    } finally {
      await restarted.close();
    }
  });

  it('reads rows stored in clear before encryption as they are, and encrypts them at the next start', async () => {
    const org = await createTestOrg(t, owner.user);
    const legacy = await t.context.db.prisma.webhook.create({
      data: {
        ownerId: org.id,
        repoId: 0,
        type: 'gitea',
        url: 'https://hooks.example/old',
        contentType: 1,
        secret: 'old-secret',
        authorization: 'Basic b2xkOmhlYWRlcg==',
        isActive: true,
        events: '{"push_only":true}',
      },
    });
    const path = `/api/v1/orgs/${org.name}/hooks/${legacy.id}`;
    const read = await t.request().get(path).set('Authorization', owner.auth).expect(200);
    expectHeaderHidden(read.body, 'b2xkOmhlYWRlcg');
    expect(await openedHeader(t, legacy.id)).toBe('Basic b2xkOmhlYWRlcg==');

    const restarted = await startSecondApp(t);
    try {
      // A restarted server runs it a moment after it listens.
      await startupHousekeeping(restarted.context, restarted.context.log);
      const row = await storedHook(legacy.id);
      expect(AtRestCipher.isSealed(row.authorization)).toBe(true);
      expect(AtRestCipher.isSealed(row.secret)).toBe(true);
      expect(row.authorization).not.toContain('b2xkOmhlYWRlcg');
      expect(await openedHeader(restarted, legacy.id)).toBe('Basic b2xkOmhlYWRlcg==');
      const opened = await restarted.context.repos.webhooks.find({ ownerId: org.id, repoId: 0 }, legacy.id);
      expect(opened?.secret).toBe('old-secret');
    } finally {
      await restarted.close();
    }
    expect(await openedHeader(t, legacy.id)).toBe('Basic b2xkOmhlYWRlcg==');
  });
});
