// Access decided by the route table's guards, in Forgejo's order (routers/api/v1/api.go): what the caller may not
// see is 404 before a token or role is asked for; repository deletion needs the owner; public-only tokens act on
// public resources only; renamed names redirect only callers who may see the target.
import type { User } from '../../src/db/prisma.ts';
import {
  addTestOrgMember,
  createTestOrg,
  createTestUser,
  createToken,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

async function createRepo(owner: TestUser, body: { name: string; private?: boolean }, orgName?: string) {
  const url = orgName ? `/api/v1/orgs/${orgName}/repos` : '/api/v1/user/repos';
  return (await t.request().post(url).set('Authorization', owner.auth).send(body).expect(201)).body as {
    id: number;
    name: string;
  };
}

async function repoRow(id: number) {
  return t.context.db.prisma.repository.findUnique({ where: { id } });
}

describe('an invisible repository is 404 before a token is required', () => {
  it.each(['patch', 'delete'] as const)(
    "anonymous %s on another user's private repository → 404, nothing changed",
    async (method) => {
      const repo = await createRepo(alice, { name: uniqueName('hidden'), private: true });
      const res = await t
        .request()
        [method](`/api/v1/repos/${alice.user.name}/${repo.name}`)
        .send({ description: 'x' })
        .expect(404);
      expect(res.body.message).not.toMatch(/token/);
      expect((await repoRow(repo.id))?.description).toBe('');
    },
  );

  it('anonymous PATCH on a public repository asks for a token (401)', async () => {
    const repo = await createRepo(alice, { name: uniqueName('open') });
    await t.request().patch(`/api/v1/repos/${alice.user.name}/${repo.name}`).send({ description: 'x' }).expect(401);
  });
});

describe('deleting a repository needs its owner', () => {
  let owner: TestUser;
  let org: User;
  beforeAll(async () => {
    owner = await createTestUser(t);
    org = await createTestOrg(t, owner.user);
  });

  it('a member of an admin team who is not an org owner → 403, the repository stays; the owner deletes it', async () => {
    const repo = await createRepo(owner, { name: uniqueName('kept'), private: true }, org.name);
    const teamAdmin = await createTestUser(t);
    await addTestOrgMember(t, org, teamAdmin.user, { accessMode: 3 });
    await t.context.db.prisma.team.updateMany({
      where: { orgId: org.id, accessMode: 3 },
      data: { includesAllRepositories: true },
    });
    // Admin access is enough to edit…
    await t
      .request()
      .patch(`/api/v1/repos/${org.name}/${repo.name}`)
      .set('Authorization', teamAdmin.auth)
      .send({ description: 'edited' })
      .expect(200);
    // …but not to delete.
    const refused = await t
      .request()
      .delete(`/api/v1/repos/${org.name}/${repo.name}`)
      .set('Authorization', teamAdmin.auth)
      .expect(403);
    expect(refused.body.message).toMatch(/owner/);
    expect(await repoRow(repo.id)).not.toBeNull();
    await t.request().delete(`/api/v1/repos/${org.name}/${repo.name}`).set('Authorization', owner.auth).expect(204);
    expect(await repoRow(repo.id)).toBeNull();
  });

  it("an admin collaborator on a user's repository → 403; a site admin may", async () => {
    const repo = await createRepo(alice, { name: uniqueName('collab') });
    const collaborator = await createTestUser(t);
    await t.context.db.prisma.collaboration.create({
      data: { repoId: repo.id, userId: collaborator.user.id, accessMode: 3 },
    });
    await t
      .request()
      .delete(`/api/v1/repos/${alice.user.name}/${repo.name}`)
      .set('Authorization', collaborator.auth)
      .expect(403);
    await t
      .request()
      .delete(`/api/v1/repos/${alice.user.name}/${repo.name}`)
      .set('Authorization', admin.auth)
      .expect(204);
  });
});

describe('public-only tokens act on public resources only', () => {
  let owner: TestUser;
  let publicOnly: string;
  let privateOrg: User;
  let publicOrg: User;

  beforeAll(async () => {
    owner = await createTestUser(t);
    publicOnly = `token ${await createToken(t, owner.user, 'public-only,write:repository,write:organization,write:user')}`;
    privateOrg = await createTestOrg(t, owner.user, { visibility: 2 });
    publicOrg = await createTestOrg(t, owner.user);
  });

  it('cannot publish, edit or delete a private repository', async () => {
    const repo = await createRepo(owner, { name: uniqueName('secret'), private: true });
    const url = `/api/v1/repos/${owner.user.name}/${repo.name}`;
    await t.request().patch(url).set('Authorization', publicOnly).send({ private: false }).expect(403);
    await t.request().patch(url).set('Authorization', publicOnly).send({ description: 'x' }).expect(403);
    await t.request().delete(url).set('Authorization', publicOnly).expect(403);
    const row = await repoRow(repo.id);
    expect(row).toMatchObject({ isPrivate: true, description: '' });
  });

  it('can edit a public repository of its user', async () => {
    const repo = await createRepo(owner, { name: uniqueName('public') });
    await t
      .request()
      .patch(`/api/v1/repos/${owner.user.name}/${repo.name}`)
      .set('Authorization', publicOnly)
      .send({ description: 'x' })
      .expect(200);
  });

  it('cannot create repositories in a private organization', async () => {
    const name = uniqueName('nope');
    await t
      .request()
      .post(`/api/v1/orgs/${privateOrg.name}/repos`)
      .set('Authorization', publicOnly)
      .send({ name })
      .expect(403);
    await t
      .request()
      .post(`/api/v1/org/${privateOrg.name}/repos`)
      .set('Authorization', publicOnly)
      .send({ name })
      .expect(403);
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: name } })).toBe(0);
    await t
      .request()
      .post(`/api/v1/orgs/${publicOrg.name}/repos`)
      .set('Authorization', publicOnly)
      .send({ name })
      .expect(201);
  });

  it('sees only public organizations and their teams in /user/orgs and /user/teams', async () => {
    const orgs = await t.request().get('/api/v1/user/orgs').set('Authorization', publicOnly).expect(200);
    expect(orgs.body.map((o: { name: string }) => o.name)).toEqual([publicOrg.name]);
    const teams = await t.request().get('/api/v1/user/teams').set('Authorization', publicOnly).expect(200);
    expect(teams.body.map((team: { organization: { name: string } }) => team.organization.name)).toEqual([
      publicOrg.name,
    ]);
    // The same calls with an unrestricted token list both.
    const all = await t.request().get('/api/v1/user/orgs').set('Authorization', owner.auth).expect(200);
    expect(all.body.map((o: { name: string }) => o.name).sort()).toEqual([privateOrg.name, publicOrg.name].sort());
  });

  it('cannot act on a private organization', async () => {
    await t
      .request()
      .patch(`/api/v1/orgs/${privateOrg.name}`)
      .set('Authorization', publicOnly)
      .send({ description: 'x' })
      .expect(403);
    await t.request().get(`/api/v1/orgs/${privateOrg.name}/teams`).set('Authorization', publicOnly).expect(403);
    await t
      .request()
      .patch(`/api/v1/orgs/${publicOrg.name}`)
      .set('Authorization', publicOnly)
      .send({ description: 'x' })
      .expect(200);
  });
});

