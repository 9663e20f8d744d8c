import fs from 'node:fs';
import path from 'node:path';
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
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const VISIBILITIES = ['public', 'limited', 'private'] as const;

describe('POST /orgs', () => {
  it('creates an organization whose creator is the only member of the Owners team', async () => {
    const alice = await createTestUser(t);
    const name = uniqueName('org');
    const res = await t
      .request()
      .post('/api/v1/orgs')
      .set('Authorization', alice.auth)
      .send({
        username: name,
        full_name: 'Acme',
        email: 'acme@example.com',
        description: 'd',
        website: 'https://acme.example',
        location: 'here',
        repo_admin_change_team_access: true,
      })
      .expect(201);
    expect(res.body).toMatchObject({
      name,
      username: name,
      full_name: 'Acme',
      email: 'acme@example.com',
      description: 'd',
      website: 'https://acme.example',
      location: 'here',
      visibility: 'public',
      repo_admin_change_team_access: true,
      avatar_url: `http://localhost:3000/avatars/default/${res.body.id}`,
    });
    const teams = await t.context.db.prisma.team.findMany({
      where: { orgId: res.body.id },
      include: { members: true, units: true },
    });
    expect(teams).toHaveLength(1);
    expect(teams[0]).toMatchObject({
      name: 'Owners',
      accessMode: 4,
      includesAllRepositories: true,
      canCreateOrgRepo: true,
      numMembers: 1,
    });
    expect(teams[0].members.map((m) => m.userId)).toEqual([alice.user.id]);
    expect(teams[0].units.map((u) => [u.type, u.accessMode]).sort((a, b) => a[0] - b[0])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((type) => [type, 4]),
    );
    const membership = await t.context.db.prisma.orgUser.findMany({ where: { orgId: res.body.id } });
    expect(membership).toEqual([expect.objectContaining({ userId: alice.user.id, isPublic: false })]);
  });

  it.each([
    ['a taken name (any case)', (taken: string) => taken.toUpperCase()],
    ['a reserved name', () => 'admin'],
    ['a reserved suffix', () => 'thing.keys'],
    ['disallowed characters', () => 'bad name'],
    ['a trailing dot', () => 'dotted.'],
    ['an empty name', () => ''],
    ['a name over 40 characters', () => 'x'.repeat(41)],
  ])('refuses %s with 422', async (_case, makeName) => {
    const alice = await createTestUser(t);
    const taken = await createTestOrg(t, alice.user);
    await t
      .request()
      .post('/api/v1/orgs')
      .set('Authorization', alice.auth)
      .send({ username: makeName(taken.name) })
      .expect(422);
  });

  it('refuses bad fields with 422', async () => {
    const alice = await createTestUser(t);
    for (const body of [
      { website: 'not a url' },
      { email: 'nope' },
      { location: 'x'.repeat(51) },
      { visibility: 'secret' },
    ]) {
      await t
        .request()
        .post('/api/v1/orgs')
        .set('Authorization', alice.auth)
        .send({ username: uniqueName('org'), ...body })
        .expect(422);
    }
  });

  it('answers 403 when the caller may not create organizations, 401 anonymously', async () => {
    const bob = await createTestUser(t, { fields: { allowCreateOrganization: false } });
    await t
      .request()
      .post('/api/v1/orgs')
      .set('Authorization', bob.auth)
      .send({ username: uniqueName('org') })
      .expect(403);
    await t
      .request()
      .post('/api/v1/orgs')
      .send({ username: uniqueName('org') })
      .expect(401);
  });

  it('honours DISABLE_REGULAR_ORG_CREATION except for admins', async () => {
    const locked = await startTestApp({ ANVIL__admin__DISABLE_REGULAR_ORG_CREATION: 'true' });
    try {
      const user = await createTestUser(locked);
      const admin = await createTestUser(locked, { admin: true });
      await locked
        .request()
        .post('/api/v1/orgs')
        .set('Authorization', user.auth)
        .send({ username: uniqueName('org') })
        .expect(403);
      await locked
        .request()
        .post('/api/v1/orgs')
        .set('Authorization', admin.auth)
        .send({ username: uniqueName('org') })
        .expect(201);
    } finally {
      await locked.close();
    }
  });
});

