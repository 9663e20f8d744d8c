import type { User } from '../../src/db/prisma.ts';
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let publicMember: TestUser;
let concealedMember: TestUser;
let outsider: TestUser;
let admin: TestUser;
let org: User;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  publicMember = await createTestUser(t);
  concealedMember = await createTestUser(t);
  outsider = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
  org = await createTestOrg(t, owner.user);
  await addTestOrgMember(t, org, publicMember.user, { isPublic: true });
  await addTestOrgMember(t, org, concealedMember.user);
});
afterAll(() => t.close());

const names = (body: { login: string }[]) => body.map((u) => u.login).sort();

describe('GET /orgs/{org}/members (rule 7)', () => {
  it('shows every member to members and admins, public members to others', async () => {
    const all = [owner, publicMember, concealedMember].map((u) => u.user.name).sort();
    for (const caller of [owner, concealedMember, admin]) {
      const res = await t
        .request()
        .get(`/api/v1/orgs/${org.name}/members`)
        .set('Authorization', caller.auth)
        .expect(200);
      expect(names(res.body)).toEqual(all);
      expect(res.headers['x-total-count']).toBe('3');
    }
    const res = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/members`)
      .set('Authorization', outsider.auth)
      .expect(200);
    expect(names(res.body)).toEqual([publicMember.user.name]);
    expect(res.headers['x-total-count']).toBe('1');
    await t.request().get(`/api/v1/orgs/${org.name}/members`).expect(401);
  });

  it('public_members lists public members only, to anyone', async () => {
    for (const caller of [null, outsider, owner, admin]) {
      const req = t.request().get(`/api/v1/orgs/${org.name}/public_members`);
      const res = await (caller ? req.set('Authorization', caller.auth) : req).expect(200);
      expect(names(res.body)).toEqual([publicMember.user.name]);
    }
  });

  it('never leaks the members of a private organization', async () => {
    const secret = await createTestOrg(t, owner.user, { visibility: 2 });
    await addTestOrgMember(t, secret, publicMember.user, { isPublic: true });
    await t.request().get(`/api/v1/orgs/${secret.name}/public_members`).expect(404);
    await t.request().get(`/api/v1/orgs/${secret.name}/public_members`).set('Authorization', outsider.auth).expect(404);
    await t
      .request()
      .get(`/api/v1/orgs/${secret.name}/public_members/${publicMember.user.name}`)
      .set('Authorization', outsider.auth)
      .expect(404);
    await t.request().get(`/api/v1/orgs/${secret.name}/members`).set('Authorization', outsider.auth).expect(404);
  });
});

describe('GET /orgs/{org}/members/{username} (rule 10)', () => {
  it.each([
    ['a member asking about a member', () => owner, () => concealedMember, 204],
    ['a member asking about an outsider', () => owner, () => outsider, 404],
    ['an admin asking about a member', () => admin, () => concealedMember, 204],
    ['an admin asking about an outsider', () => admin, () => outsider, 404],
    ['an outsider asking about themself', () => outsider, () => outsider, 404],
  ] as const)('%s answers %d', async (_case, caller, subject, status) => {
    await t
      .request()
      .get(`/api/v1/orgs/${org.name}/members/${subject().user.name}`)
      .set('Authorization', caller().auth)
      .expect(status);
  });

  it('redirects anyone else with 303 to the public-member check', async () => {
    for (const subject of [concealedMember, owner, admin]) {
      const res = await t
        .request()
        .get(`/api/v1/orgs/${org.name}/members/${subject.user.name}`)
        .set('Authorization', outsider.auth)
        .expect(303);
      expect(res.headers.location).toBe(`/api/v1/orgs/${org.name}/public_members/${subject.user.name}`);
    }
  });

  it('answers 404 for an unknown user and 401 anonymously', async () => {
    await t
      .request()
      .get(`/api/v1/orgs/${org.name}/members/nobody-at-all`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t.request().get(`/api/v1/orgs/${org.name}/members/${owner.user.name}`).expect(401);
  });
});

describe('public membership', () => {
  it('GET /public_members/{u} is 204 only for public members', async () => {
    await t.request().get(`/api/v1/orgs/${org.name}/public_members/${publicMember.user.name}`).expect(204);
    await t.request().get(`/api/v1/orgs/${org.name}/public_members/${concealedMember.user.name}`).expect(404);
    await t.request().get(`/api/v1/orgs/${org.name}/public_members/${outsider.user.name}`).expect(404);
  });

  it('members publicize and conceal their own membership only (rule 11)', async () => {
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user);
    const path = `/api/v1/orgs/${org.name}/public_members/${member.user.name}`;
    await t.request().put(path).set('Authorization', member.auth).expect(204);
    await t.request().get(path).expect(204);
    await t.request().delete(path).set('Authorization', owner.auth).expect(403);
    await t.request().delete(path).set('Authorization', member.auth).expect(204);
    await t.request().get(path).expect(404);
    await t.request().put(path).set('Authorization', owner.auth).expect(403);
    await t
      .request()
      .put(`/api/v1/orgs/${org.name}/public_members/${outsider.user.name}`)
      .set('Authorization', outsider.auth)
      .expect(403);
    await t.request().put(path).expect(401);
  });
});

describe('DELETE /orgs/{org}/members/{username}', () => {
  it('removes a member from every team and the organization', async () => {
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user, { accessMode: 2 });
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    const teams = await t.context.db.prisma.team.findMany({
      where: { orgId: org.id, members: { some: { userId: member.user.id } } },
    });
    await t
      .request()
      .delete(`/api/v1/orgs/${org.name}/members/${member.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    const { prisma } = t.context.db;
    expect(await prisma.teamUser.count({ where: { orgId: org.id, userId: member.user.id } })).toBe(0);
    expect(await prisma.orgUser.count({ where: { orgId: org.id, userId: member.user.id } })).toBe(0);
    for (const team of teams) {
      const after = await prisma.team.findUniqueOrThrow({ where: { id: team.id } });
      expect(after.numMembers).toBe(team.numMembers - 1);
    }
    await t
      .request()
      .get(`/api/v1/orgs/${org.name}/members/${member.user.name}`)
      .set('Authorization', owner.auth)
      .expect(404);
  });

  it('refuses to remove the last owner with 422, but removes an owner who is not the last', async () => {
    const solo = await createTestUser(t);
    const own = await createTestOrg(t, solo.user);
    const res = await t
      .request()
      .delete(`/api/v1/orgs/${own.name}/members/${solo.user.name}`)
      .set('Authorization', solo.auth)
      .expect(422);
    expect(res.body.message).toMatch(/last owner/);

    const second = await createTestUser(t);
    const ownersTeam = await t.context.db.prisma.team.findFirstOrThrow({
      where: { orgId: own.id, lowerName: 'owners' },
    });
    await t.context.db.prisma.teamUser.create({
      data: { orgId: own.id, teamId: ownersTeam.id, userId: second.user.id },
    });
    await t.context.db.prisma.orgUser.create({ data: { orgId: own.id, userId: second.user.id } });
    await t
      .request()
      .delete(`/api/v1/orgs/${own.name}/members/${solo.user.name}`)
      .set('Authorization', solo.auth)
      .expect(204);
    await t
      .request()
      .get(`/api/v1/orgs/${own.name}/members/${second.user.name}`)
      .set('Authorization', second.auth)
      .expect(204);
  });

  it('is for owners only', async () => {
    await t
      .request()
      .delete(`/api/v1/orgs/${org.name}/members/${publicMember.user.name}`)
      .set('Authorization', concealedMember.auth)
      .expect(403);
    await t
      .request()
      .delete(`/api/v1/orgs/${org.name}/members/nobody-at-all`)
      .set('Authorization', owner.auth)
      .expect(404);
  });
});
