import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
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

const validHook = {
  type: 'gitea',
  config: { url: 'https://hooks.example/in', content_type: 'json', secret: 's3cret' },
  events: ['push', 'issues'],
  active: true,
};

describe('organization hooks', () => {
  it('creates, lists, reads, edits and deletes a hook, never echoing the secret', async () => {
    const org = await createTestOrg(t, owner.user);
    const base = `/api/v1/orgs/${org.name}/hooks`;
    const created = await t
      .request()
      .post(base)
      .set('Authorization', owner.auth)
      .send({ ...validHook, branch_filter: 'main', authorization_header: 'Bearer abc' })
      .expect(201);
    expect(created.body).toMatchObject({
      type: 'gitea',
      url: 'https://hooks.example/in',
      active: true,
      content_type: 'json',
      branch_filter: 'main',
      authorization_header: '',
      config: { url: 'https://hooks.example/in', content_type: 'json' },
      events: ['push', 'issues', 'issue_assign', 'issue_label', 'issue_milestone', 'issue_comment'],
    });
    expect(JSON.stringify(created.body)).not.toContain('s3cret');
    const stored = await t.context.db.prisma.webhook.findUniqueOrThrow({ where: { id: created.body.id } });
    expect(stored).toMatchObject({ ownerId: org.id, repoId: 0, isSystemWebhook: false });
    expect(stored.secret).toMatch(/^enc1:/);

    const listed = await t.request().get(base).set('Authorization', owner.auth).expect(200);
    expect(listed.body.map((h: { id: number }) => h.id)).toEqual([created.body.id]);
    expect(listed.headers['x-total-count']).toBe('1');
    await t.request().get(`${base}/${created.body.id}`).set('Authorization', owner.auth).expect(200);

    const edited = await t
      .request()
      .patch(`${base}/${created.body.id}`)
      .set('Authorization', owner.auth)
      .send({ config: { content_type: 'form' }, events: ['create'], active: false })
      .expect(200);
    expect(edited.body).toMatchObject({
      content_type: 'form',
      events: ['create'],
      active: false,
      url: 'https://hooks.example/in',
      branch_filter: '',
    });
    const pushOnly = await t
      .request()
      .patch(`${base}/${created.body.id}`)
      .set('Authorization', owner.auth)
      .send({})
      .expect(200);
    expect(pushOnly.body).toMatchObject({ events: ['push'], active: false });

    await t.request().delete(`${base}/${created.body.id}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`${base}/${created.body.id}`).set('Authorization', owner.auth).expect(404);
    await t.request().patch(`${base}/${created.body.id}`).set('Authorization', owner.auth).send({}).expect(404);
    await t.request().delete(`${base}/${created.body.id}`).set('Authorization', owner.auth).expect(404);
  });

  it.each([
    ['a missing url', { type: 'gitea', config: { content_type: 'json' } }],
    ['a missing content type', { type: 'gitea', config: { url: 'https://x.example' } }],
    ['an invalid url', { type: 'gitea', config: { url: 'not a url', content_type: 'json' } }],
    ['a non-http url', { type: 'gitea', config: { url: 'file:///etc/passwd', content_type: 'json' } }],
    ['an unknown content type', { type: 'gitea', config: { url: 'https://x.example', content_type: 'xml' } }],
    ['an unknown type', { type: 'carrier-pigeon', config: { url: 'https://x.example', content_type: 'json' } }],
    ['slack without a channel', { type: 'slack', config: { url: 'https://x.example', content_type: 'json' } }],
    [
      'slack with a bad channel',
      { type: 'slack', config: { url: 'https://x.example', content_type: 'json', channel: 'Bad Channel!' } },
    ],
    ['no config', { type: 'gitea' }],
  ])('refuses %s with 422', async (_case, body) => {
    const org = await createTestOrg(t, owner.user);
    await t.request().post(`/api/v1/orgs/${org.name}/hooks`).set('Authorization', owner.auth).send(body).expect(422);
  });

  it('stores a loopback target: validation is of form, not reachability', async () => {
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/hooks`)
      .set('Authorization', owner.auth)
      .send({ type: 'forgejo', config: { url: 'http://127.0.0.1:9/hook', content_type: 'form' } })
      .expect(201);
  });

  it('keeps slack settings in the config and metadata', async () => {
    const org = await createTestOrg(t, owner.user);
    const res = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/hooks`)
      .set('Authorization', owner.auth)
      .send({
        type: 'slack',
        config: { url: 'https://slack.example/x', content_type: 'json', channel: ' #dev ', username: 'bot' },
      })
      .expect(201);
    expect(res.body.config).toMatchObject({ channel: '#dev', username: 'bot' });
    expect(res.body.metadata).toMatchObject({ channel: '#dev', username: 'bot' });
    await t
      .request()
      .patch(`/api/v1/orgs/${org.name}/hooks/${res.body.id}`)
      .set('Authorization', owner.auth)
      .send({ config: { channel: 'NOT OK' } })
      .expect(422);
  });

  it('is for owners only, and 403 when webhooks are disabled', async () => {
    const org = await createTestOrg(t, owner.user);
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    await t.request().get(`/api/v1/orgs/${org.name}/hooks`).set('Authorization', member.auth).expect(403);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/hooks`)
      .set('Authorization', member.auth)
      .send(validHook)
      .expect(403);

    const off = await startTestApp({ ANVIL__security__DISABLE_WEBHOOKS: 'true' });
    try {
      const offOwner = await createTestUser(off);
      const offOrg = await createTestOrg(off, offOwner.user);
      const res = await off
        .request()
        .get(`/api/v1/orgs/${offOrg.name}/hooks`)
        .set('Authorization', offOwner.auth)
        .expect(403);
      expect(res.body.message).toMatch(/disabled/);
    } finally {
      await off.close();
    }
  });

  it('does not reach hooks of another organization or the instance', async () => {
    const org = await createTestOrg(t, owner.user);
    const other = await createTestOrg(t, owner.user);
    const foreign = await t
      .request()
      .post(`/api/v1/orgs/${other.name}/hooks`)
      .set('Authorization', owner.auth)
      .send(validHook)
      .expect(201);
    const system = await t
      .request()
      .post('/api/v1/admin/hooks')
      .set('Authorization', admin.auth)
      .send({ ...validHook, config: { ...validHook.config, is_system_webhook: 'true' } })
      .expect(201);
    for (const id of [foreign.body.id, system.body.id]) {
      await t.request().get(`/api/v1/orgs/${org.name}/hooks/${id}`).set('Authorization', owner.auth).expect(404);
      await t.request().delete(`/api/v1/orgs/${org.name}/hooks/${id}`).set('Authorization', owner.auth).expect(404);
    }
  });
});

