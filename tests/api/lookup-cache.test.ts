// The per-process cache of token and owner lookups decides nothing the database does not: every change to a token,
// an account or an organization is seen by the very next request, though the lookups before it were served from
// the cache (each is made twice first, so the second comes from it).
import {
  basicAuth,
  createTestOrg,
  createTestUser,
  memberOfTeam,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { upload } from '../helpers/packages.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

/** Signs in twice with the header on GET /user: the second time from the cache. */
async function signInTwice(authorization: string): Promise<void> {
  for (let i = 0; i < 2; i++) await t.request().get('/api/v1/user').set('Authorization', authorization).expect(200);
}

/** GET /orgs/{org} twice as the caller: the second time the organization comes from the cache. */
async function readOrgTwice(org: string, authorization?: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const req = t.request().get(`/api/v1/orgs/${org}`);
    if (authorization) req.set('Authorization', authorization);
    await req.expect(200);
  }
}

describe('tokens', () => {
  it('refuses a token at once once it is deleted', async () => {
    const alice = await createTestUser(t);
    const { body } = await t
      .request()
      .post(`/api/v1/users/${alice.user.name}/tokens`)
      .set('Authorization', basicAuth(alice.user.name, alice.password))
      .send({ name: 'ci', scopes: ['all'] })
      .expect(201);
    await signInTwice(`token ${body.sha1}`);
    await t
      .request()
      .delete(`/api/v1/users/${alice.user.name}/tokens/ci`)
      .set('Authorization', basicAuth(alice.user.name, alice.password))
      .expect(204);
    await t.request().get('/api/v1/user').set('Authorization', `token ${body.sha1}`).expect(401);
    // The other token of the same user still signs in.
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).expect(200);
  });

  it("refuses a deleted user's token at once", async () => {
    const bob = await createTestUser(t);
    await signInTwice(bob.auth);
    await t.request().delete(`/api/v1/admin/users/${bob.user.name}`).set('Authorization', admin.auth).expect(204);
    await t.request().get('/api/v1/user').set('Authorization', bob.auth).expect(401);
  });

  it('refuses the token of a user prohibited from signing in at once, and signs in again once allowed', async () => {
    const carol = await createTestUser(t);
    await signInTwice(carol.auth);
    const edit = (prohibit: boolean) =>
      t
        .request()
        .patch(`/api/v1/admin/users/${carol.user.name}`)
        .set('Authorization', admin.auth)
        .send({ prohibit_login: prohibit })
        .expect(200);
    await edit(true);
    await t.request().get('/api/v1/user').set('Authorization', carol.auth).expect(403);
    await edit(false);
    await t.request().get('/api/v1/user').set('Authorization', carol.auth).expect(200);
  });

  it('answers with the account as it is now, not as the cache first saw it', async () => {
    const dave = await createTestUser(t);
    await signInTwice(dave.auth);
    await t
      .request()
      .patch('/api/v1/user/settings')
      .set('Authorization', dave.auth)
      .send({ full_name: 'Dave Renamed' })
      .expect(200);
    const res = await t.request().get('/api/v1/user').set('Authorization', dave.auth).expect(200);
    expect(res.body.full_name).toBe('Dave Renamed');
  });
});

describe('passwords', () => {
  it('refuses the old password at once once an admin changed it', async () => {
    const erin = await createTestUser(t);
    await signInTwice(basicAuth(erin.user.name, erin.password));
    await t
      .request()
      .patch(`/api/v1/admin/users/${erin.user.name}`)
      .set('Authorization', admin.auth)
      .send({ password: 'a-brand-new-password', must_change_password: false })
      .expect(200);
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(erin.user.name, erin.password)).expect(401);
    await t
      .request()
      .get('/api/v1/user')
      .set('Authorization', basicAuth(erin.user.name, 'a-brand-new-password'))
      .expect(200);
  });
});