describe('POST /admin/users/{username}/orgs', () => {
  it('creates an organization owned by that user, ignoring the email', async () => {
    const admin = await createTestUser(t, { admin: true });
    const carol = await createTestUser(t);
    const name = uniqueName('org');
    const res = await t
      .request()
      .post(`/api/v1/admin/users/${carol.user.name}/orgs`)
      .set('Authorization', admin.auth)
      .send({ username: name, email: 'x@example.com', visibility: 'private' })
      .expect(201);
    expect(res.body).toMatchObject({ name, email: '', visibility: 'private' });
    const perms = await t
      .request()
      .get(`/api/v1/users/${carol.user.name}/orgs/${name}/permissions`)
      .set('Authorization', carol.auth)
      .expect(200);
    expect(perms.body.is_owner).toBe(true);
  });

  it('answers 403 to non-admins, 404 for an unknown user, 422 when the user may not create organizations', async () => {
    const admin = await createTestUser(t, { admin: true });
    const carol = await createTestUser(t);
    const locked = await createTestUser(t, { fields: { allowCreateOrganization: false } });
    await t
      .request()
      .post(`/api/v1/admin/users/${carol.user.name}/orgs`)
      .set('Authorization', carol.auth)
      .send({ username: uniqueName('org') })
      .expect(403);
    await t
      .request()
      .post('/api/v1/admin/users/nobody-at-all/orgs')
      .set('Authorization', admin.auth)
      .send({ username: uniqueName('org') })
      .expect(404);
    await t
      .request()
      .post(`/api/v1/admin/users/${locked.user.name}/orgs`)
      .set('Authorization', admin.auth)
      .send({ username: uniqueName('org') })
      .expect(422);
  });
});

describe('organization lists', () => {
  let owner: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  let restricted: TestUser;
  const orgs: Record<string, User> = {};

  beforeAll(async () => {
    owner = await createTestUser(t);
    outsider = await createTestUser(t);
    admin = await createTestUser(t, { admin: true });
    restricted = await createTestUser(t, { fields: { isRestricted: true } });
    for (const [index, visibility] of VISIBILITIES.entries()) {
      orgs[visibility] = await createTestOrg(t, owner.user, {
        name: `lists-${visibility}-${uniqueName('')}`,
        visibility: index as 0 | 1 | 2,
      });
    }
    await addTestOrgMember(t, orgs.limited, restricted.user);
    await addTestOrgMember(t, orgs.private, restricted.user);
  });

  const listed = (body: { name: string }[]) => VISIBILITIES.filter((v) => body.some((o) => o.name === orgs[v].name));

  it('GET /orgs shows public to anonymous callers, limited to signed-in ones, private to admins, alphabetically', async () => {
    expect(listed((await t.request().get('/api/v1/orgs?limit=50').expect(200)).body)).toEqual(['public']);
    expect(
      listed((await t.request().get('/api/v1/orgs?limit=50').set('Authorization', outsider.auth).expect(200)).body),
    ).toEqual(['public', 'limited']);
    // Members do not see their private organizations here either.
    expect(
      listed((await t.request().get('/api/v1/orgs?limit=50').set('Authorization', owner.auth).expect(200)).body),
    ).toEqual(['public', 'limited']);
    const all = await t.request().get('/api/v1/orgs?limit=50').set('Authorization', admin.auth).expect(200);
    expect(listed(all.body)).toEqual(['public', 'limited', 'private']);
    const names = all.body.map((o: { name: string }) => o.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(all.headers['x-total-count']).toBe(String(all.body.length));
  });

  it('GET /orgs shows a restricted user only non-private organizations they belong to, and a public-only token only public ones', async () => {
    expect(
      listed((await t.request().get('/api/v1/orgs?limit=50').set('Authorization', restricted.auth).expect(200)).body),
    ).toEqual(['limited']);
    const publicOnly = await createToken(t, outsider.user, 'public-only,read:organization');
    expect(
      listed(
        (await t.request().get('/api/v1/orgs?limit=50').set('Authorization', `token ${publicOnly}`).expect(200)).body,
      ),
    ).toEqual(['public']);
  });

  it('GET /orgs pages with X-Total-Count and Link', async () => {
    const res = await t.request().get('/api/v1/orgs?limit=1&page=1').set('Authorization', admin.auth).expect(200);
    expect(res.body).toHaveLength(1);
    expect(Number(res.headers['x-total-count'])).toBeGreaterThanOrEqual(3);
    expect(res.headers.link).toContain('rel="next"');
  });

  it('GET /admin/orgs lists every organization for admins only', async () => {
    const res = await t.request().get('/api/v1/admin/orgs?limit=50').set('Authorization', admin.auth).expect(200);
    expect(listed(res.body)).toEqual(['public', 'limited', 'private']);
    expect(res.headers.link ?? '').not.toContain('rel="prev"');
    await t.request().get('/api/v1/admin/orgs').set('Authorization', owner.auth).expect(403);
    await t.request().get('/api/v1/admin/orgs').expect(401);
  });

  it('GET /user/orgs lists every organization of the caller', async () => {
    const res = await t.request().get('/api/v1/user/orgs').set('Authorization', owner.auth).expect(200);
    expect(listed(res.body)).toEqual(['public', 'limited', 'private']);
    await t.request().get('/api/v1/user/orgs').expect(401);
  });

  it('GET /users/{u}/orgs: all for the user and admins, else public orgs with public membership', async () => {
    const path = `/api/v1/users/${owner.user.name}/orgs`;
    expect(listed((await t.request().get(path).set('Authorization', owner.auth).expect(200)).body)).toEqual([
      'public',
      'limited',
      'private',
    ]);
    expect(listed((await t.request().get(path).set('Authorization', admin.auth).expect(200)).body)).toEqual([
      'public',
      'limited',
      'private',
    ]);
    expect(listed((await t.request().get(path).set('Authorization', outsider.auth).expect(200)).body)).toEqual([]);
    for (const org of Object.values(orgs)) {
      await t.context.db.prisma.orgUser.updateMany({
        where: { orgId: org.id, userId: owner.user.id },
        data: { isPublic: true },
      });
    }
    expect(listed((await t.request().get(path).set('Authorization', outsider.auth).expect(200)).body)).toEqual([
      'public',
    ]);
    await t.request().get('/api/v1/users/nobody-at-all/orgs').set('Authorization', outsider.auth).expect(404);
  });
});

describe('GET /users/{username}/orgs/{org}/permissions', () => {
  it.each([
    [
      'owner',
      4,
      false,
      { can_read: true, can_write: true, is_admin: true, is_owner: true, can_create_repository: true },
    ],
    [
      'admin team',
      3,
      false,
      { can_read: true, can_write: true, is_admin: true, is_owner: false, can_create_repository: false },
    ],
    [
      'write team',
      2,
      true,
      { can_read: true, can_write: true, is_admin: false, is_owner: false, can_create_repository: true },
    ],
    [
      'read team',
      1,
      false,
      { can_read: true, can_write: false, is_admin: false, is_owner: false, can_create_repository: false },
    ],
    [
      'no team',
      0,
      false,
      { can_read: false, can_write: false, is_admin: false, is_owner: false, can_create_repository: false },
    ],
  ] as const)('reports the flags of a %s member', async (_case, level, canCreate, expected) => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    const subject = level === 4 ? owner : await createTestUser(t);
    if (level > 0 && level < 4)
      await addTestOrgMember(t, org, subject.user, { accessMode: level as 1 | 2 | 3, canCreateOrgRepo: canCreate });
    const viewer = await createTestUser(t);
    const res = await t
      .request()
      .get(`/api/v1/users/${subject.user.name}/orgs/${org.name}/permissions`)
      .set('Authorization', viewer.auth)
      .expect(200);
    expect(res.body).toEqual(expected);
  });

  it('answers 404 when the user may not see the organization', async () => {
    const owner = await createTestUser(t);
    const admin = await createTestUser(t, { admin: true });
    const outsider = await createTestUser(t);
    const org = await createTestOrg(t, owner.user, { visibility: 2 });
    await t
      .request()
      .get(`/api/v1/users/${outsider.user.name}/orgs/${org.name}/permissions`)
      .set('Authorization', admin.auth)
      .expect(404);
    await t
      .request()
      .get(`/api/v1/users/${owner.user.name}/orgs/${org.name}/permissions`)
      .set('Authorization', admin.auth)
      .expect(200);
    await t
      .request()
      .get(`/api/v1/users/${owner.user.name}/orgs/no-such-org/permissions`)
      .set('Authorization', admin.auth)
      .expect(404);
  });
});

