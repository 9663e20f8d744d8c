// Quota administration (groups, rules, members) and the owner views, with every status of the contract's
// quota rules (interface description §4.5).
import type { components } from '../../generated/api.d.ts';
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Schemas = components['schemas'];

let t: TestApp;
let admin: TestUser;
let alice: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
  alice = await createTestUser(t);
});
afterAll(() => t.close());

const api = (path: string) => `/api/v1${path}`;
const asAdmin = {
  get: (path: string) => t.request().get(api(path)).set('Authorization', admin.auth),
  post: (path: string, body: object) => t.request().post(api(path)).set('Authorization', admin.auth).send(body),
  patch: (path: string, body: object) => t.request().patch(api(path)).set('Authorization', admin.auth).send(body),
  put: (path: string) => t.request().put(api(path)).set('Authorization', admin.auth),
  delete: (path: string) => t.request().delete(api(path)).set('Authorization', admin.auth),
};

async function newRule(fields: Partial<Schemas['CreateQuotaRuleOptions']> = {}): Promise<Schemas['QuotaRuleInfo']> {
  const body = {
    name: uniqueName('rule'),
    limit: 1024,
    subjects: ['size:repos:all'],
    ...fields,
  } satisfies Schemas['CreateQuotaRuleOptions'];
  return (await asAdmin.post('/admin/quota/rules', body).expect(201)).body;
}

async function newGroup(rules: Schemas['CreateQuotaRuleOptions'][] = []): Promise<Schemas['QuotaGroup']> {
  return (await asAdmin.post('/admin/quota/groups', { name: uniqueName('group'), rules }).expect(201)).body;
}

describe('quota rules', () => {
  it('creates, reads, lists, edits (keeping omitted fields) and deletes a rule', async () => {
    const name = uniqueName('rule');
    const created = await asAdmin
      .post('/admin/quota/rules', { name, limit: 2048, subjects: ['size:repos:all', 'size:git:lfs'] })
      .expect(201);
    expect(created.body).toEqual({ name, limit: 2048, subjects: ['size:repos:all', 'size:git:lfs'] });
    expect((await asAdmin.get(`/admin/quota/rules/${name}`).expect(200)).body).toEqual(created.body);
    expect((await asAdmin.get('/admin/quota/rules').expect(200)).body).toContainEqual(created.body);

    const limitOnly = await asAdmin.patch(`/admin/quota/rules/${name}`, { limit: -1 }).expect(200);
    expect(limitOnly.body).toEqual({ name, limit: -1, subjects: ['size:repos:all', 'size:git:lfs'] });
    const subjectsOnly = await asAdmin
      .patch(`/admin/quota/rules/${name}`, { subjects: ['size:assets:packages:all'] })
      .expect(200);
    expect(subjectsOnly.body).toEqual({ name, limit: -1, subjects: ['size:assets:packages:all'] });

    await asAdmin.delete(`/admin/quota/rules/${name}`).expect(204);
    await asAdmin.get(`/admin/quota/rules/${name}`).expect(404);
    await asAdmin.delete(`/admin/quota/rules/${name}`).expect(404);
    await asAdmin.patch(`/admin/quota/rules/${name}`, { limit: 1 }).expect(404);
  });

  it('rule 2: a missing limit and an unknown subject are 422, a taken name 409', async () => {
    await asAdmin.post('/admin/quota/rules', { name: uniqueName('rule'), subjects: ['size:all'] }).expect(422);
    await asAdmin
      .post('/admin/quota/rules', { name: uniqueName('rule'), limit: 1, subjects: ['size:wiki'] })
      .expect(422);
    const rule = await newRule();
    const taken = await asAdmin.post('/admin/quota/rules', { name: rule.name, limit: 5, subjects: [] }).expect(409);
    expect(taken.body.message).toMatch(/already exists/);
    expect((await asAdmin.get(`/admin/quota/rules/${rule.name}`).expect(200)).body.limit).toBe(1024);
  });

  it('rule 3: editing with an unknown subject is 422 and changes nothing', async () => {
    const rule = await newRule();
    await asAdmin.patch(`/admin/quota/rules/${rule.name}`, { limit: 1, subjects: ['size:everything'] }).expect(422);
    expect((await asAdmin.get(`/admin/quota/rules/${rule.name}`).expect(200)).body).toEqual(rule);
  });

  it('accepts every subject Forgejo knows', async () => {
    const subjects = [
      'none',
      'size:all',
      'size:repos:all',
      'size:repos:public',
      'size:repos:private',
      'size:git:all',
      'size:git:lfs',
      'size:assets:all',
      'size:assets:attachments:all',
      'size:assets:attachments:issues',
      'size:assets:attachments:releases',
      'size:assets:artifacts',
      'size:assets:packages:all',
      'size:assets:wiki',
    ];
    expect((await newRule({ subjects })).subjects).toEqual(subjects);
  });

  it('deleting a rule takes it out of its groups', async () => {
    const group = await newGroup([{ name: uniqueName('rule'), limit: 5, subjects: ['size:all'] }]);
    await asAdmin.delete(`/admin/quota/rules/${group.rules![0].name}`).expect(204);
    expect((await asAdmin.get(`/admin/quota/groups/${group.name}`).expect(200)).body.rules).toEqual([]);
  });
});