describe('renamed names redirect only callers who may see the target', () => {
  let owner: TestUser;
  let org: User;
  let oldName: string;
  let newName: string;

  beforeAll(async () => {
    owner = await createTestUser(t);
    org = await createTestOrg(t, owner.user, { visibility: 2 });
    oldName = uniqueName('before');
    newName = uniqueName('after');
    await createRepo(owner, { name: oldName, private: true }, org.name);
    await t
      .request()
      .patch(`/api/v1/repos/${org.name}/${oldName}`)
      .set('Authorization', owner.auth)
      .send({ name: newName })
      .expect(200);
  });

  it('a private repository in a private org: 307 for its owner, the 404 of a missing name for everyone else', async () => {
    const url = `/api/v1/repos/${org.name}/${oldName}`;
    const redirected = await t.request().get(url).set('Authorization', owner.auth).expect(307);
    expect(redirected.headers.location).toBe(`/api/v1/repos/${org.name}/${newName}`);
    const outsider = await createTestUser(t);
    const missing = await t
      .request()
      .get(`/api/v1/repos/${org.name}/${uniqueName('never')}`)
      .set('Authorization', outsider.auth)
      .expect(404);
    const hidden = await t.request().get(url).set('Authorization', outsider.auth).expect(404);
    expect(hidden.body).toEqual(missing.body);
    expect(hidden.headers.location).toBeUndefined();
    await t.request().get(url).expect(404);
  });

  it('over git, an anonymous caller is challenged as for a missing repository, never redirected', async () => {
    const res = await t.request().get(`/${org.name}/${oldName}.git/info/refs?service=git-upload-pack`).expect(401);
    expect(res.headers.location).toBeUndefined();
  });

  it('a renamed private user: 307 for an admin, 404 for anonymous callers', async () => {
    const hidden = await createTestUser(t, { fields: { visibility: 2 } });
    const renamed = uniqueName('renamed');
    await t
      .request()
      .post(`/api/v1/admin/users/${hidden.user.name}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: renamed })
      .expect(204);
    await t.request().get(`/api/v1/users/${hidden.user.name}/orgs`).set('Authorization', alice.auth).expect(404);
    await t.request().get(`/api/v1/users/${hidden.user.name}/orgs`).set('Authorization', admin.auth).expect(307);
  });

  it('an admin-only route refuses a non-admin before it would redirect', async () => {
    const bob = await createTestUser(t);
    const renamed = uniqueName('bob');
    const oldBob = bob.user.name;
    await t
      .request()
      .post(`/api/v1/admin/users/${oldBob}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: renamed })
      .expect(204);
    const res = await t
      .request()
      .patch(`/api/v1/admin/users/${oldBob}`)
      .set('Authorization', alice.auth)
      .send({})
      .expect(403);
    expect(res.headers.location).toBeUndefined();
  });
});