describe('GET /orgs/{org}', () => {
  it('blanks the e-mail for anonymous callers only', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('org');
    await t
      .request()
      .post('/api/v1/orgs')
      .set('Authorization', owner.auth)
      .send({ username: name, email: 'org@example.com' })
      .expect(201);
    expect((await t.request().get(`/api/v1/orgs/${name}`).expect(200)).body.email).toBe('');
    const other = await createTestUser(t);
    expect(
      (await t.request().get(`/api/v1/orgs/${name}`).set('Authorization', other.auth).expect(200)).body.email,
    ).toBe('org@example.com');
  });

  it('answers 404 with the org-not-found detail for a missing organization or an individual user', async () => {
    const res = await t.request().get('/api/v1/orgs/no-such-org').expect(404);
    expect(res.body).toMatchObject({ message: 'GetOrgByName', errors: [expect.stringContaining('no-such-org')] });
    const user = await createTestUser(t);
    await t.request().get(`/api/v1/orgs/${user.user.name}`).expect(404);
  });

  it('answers 403 to a public-only token on a limited organization', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user, { visibility: 1 });
    const token = await createToken(t, owner.user, 'public-only,read:organization');
    await t.request().get(`/api/v1/orgs/${org.name}`).set('Authorization', `token ${token}`).expect(403);
  });
});