describe('admin hooks', () => {
  it('creates system hooks when is_system_webhook is true and default hooks otherwise; lists system hooks only', async () => {
    const system = await t
      .request()
      .post('/api/v1/admin/hooks')
      .set('Authorization', admin.auth)
      .send({ ...validHook, config: { ...validHook.config, is_system_webhook: 'true' } })
      .expect(201);
    const fallback = await t
      .request()
      .post('/api/v1/admin/hooks')
      .set('Authorization', admin.auth)
      .send(validHook)
      .expect(201);
    expect(JSON.stringify(system.body)).not.toContain('s3cret');
    const { prisma } = t.context.db;
    expect(await prisma.webhook.findUniqueOrThrow({ where: { id: system.body.id } })).toMatchObject({
      ownerId: 0,
      repoId: 0,
      isSystemWebhook: true,
    });
    expect(await prisma.webhook.findUniqueOrThrow({ where: { id: fallback.body.id } })).toMatchObject({
      ownerId: 0,
      repoId: 0,
      isSystemWebhook: false,
    });

    const listed = await t.request().get('/api/v1/admin/hooks').set('Authorization', admin.auth).expect(200);
    const ids = listed.body.map((h: { id: number }) => h.id);
    expect(ids).toContain(system.body.id);
    expect(ids).not.toContain(fallback.body.id);

    // Get, edit and delete reach default hooks too.
    await t.request().get(`/api/v1/admin/hooks/${fallback.body.id}`).set('Authorization', admin.auth).expect(200);
    const edited = await t
      .request()
      .patch(`/api/v1/admin/hooks/${fallback.body.id}`)
      .set('Authorization', admin.auth)
      .send({ config: { url: 'https://elsewhere.example/' }, events: ['release'] })
      .expect(200);
    expect(edited.body).toMatchObject({ url: 'https://elsewhere.example/', events: ['release'] });
    await t.request().delete(`/api/v1/admin/hooks/${fallback.body.id}`).set('Authorization', admin.auth).expect(204);
    await t.request().get(`/api/v1/admin/hooks/${fallback.body.id}`).set('Authorization', admin.auth).expect(404);
  });

  it('answers 404 for unknown ids and for organization hooks, PATCH included', async () => {
    const org = await createTestOrg(t, owner.user);
    const orgHook = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/hooks`)
      .set('Authorization', owner.auth)
      .send(validHook)
      .expect(201);
    for (const id of [999999, orgHook.body.id]) {
      await t.request().get(`/api/v1/admin/hooks/${id}`).set('Authorization', admin.auth).expect(404);
      await t.request().patch(`/api/v1/admin/hooks/${id}`).set('Authorization', admin.auth).send({}).expect(404);
      await t.request().delete(`/api/v1/admin/hooks/${id}`).set('Authorization', admin.auth).expect(404);
    }
  });

  it('validates like organization hooks and refuses a bad is_system_webhook', async () => {
    await t
      .request()
      .post('/api/v1/admin/hooks')
      .set('Authorization', admin.auth)
      .send({ type: 'gitea', config: { content_type: 'json' } })
      .expect(422);
    await t
      .request()
      .post('/api/v1/admin/hooks')
      .set('Authorization', admin.auth)
      .send({ ...validHook, config: { ...validHook.config, is_system_webhook: 'maybe' } })
      .expect(422);
  });

  it('is for admins only', async () => {
    await t.request().get('/api/v1/admin/hooks').set('Authorization', owner.auth).expect(403);
    await t.request().post('/api/v1/admin/hooks').set('Authorization', owner.auth).send(validHook).expect(403);
    await t.request().get('/api/v1/admin/hooks').expect(401);
  });
});
