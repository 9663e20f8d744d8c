import type { User } from '../../src/db/prisma.ts';
import { addTestOrgMember, createTestOrg, createTestUser, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  member = await createTestUser(t);
  outsider = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

const TOKEN = /^[0-9A-Za-z]{40}$/;
const ADMIN_PATH = '/api/v1/admin/runners/registration-token';
const orgPath = (org: User) => `/api/v1/orgs/${org.name}/actions/runners/registration-token`;

async function tokenAt(path: string, auth: string): Promise<string> {
  const res = await t.request().get(path).set('Authorization', auth).expect(200);
  expect(Object.keys(res.body)).toEqual(['token']);
  expect(res.body.token).toMatch(TOKEN);
  return res.body.token;
}

async function freshOrg(visibility: 0 | 1 | 2 = 0): Promise<User> {
  const org = await createTestOrg(t, owner.user, { visibility });
  await addTestOrgMember(t, org, member.user, { accessMode: 3 });
  return org;
}

describe('GET /admin/runners/registration-token', () => {
  it('returns the same 40-character alphanumeric token until it is reset', async () => {
    const first = await tokenAt(ADMIN_PATH, admin.auth);
    expect(await tokenAt(ADMIN_PATH, admin.auth)).toBe(first);
    const row = await t.context.db.prisma.actionRunnerToken.findUniqueOrThrow({ where: { token: first } });
    expect(row).toMatchObject({ ownerId: 0, repoId: 0, isActive: true });

    await t.context.db.prisma.actionRunnerToken.update({ where: { id: row.id }, data: { isActive: false } });
    const next = await tokenAt(ADMIN_PATH, admin.auth);
    expect(next).not.toBe(first);
    expect(await tokenAt(ADMIN_PATH, admin.auth)).toBe(next);
  });

  it('is for site admins only: anonymous 401, others 403', async () => {
    await t.request().get(ADMIN_PATH).expect(401);
    await t.request().get(ADMIN_PATH).set('Authorization', owner.auth).expect(403);
  });

  it('needs the admin scope on a token', async () => {
    const scoped = await createTestUser(t, { admin: true, scopes: 'read:organization' });
    await t.request().get(ADMIN_PATH).set('Authorization', scoped.auth).expect(403);
    const reader = await createTestUser(t, { admin: true, scopes: 'read:admin' });
    await tokenAt(ADMIN_PATH, reader.auth);
  });
});

describe('GET /orgs/{org}/actions/runners/registration-token', () => {
  it('returns a stable token per organization, distinct from other scopes', async () => {
    const org = await freshOrg();
    const other = await freshOrg();
    const token = await tokenAt(orgPath(org), owner.auth);
    expect(await tokenAt(orgPath(org), owner.auth)).toBe(token);
    expect(await tokenAt(orgPath(org), admin.auth)).toBe(token);
    const otherToken = await tokenAt(orgPath(other), owner.auth);
    const instanceToken = await tokenAt(ADMIN_PATH, admin.auth);
    expect(new Set([token, otherToken, instanceToken]).size).toBe(3);
    const rows = await t.context.db.prisma.actionRunnerToken.findMany({ where: { ownerId: org.id } });
    expect(rows.map((row) => [row.token, row.repoId])).toEqual([[token, 0]]);
  });

  it('hides a private organization from outsiders and anonymous callers (404) and refuses members who are not owners (403)', async () => {
    const org = await freshOrg(2);
    await t.request().get(orgPath(org)).expect(404);
    await t.request().get(orgPath(org)).set('Authorization', outsider.auth).expect(404);
    await t.request().get(orgPath(org)).set('Authorization', member.auth).expect(403);
    expect(await t.context.db.prisma.actionRunnerToken.count({ where: { ownerId: org.id } })).toBe(0);
  });

  it('answers 401 to anonymous callers of a public organization and 404 for a missing one', async () => {
    const org = await freshOrg();
    await t.request().get(orgPath(org)).expect(401);
    await t.request().get(orgPath(org)).set('Authorization', outsider.auth).expect(403);
    await t
      .request()
      .get(`/api/v1/orgs/${uniqueName('nope')}/actions/runners/registration-token`)
      .set('Authorization', owner.auth)
      .expect(404);
  });
});