describe('PATCH /orgs/{org} (rule 3)', () => {
  it('always writes the text fields, and changes email, visibility and the team-access flag only when sent', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('org');
    await t
      .request()
      .post('/api/v1/orgs')
      .set('Authorization', owner.auth)
      .send({
        username: name,
        full_name: 'F',
        description: 'D',
        website: 'https://w.example',
        location: 'L',
        email: 'a@example.com',
        visibility: 'limited',
        repo_admin_change_team_access: true,
      })
      .expect(201);
    const res = await t
      .request()
      .patch(`/api/v1/orgs/${name}`)
      .set('Authorization', owner.auth)
      .send({ description: 'new' })
      .expect(200);
    expect(res.body).toMatchObject({
      full_name: '',
      description: 'new',
      website: '',
      location: '',
      email: 'a@example.com',
      visibility: 'limited',
      repo_admin_change_team_access: true,
    });

    const changed = await t
      .request()
      .patch(`/api/v1/orgs/${name}`)
      .set('Authorization', owner.auth)
      .send({ email: 'b@example.com', visibility: 'private', repo_admin_change_team_access: false })
      .expect(200);
    expect(changed.body).toMatchObject({
      email: 'b@example.com',
      visibility: 'private',
      repo_admin_change_team_access: false,
    });

    const cleared = await t
      .request()
      .patch(`/api/v1/orgs/${name}`)
      .set('Authorization', owner.auth)
      .send({ email: '' })
      .expect(200);
    expect(cleared.body.email).toBe('');
    await t
      .request()
      .patch(`/api/v1/orgs/${name}`)
      .set('Authorization', owner.auth)
      .send({ email: 'not-an-email' })
      .expect(422);
    await t
      .request()
      .patch(`/api/v1/orgs/${name}`)
      .set('Authorization', owner.auth)
      .send({ website: 'nope' })
      .expect(422);
  });

  it('is for owners and admins only', async () => {
    const owner = await createTestUser(t);
    const member = await createTestUser(t);
    const admin = await createTestUser(t, { admin: true });
    const org = await createTestOrg(t, owner.user);
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    await t.request().patch(`/api/v1/orgs/${org.name}`).set('Authorization', member.auth).send({}).expect(403);
    await t
      .request()
      .patch(`/api/v1/orgs/${org.name}`)
      .set('Authorization', admin.auth)
      .send({ full_name: 'By admin' })
      .expect(200);
    await t.request().patch(`/api/v1/orgs/${org.name}`).send({}).expect(401);
  });
});

describe('DELETE /orgs/{org}', () => {
  it('deletes an organization with its teams, memberships, labels and hooks', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color: 'f00' })
      .expect(201);
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`/api/v1/orgs/${org.name}`).expect(404);
    const { prisma } = t.context.db;
    expect(await prisma.team.count({ where: { orgId: org.id } })).toBe(0);
    expect(await prisma.orgUser.count({ where: { orgId: org.id } })).toBe(0);
    expect(await prisma.label.count({ where: { orgId: org.id } })).toBe(0);
  });

  it('answers 422 with a clear message while the organization owns a repository or a package', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    const { prisma } = t.context.db;
    const repo = await prisma.repository.create({
      data: { ownerId: org.id, ownerName: org.name, name: 'kept', lowerName: 'kept' },
    });
    const res = await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', owner.auth).expect(422);
    expect(res.body.message).toMatch(/still owns 1 repositor/);
    await prisma.repository.delete({ where: { id: repo.id } });
    await prisma.package.create({ data: { ownerId: org.id, type: 'generic', name: 'p', lowerName: 'p' } });
    expect(
      (await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', owner.auth).expect(422)).body.message,
    ).toMatch(/packages/);
    await t.request().get(`/api/v1/orgs/${org.name}`).expect(200);
  });

  it('refuses while a repository made through the API exists, deletes once it is gone, folder included', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'blocker', auto_init: true })
      .expect(201);
    const orgFolder = path.join(t.context.settings.repository.ROOT, org.lowerName);
    // A folder nobody adopted would otherwise appear under the next owner of the name.
    fs.mkdirSync(path.join(orgFolder, 'stray.git'));
    expect(
      (await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', owner.auth).expect(422)).body.message,
    ).toMatch(/still owns 1 repositor/);
    expect(fs.existsSync(path.join(orgFolder, 'blocker.git'))).toBe(true);
    await t.request().delete(`/api/v1/repos/${org.name}/blocker`).set('Authorization', owner.auth).expect(204);
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`/api/v1/orgs/${org.name}`).expect(404);
    expect(fs.existsSync(orgFolder)).toBe(false);
  });

  it('is for owners only', async () => {
    const owner = await createTestUser(t);
    const member = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', member.auth).expect(403);
  });
});