describe('quota groups', () => {
  it('rule 1: creates the group with new rules (limit 0 when absent) and links existing ones as they are', async () => {
    const existing = await newRule({ limit: 77, subjects: ['size:git:lfs'] });
    const name = uniqueName('group');
    const fresh = uniqueName('rule');
    const res = await asAdmin
      .post('/admin/quota/groups', {
        name,
        rules: [
          { name: fresh, subjects: ['size:repos:public'] },
          { name: existing.name, limit: 1, subjects: ['size:all'] },
        ],
      })
      .expect(201);
    expect(res.body).toEqual({
      name,
      rules: [{ name: fresh, limit: 0, subjects: ['size:repos:public'] }, existing],
    });
    expect((await asAdmin.get(`/admin/quota/groups/${name}`).expect(200)).body).toEqual(res.body);
    expect((await asAdmin.get('/admin/quota/groups').expect(200)).body).toContainEqual(res.body);
  });

  it('rule 1: is atomic — an unknown subject (422) leaves neither the group nor the rules listed before it', async () => {
    const name = uniqueName('group');
    const first = uniqueName('rule');
    await asAdmin
      .post('/admin/quota/groups', {
        name,
        rules: [
          { name: first, limit: 1, subjects: ['size:all'] },
          { name: uniqueName('rule'), limit: 1, subjects: ['size:nothing'] },
        ],
      })
      .expect(422);
    await asAdmin.get(`/admin/quota/groups/${name}`).expect(404);
    await asAdmin.get(`/admin/quota/rules/${first}`).expect(404);
  });

  it('rule 1: a taken group name is 409', async () => {
    const group = await newGroup();
    await asAdmin.post('/admin/quota/groups', { name: group.name, rules: [] }).expect(409);
  });

  it('refuses a group without a name (422)', async () => {
    await asAdmin.post('/admin/quota/groups', { name: '' }).expect(422);
  });

  it('deletes a group (204), then 404', async () => {
    const group = await newGroup();
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${alice.user.name}`).expect(204);
    await asAdmin.delete(`/admin/quota/groups/${group.name}`).expect(204);
    await asAdmin.get(`/admin/quota/groups/${group.name}`).expect(404);
    await asAdmin.delete(`/admin/quota/groups/${group.name}`).expect(404);
    expect(await t.context.db.prisma.quotaGroupUser.count({ where: { groupName: group.name } })).toBe(0);
  });

  it('rule 5: adds a rule (204), refuses it twice (409), an unknown rule (422) and an unknown group (404); removes it (204, then 404)', async () => {
    const group = await newGroup();
    const rule = await newRule();
    await asAdmin.put(`/admin/quota/groups/${group.name}/rules/${rule.name}`).expect(204);
    expect((await asAdmin.get(`/admin/quota/groups/${group.name}`).expect(200)).body.rules).toEqual([rule]);
    await asAdmin.put(`/admin/quota/groups/${group.name}/rules/${rule.name}`).expect(409);
    await asAdmin.put(`/admin/quota/groups/${group.name}/rules/${uniqueName('missing')}`).expect(422);
    await asAdmin.put(`/admin/quota/groups/${uniqueName('missing')}/rules/${rule.name}`).expect(404);

    await asAdmin.delete(`/admin/quota/groups/${group.name}/rules/${rule.name}`).expect(204);
    await asAdmin.delete(`/admin/quota/groups/${group.name}/rules/${rule.name}`).expect(404);
    await asAdmin.delete(`/admin/quota/groups/${group.name}/rules/${uniqueName('missing')}`).expect(404);
    await asAdmin.delete(`/admin/quota/groups/${uniqueName('missing')}/rules/${rule.name}`).expect(404);
    expect((await asAdmin.get(`/admin/quota/groups/${group.name}`).expect(200)).body.rules).toEqual([]);
  });

  it('rule 4: adds a user (204), refuses a member (409); lists members; removes (204), then 404', async () => {
    const group = await newGroup();
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${alice.user.name}`).expect(204);
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${alice.user.name}`).expect(409);
    const members = await asAdmin.get(`/admin/quota/groups/${group.name}/users`).expect(200);
    expect(members.body.map((user: { login: string }) => user.login)).toEqual([alice.user.name]);

    await asAdmin.delete(`/admin/quota/groups/${group.name}/users/${alice.user.name}`).expect(204);
    await asAdmin.delete(`/admin/quota/groups/${group.name}/users/${alice.user.name}`).expect(404);
    expect((await asAdmin.get(`/admin/quota/groups/${group.name}/users`).expect(200)).body).toEqual([]);
  });

  it('answers 404 for an unknown group or user on the member routes', async () => {
    const group = await newGroup();
    await asAdmin.get(`/admin/quota/groups/${uniqueName('missing')}/users`).expect(404);
    await asAdmin.put(`/admin/quota/groups/${uniqueName('missing')}/users/${alice.user.name}`).expect(404);
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${uniqueName('nobody')}`).expect(404);
    await asAdmin.delete(`/admin/quota/groups/${group.name}/users/${uniqueName('nobody')}`).expect(404);
  });
});