describe('organizations', () => {
  it('serves a renamed organization under its old name only as the redirect to the new one', async () => {
    const org = await createTestOrg(t, admin.user);
    const oldName = org.name;
    const newName = uniqueName('renamed');
    await readOrgTwice(oldName, admin.auth);
    // Forgejo's API renames no organization (its web settings do): the rows it writes, in one transaction.
    await t.context.transactions.run(async (repos) => {
      await repos.users.rename(org.id, newName);
      await repos.users.redirect(org.lowerName, org.id);
    });
    const old = await t.request().get(`/api/v1/orgs/${oldName}`).set('Authorization', admin.auth).expect(307);
    expect(old.headers.location).toBe(`/api/v1/orgs/${newName}`);
    const renamed = await t.request().get(`/api/v1/orgs/${newName}`).set('Authorization', admin.auth).expect(200);
    expect(renamed.body.username).toBe(newName);
  });

  it('serves a renamed user under the old name only as the redirect to the new one', async () => {
    const frank = await createTestUser(t);
    const oldName = frank.user.name;
    const newName = uniqueName('renamed');
    for (let i = 0; i < 2; i++)
      await t.request().get(`/api/v1/users/${oldName}`).set('Authorization', admin.auth).expect(200);
    await t
      .request()
      .post(`/api/v1/admin/users/${oldName}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: newName })
      .expect(204);
    const old = await t.request().get(`/api/v1/users/${oldName}`).set('Authorization', admin.auth).expect(307);
    expect(old.headers.location).toBe(`/api/v1/users/${newName}`);
    const me = await t.request().get('/api/v1/user').set('Authorization', frank.auth).expect(200);
    expect(me.body.login).toBe(newName);
  });

  it('hides an organization made private at once from those who may not see it', async () => {
    const org = await createTestOrg(t, admin.user);
    await readOrgTwice(org.name);
    await t
      .request()
      .patch(`/api/v1/orgs/${org.name}`)
      .set('Authorization', admin.auth)
      .send({ visibility: 'private' })
      .expect(200);
    await t.request().get(`/api/v1/orgs/${org.name}`).expect(404);
  });

  it('answers a deleted organization with 404 at once', async () => {
    const org = await createTestOrg(t, admin.user);
    await readOrgTwice(org.name, admin.auth);
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', admin.auth).expect(204);
    await t.request().get(`/api/v1/orgs/${org.name}`).set('Authorization', admin.auth).expect(404);
  });

  it('answers with the description as it is now after an edit', async () => {
    const org = await createTestOrg(t, admin.user);
    await readOrgTwice(org.name, admin.auth);
    await t
      .request()
      .patch(`/api/v1/orgs/${org.name}`)
      .set('Authorization', admin.auth)
      .send({ description: 'edited just now' })
      .expect(200);
    const res = await t.request().get(`/api/v1/orgs/${org.name}`).set('Authorization', admin.auth).expect(200);
    expect(res.body.description).toBe('edited just now');
  });
});

describe('repositories', () => {
  /** GET the repository twice as the caller: the second time it (and the caller's facts on it) comes from the cache. */
  async function readRepoTwice(path: string, authorization: string): Promise<void> {
    for (let i = 0; i < 2; i++)
      await t.request().get(`/api/v1/repos/${path}`).set('Authorization', authorization).expect(200);
  }

  async function orgRepository(isPrivate: boolean): Promise<string> {
    const org = await createTestOrg(t, admin.user);
    const name = uniqueName('repo');
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', admin.auth)
      .send({ name, private: isPrivate })
      .expect(201);
    return `${org.name}/${name}`;
  }

  it('hides a repository made private at once from those who may not see it', async () => {
    const path = await orgRepository(false);
    const reader = await createTestUser(t);
    await readRepoTwice(path, reader.auth);
    await t
      .request()
      .patch(`/api/v1/repos/${path}`)
      .set('Authorization', admin.auth)
      .send({ private: true })
      .expect(200);
    await t.request().get(`/api/v1/repos/${path}`).set('Authorization', reader.auth).expect(404);
  });

  it('refuses a collaborator at once once removed', async () => {
    const path = await orgRepository(true);
    const helper = await createTestUser(t);
    await t
      .request()
      .put(`/api/v1/repos/${path}/collaborators/${helper.user.name}`)
      .set('Authorization', admin.auth)
      .send({ permission: 'write' })
      .expect(204);
    await readRepoTwice(path, helper.auth);
    await t
      .request()
      .delete(`/api/v1/repos/${path}/collaborators/${helper.user.name}`)
      .set('Authorization', admin.auth)
      .expect(204);
    await t.request().get(`/api/v1/repos/${path}`).set('Authorization', helper.auth).expect(404);
  });

  it('refuses a team member at once once removed from the team', async () => {
    const path = await orgRepository(true);
    const [org, repo] = path.split('/');
    const member = await createTestUser(t);
    const { body: team } = await t
      .request()
      .post(`/api/v1/orgs/${org}/teams`)
      .set('Authorization', admin.auth)
      .send({ name: uniqueName('team'), permission: 'read', units: ['repo.code'] })
      .expect(201);
    await t.request().put(`/api/v1/teams/${team.id}/repos/${org}/${repo}`).set('Authorization', admin.auth).expect(204);
    await t
      .request()
      .put(`/api/v1/teams/${team.id}/members/${member.user.name}`)
      .set('Authorization', admin.auth)
      .expect(204);
    await readRepoTwice(path, member.auth);
    await t
      .request()
      .delete(`/api/v1/teams/${team.id}/members/${member.user.name}`)
      .set('Authorization', admin.auth)
      .expect(204);
    await t.request().get(`/api/v1/repos/${path}`).set('Authorization', member.auth).expect(404);
  });

  it("answers with the repository's counts and description as they are now", async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('repo');
    await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name }).expect(201);
    const path = `${owner.user.name}/${name}`;
    await readRepoTwice(path, owner.auth);
    await t
      .request()
      .post(`/api/v1/repos/${path}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'one' })
      .expect(201);
    await t
      .request()
      .patch(`/api/v1/repos/${path}`)
      .set('Authorization', owner.auth)
      .send({ description: 'edited just now' })
      .expect(200);
    const res = await t.request().get(`/api/v1/repos/${path}`).set('Authorization', owner.auth).expect(200);
    expect(res.body).toMatchObject({ open_issues_count: 1, description: 'edited just now' });
  });

  it('answers a deleted repository with 404 at once', async () => {
    const path = await orgRepository(false);
    await readRepoTwice(path, admin.auth);
    await t.request().delete(`/api/v1/repos/${path}`).set('Authorization', admin.auth).expect(204);
    await t.request().get(`/api/v1/repos/${path}`).set('Authorization', admin.auth).expect(404);
  });

  /** A repository of a new user's, with a first commit. */
  async function initialisedRepository(): Promise<{ owner: TestUser; path: string }> {
    const owner = await createTestUser(t);
    const name = uniqueName('repo');
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name, auto_init: true })
      .expect(201);
    return { owner, path: `${owner.user.name}/${name}` };
  }

  it('counts a release published just now', async () => {
    const { owner, path } = await initialisedRepository();
    await readRepoTwice(path, owner.auth);
    await t
      .request()
      .post(`/api/v1/repos/${path}/releases`)
      .set('Authorization', owner.auth)
      .send({ tag_name: 'v1.0' })
      .expect(201);
    const res = await t.request().get(`/api/v1/repos/${path}`).set('Authorization', owner.auth).expect(200);
    expect(res.body.release_counter).toBe(1);
  });

  it('queues a delivery to a hook added just after events that found none', async () => {
    const { owner, path } = await initialisedRepository();
    const { body: issue } = await t
      .request()
      .post(`/api/v1/repos/${path}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'hooked' })
      .expect(201);
    const comment = () =>
      t
        .request()
        .post(`/api/v1/repos/${path}/issues/${issue.number}/comments`)
        .set('Authorization', owner.auth)
        .send({ body: 'a comment' })
        .expect(201);
    // Each asks whether a hook reaches the repository: the second answer comes from the cache.
    await comment();
    await comment();
    const { body: hook } = await t
      .request()
      .post(`/api/v1/repos/${path}/hooks`)
      .set('Authorization', owner.auth)
      .send({
        type: 'forgejo',
        config: { url: 'http://127.0.0.1:9/hook', content_type: 'json' },
        events: ['issue_comment'],
        active: true,
      })
      .expect(201);
    await comment();
    expect(await t.context.db.prisma.hookTask.count({ where: { hookId: hook.id } })).toBe(1);
  });

  it("refuses a private org's package at once to one removed from the team that let them read it", async () => {
    const org = await createTestOrg(t, admin.user, { visibility: 2 });
    const member = await createTestUser(t);
    const teamId = await memberOfTeam(t, org, admin, member.user, {
      permission: 'read',
      units_map: { 'repo.code': 'read', 'repo.packages': 'read' },
    });
    const name = uniqueName('package');
    await upload(t, admin.auth, org.name, name, '1', 'f.bin').expect(201);
    const download = () =>
      t.request().get(`/api/packages/${org.name}/generic/${name}/1/f.bin`).set('Authorization', member.auth);
    for (let i = 0; i < 2; i++) await download().expect(200);
    await t
      .request()
      .delete(`/api/v1/teams/${teamId}/members/${member.user.name}`)
      .set('Authorization', admin.auth)
      .expect(204);
    await download().expect(404);
  });
});
