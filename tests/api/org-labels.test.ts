import type { User } from '../../src/db/prisma.ts';
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let member: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  member = await createTestUser(t);
});
afterAll(() => t.close());

async function freshOrg(): Promise<User> {
  const org = await createTestOrg(t, owner.user);
  await addTestOrgMember(t, org, member.user, { accessMode: 2 });
  return org;
}

describe('POST /orgs/{org}/labels', () => {
  it.each([
    ['#FF0000', 'ff0000'],
    ['00ff00', '00ff00'],
    [' #AbC ', 'aabbcc'],
    ['123', '112233'],
  ])('stores colour %p as %p', async (color, shown) => {
    const org = await freshOrg();
    const res = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color, description: 'broken', exclusive: false })
      .expect(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'bug',
      color: shown,
      description: 'broken',
      exclusive: false,
      is_archived: false,
      url: `http://localhost:3000/api/v1/orgs/${org.name}/labels/${res.body.id}`,
    });
    const stored = await t.context.db.prisma.label.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.color).toBe(`#${shown}`);
  });

  it.each(['', 'red', '#12345', 'ggg', '#1234567'])('refuses colour %p with 422', async (color) => {
    const org = await freshOrg();
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color })
      .expect(422);
  });

  it('refuses an empty name and a missing colour with 422', async () => {
    const org = await freshOrg();
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: '', color: 'fff' })
      .expect(422);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'x' })
      .expect(422);
  });

  it('keeps exclusive (scoped) labels', async () => {
    const org = await freshOrg();
    const res = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'priority/high', color: 'f00', exclusive: true })
      .expect(201);
    expect(res.body).toMatchObject({ name: 'priority/high', exclusive: true });
  });

  it('is for owners only', async () => {
    const org = await freshOrg();
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', member.auth)
      .send({ name: 'bug', color: 'fff' })
      .expect(403);
    await t.request().post(`/api/v1/orgs/${org.name}/labels`).send({ name: 'bug', color: 'fff' }).expect(401);
  });
});

describe('GET /orgs/{org}/labels', () => {
  it('sorts by name unless asked otherwise, and pages', async () => {
    const org = await freshOrg();
    const { prisma } = t.context.db;
    await prisma.label.createMany({
      data: [
        { orgId: org.id, name: 'b', color: '#000000', numIssues: 5 },
        { orgId: org.id, name: 'a', color: '#000000', numIssues: 1 },
        { orgId: org.id, name: 'c', color: '#000000', numIssues: 9 },
      ],
    });
    const order = async (query: string) =>
      (await t.request().get(`/api/v1/orgs/${org.name}/labels${query}`).expect(200)).body.map(
        (l: { name: string }) => l.name,
      );
    expect(await order('')).toEqual(['a', 'b', 'c']);
    expect(await order('?sort=reversealphabetically')).toEqual(['c', 'b', 'a']);
    expect(await order('?sort=leastissues')).toEqual(['a', 'b', 'c']);
    expect(await order('?sort=mostissues')).toEqual(['c', 'b', 'a']);
    expect(await order('?sort=nonsense')).toEqual(['a', 'b', 'c']);
    const page = await t.request().get(`/api/v1/orgs/${org.name}/labels?limit=2&page=2`).expect(200);
    expect(page.body.map((l: { name: string }) => l.name)).toEqual(['c']);
    expect(page.headers['x-total-count']).toBe('3');
  });
});

describe('GET /orgs/{org}/labels/{id} (rule 8)', () => {
  it('finds a label by id or by name, in its organization only', async () => {
    const org = await freshOrg();
    const other = await freshOrg();
    const created = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'needs review', color: 'abc' })
      .expect(201);
    const byId = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/labels/${created.body.id}`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(byId.body.name).toBe('needs review');
    const byName = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/labels/${encodeURIComponent('needs review')}`)
      .set('Authorization', member.auth)
      .expect(200);
    expect(byName.body.id).toBe(created.body.id);
    await t
      .request()
      .get(`/api/v1/orgs/${other.name}/labels/${created.body.id}`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t.request().get(`/api/v1/orgs/${org.name}/labels/missing`).set('Authorization', owner.auth).expect(404);
    await t.request().get(`/api/v1/orgs/${org.name}/labels/99999999999`).set('Authorization', owner.auth).expect(404);
    await t.request().get(`/api/v1/orgs/${org.name}/labels/${created.body.id}`).expect(401);
  });
});

describe('PATCH /orgs/{org}/labels/{id} (rule 9)', () => {
  it('changes the fields sent, normalises the colour, and archives only when sent true', async () => {
    const org = await freshOrg();
    const created = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color: 'f00', description: 'd' })
      .expect(201);
    const path = `/api/v1/orgs/${org.name}/labels/${created.body.id}`;
    const archived = await t
      .request()
      .patch(path)
      .set('Authorization', owner.auth)
      .send({ is_archived: true, color: 'ABC' })
      .expect(200);
    expect(archived.body).toMatchObject({ name: 'bug', description: 'd', color: 'aabbcc', is_archived: true });
    const renamed = await t
      .request()
      .patch(path)
      .set('Authorization', owner.auth)
      .send({ name: 'defect', exclusive: true })
      .expect(200);
    expect(renamed.body).toMatchObject({ name: 'defect', exclusive: true, color: 'aabbcc', is_archived: false });
    await t.request().patch(path).set('Authorization', owner.auth).send({ is_archived: true }).expect(200);
    const unarchived = await t
      .request()
      .patch(path)
      .set('Authorization', owner.auth)
      .send({ is_archived: false })
      .expect(200);
    expect(unarchived.body.is_archived).toBe(false);
    await t.request().patch(path).set('Authorization', owner.auth).send({ color: 'nope' }).expect(422);
    await t.request().patch(path).set('Authorization', member.auth).send({ name: 'x' }).expect(403);
    await t
      .request()
      .patch(`/api/v1/orgs/${org.name}/labels/999999`)
      .set('Authorization', owner.auth)
      .send({ name: 'x' })
      .expect(404);
  });
});

describe('DELETE /orgs/{org}/labels/{id}', () => {
  it('deletes a label of the organization and nothing else', async () => {
    const org = await freshOrg();
    const other = await freshOrg();
    const created = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color: 'f00' })
      .expect(201);
    await t
      .request()
      .delete(`/api/v1/orgs/${other.name}/labels/${created.body.id}`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t
      .request()
      .delete(`/api/v1/orgs/${org.name}/labels/${created.body.id}`)
      .set('Authorization', member.auth)
      .expect(403);
    await t
      .request()
      .delete(`/api/v1/orgs/${org.name}/labels/${created.body.id}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await t
      .request()
      .get(`/api/v1/orgs/${org.name}/labels/${created.body.id}`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t
      .request()
      .delete(`/api/v1/orgs/${org.name}/labels/${created.body.id}`)
      .set('Authorization', owner.auth)
      .expect(404);
  });
});