describe('a user’s quota (admin)', () => {
  it('rule 6: sets exactly the listed groups; an unknown group is 422 and changes nothing', async () => {
    const user = await createTestUser(t);
    const [a, b, c] = [await newGroup(), await newGroup(), await newGroup()];
    await asAdmin.put(`/admin/quota/groups/${a.name}/users/${user.user.name}`).expect(204);
    await asAdmin.post(`/admin/users/${user.user.name}/quota/groups`, { groups: [b.name, c.name] }).expect(204);
    const groupsOf = async () =>
      (await asAdmin.get(`/admin/users/${user.user.name}/quota`).expect(200)).body.groups
        .map((g: { name: string }) => g.name)
        .sort();
    expect(await groupsOf()).toEqual([b.name, c.name].sort());

    await asAdmin
      .post(`/admin/users/${user.user.name}/quota/groups`, { groups: [a.name, uniqueName('missing')] })
      .expect(422);
    expect(await groupsOf()).toEqual([b.name, c.name].sort());

    await asAdmin.post(`/admin/users/${user.user.name}/quota/groups`, { groups: [] }).expect(204);
    expect(await groupsOf()).toEqual([]);
    await asAdmin.post(`/admin/users/${uniqueName('nobody')}/quota/groups`, { groups: [] }).expect(404);
  });

  it('shows usage and the groups with their names', async () => {
    const user = await createTestUser(t);
    const group = await newGroup([{ name: uniqueName('rule'), limit: 100, subjects: ['size:all'] }]);
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${user.user.name}`).expect(204);
    const res = await asAdmin.get(`/admin/users/${user.user.name}/quota`).expect(200);
    expect(res.body).toEqual({
      groups: [group],
      used: {
        size: {
          repos: { public: 0, private: 0 },
          git: { LFS: 0 },
          assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } },
        },
      },
    });
    await asAdmin.get(`/admin/users/${uniqueName('nobody')}/quota`).expect(404);
  });
});

describe('access to the admin routes', () => {
  it.each([
    ['get', '/admin/quota/groups'],
    ['get', '/admin/quota/rules'],
    ['post', '/admin/quota/rules'],
    ['get', '/admin/users/{me}/quota'],
  ])('%s %s is 401 anonymous and 403 for a non-admin', async (method, path) => {
    const url = api(path.replace('{me}', alice.user.name));
    const send = (req: ReturnType<ReturnType<TestApp['request']>['get']>) =>
      method === 'post' ? req.send({ name: 'x', limit: 1 }) : req;
    await send(t.request()[method as 'get'](url)).expect(401);
    await send(t.request()[method as 'get'](url).set('Authorization', alice.auth)).expect(403);
  });
});

describe('owner views', () => {
  it('an organization’s quota: owners see usage and groups without names; members 403, outsiders of a private org 404', async () => {
    const owner = await createTestUser(t);
    const member = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    await addTestOrgMember(t, org, member.user);
    const group = await newGroup([{ name: uniqueName('rule'), limit: 4096, subjects: ['size:repos:all'] }]);
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${org.name}`).expect(204);

    const res = await t
      .request()
      .get(api(`/orgs/${org.name}/quota`))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(res.body.groups).toEqual([{ rules: [{ limit: 4096, subjects: ['size:repos:all'] }] }]);
    expect(res.body.used.size.repos).toEqual({ public: 0, private: 0 });
    await t
      .request()
      .get(api(`/orgs/${org.name}/quota`))
      .set('Authorization', admin.auth)
      .expect(200);
    await t
      .request()
      .get(api(`/orgs/${org.name}/quota`))
      .set('Authorization', member.auth)
      .expect(403);
    await t
      .request()
      .get(api(`/orgs/${org.name}/quota`))
      .expect(401);
    await t
      .request()
      .get(api(`/orgs/${uniqueName('noorg')}/quota`))
      .set('Authorization', owner.auth)
      .expect(404);
    const hidden = await createTestOrg(t, owner.user, { visibility: 2 });
    await t
      .request()
      .get(api(`/orgs/${hidden.name}/quota`))
      .set('Authorization', alice.auth)
      .expect(404);
  });

  it('check answers a bare boolean; an unknown or missing subject is 422', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    const check = (subject?: string) => {
      const req = t
        .request()
        .get(api(`/orgs/${org.name}/quota/check`))
        .set('Authorization', owner.auth);
      return subject === undefined ? req : req.query({ subject });
    };
    // No group and [quota.default] TOTAL -1: unlimited.
    const res = await check('size:repos:all').expect(200);
    expect(res.text).toBe('true');
    const group = await newGroup([{ name: uniqueName('rule'), limit: 10, subjects: ['size:assets:all'] }]);
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${org.name}`).expect(204);
    expect((await check('size:assets:all').expect(200)).body).toBe(true);
    // The group has no rule covering size:repos:all: denied.
    expect((await check('size:repos:all').expect(200)).body).toBe(false);
    await check('size:wiki').expect(422);
    await check().expect(422);
    await t
      .request()
      .get(api(`/orgs/${org.name}/quota/check?subject=size:all`))
      .expect(401);
  });

  it('lists attachments and artifacts largest first with X-Total-Count and Link; packages are empty', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    const repo = await t.context.services.repoCreation.create(owner.user, org, { name: 'files', private: false });
    const { prisma } = t.context.db;
    const issue = await prisma.issue.create({
      data: { repoId: repo.id, index: 1, posterId: owner.user.id, title: 'bug' },
    });
    const release = await prisma.release.create({ data: { repoId: repo.id, tagName: 'v1.0' } });
    await prisma.attachment.createMany({
      data: [
        { uuid: uniqueName('a'), repoId: repo.id, issueId: issue.id, name: 'small.txt', size: 10n },
        { uuid: uniqueName('a'), repoId: repo.id, releaseId: release.id, name: 'big.zip', size: 300n },
        { uuid: uniqueName('a'), repoId: repo.id, issueId: issue.id, name: 'mid.png', size: 20n },
      ],
    });
    await prisma.actionArtifact.createMany({
      data: [
        { repoId: repo.id, ownerId: org.id, runId: 7, name: 'logs', fileSize: 100n, fileCompressedSize: 40n },
        { repoId: repo.id, ownerId: org.id, runId: 8, name: 'dist', fileSize: 900n, fileCompressedSize: 400n },
      ],
    });

    const page1 = await t
      .request()
      .get(api(`/orgs/${org.name}/quota/attachments?limit=2`))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(page1.headers['x-total-count']).toBe('3');
    expect(page1.headers.link).toContain('rel="next"');
    expect(page1.body.map((a: { name: string }) => a.name)).toEqual(['big.zip', 'mid.png']);
    const root = 'http://localhost:3000/';
    expect(page1.body[0]).toEqual({
      name: 'big.zip',
      size: 300,
      api_url: expect.stringMatching(
        new RegExp(`^${root}api/v1/repos/${org.name}/files/releases/${release.id}/assets/\\d+$`),
      ),
      contained_in: {
        api_url: `${root}api/v1/repos/${org.name}/files/releases/${release.id}`,
        html_url: `${root}${org.name}/files/releases/tag/v1.0`,
      },
    });
    expect(page1.body[1].contained_in).toEqual({
      api_url: `${root}api/v1/repos/${org.name}/files/issues/1`,
      html_url: `${root}${org.name}/files/issues/1`,
    });
    const page2 = await t
      .request()
      .get(api(`/orgs/${org.name}/quota/attachments?limit=2&page=2`))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(page2.body.map((a: { name: string }) => a.name)).toEqual(['small.txt']);

    const artifacts = await t
      .request()
      .get(api(`/orgs/${org.name}/quota/artifacts`))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(artifacts.headers['x-total-count']).toBe('2');
    expect(artifacts.body).toEqual([
      { name: 'dist', size: 400, html_url: `${root}${org.name}/files/actions/runs/8` },
      { name: 'logs', size: 40, html_url: `${root}${org.name}/files/actions/runs/7` },
    ]);
    const packages = await t
      .request()
      .get(api(`/orgs/${org.name}/quota/packages`))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(packages.body).toEqual([]);
    expect(packages.headers['x-total-count']).toBe('0');

    const info = await t
      .request()
      .get(api(`/orgs/${org.name}/quota`))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(info.body.used.size.assets).toEqual({
      attachments: { issues: 30, releases: 300 },
      artifacts: 440,
      packages: { all: 0 },
    });
    await t
      .request()
      .get(api(`/orgs/${org.name}/quota/artifacts`))
      .set('Authorization', alice.auth)
      .expect(403);
  });

  it('the user’s own quota: names blanked, check, lists; signed in only', async () => {
    const user = await createTestUser(t);
    const group = await newGroup([{ name: uniqueName('rule'), limit: 5, subjects: ['size:all'] }]);
    await asAdmin.put(`/admin/quota/groups/${group.name}/users/${user.user.name}`).expect(204);
    const res = await t.request().get(api('/user/quota')).set('Authorization', user.auth).expect(200);
    expect(res.body.groups).toEqual([{ rules: [{ limit: 5, subjects: ['size:all'] }] }]);
    expect(
      (await t.request().get(api('/user/quota/check?subject=size:all')).set('Authorization', user.auth).expect(200))
        .body,
    ).toBe(true);
    await t.request().get(api('/user/quota/check?subject=bogus')).set('Authorization', user.auth).expect(422);
    for (const list of ['attachments', 'packages', 'artifacts']) {
      const page = await t
        .request()
        .get(api(`/user/quota/${list}`))
        .set('Authorization', user.auth)
        .expect(200);
      expect(page.body).toEqual([]);
      expect(page.headers['x-total-count']).toBe('0');
    }
    await t.request().get(api('/user/quota')).expect(401);
  });

  it('a user in no group sees the default groups of [quota] DEFAULT_GROUPS when they exist', async () => {
    const group = await newGroup([{ name: uniqueName('rule'), limit: 9, subjects: ['size:all'] }]);
    const quota = t.context.settings.quota as { DEFAULT_GROUPS: string[] };
    quota.DEFAULT_GROUPS = [group.name!, uniqueName('missing')];
    try {
      const user = await createTestUser(t);
      const res = await t.request().get(api('/user/quota')).set('Authorization', user.auth).expect(200);
      expect(res.body.groups).toEqual([{ rules: [{ limit: 9, subjects: ['size:all'] }] }]);
    } finally {
      quota.DEFAULT_GROUPS = [];
    }
  });
});
