// The teams that reach an organization's repository: the Owners team (all repositories) always, other teams once
// linked; adding twice or removing an unlinked team is 422, a user's repository 405, a writer may not link (403).
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let base: string;

const as = (user: TestUser) => ({
  get: (url: string) => t.request().get(`/api/v1${base}${url}`).set('Authorization', user.auth),
  put: (url: string) => t.request().put(`/api/v1${base}${url}`).set('Authorization', user.auth),
  delete: (url: string) => t.request().delete(`/api/v1${base}${url}`).set('Authorization', user.auth),
});

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  member = await createTestUser(t);
  const org = await createTestOrg(t, owner.user);
  await addTestOrgMember(t, org, member.user, { accessMode: 2 });
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/teams`)
    .set('Authorization', owner.auth)
    .send({ name: 'builders', permission: 'write', units: ['repo.code'] })
    .expect(201);
  await t.request().post(`/api/v1/orgs/${org.name}/repos`).set('Authorization', owner.auth).send({ name: 'app' });
  base = `/repos/${org.name}/app`;
});
afterAll(() => t.close());

it('lists, checks, links and unlinks teams', async () => {
  const names = async () => (await as(owner).get('/teams').expect(200)).body.map((x: { name: string }) => x.name);
  expect(await names()).toEqual(['Owners']);
  await as(owner).get('/teams/builders').expect(404);
  await as(owner).put('/teams/builders').expect(204);
  await as(owner).put('/teams/builders').expect(422);
  expect(await names()).toEqual(['Owners', 'builders']);
  expect((await as(owner).get('/teams/Builders').expect(200)).body.name).toBe('builders');
  await as(owner).delete('/teams/builders').expect(204);
  await as(owner).delete('/teams/builders').expect(422);
  await as(owner).delete('/teams/Owners').expect(422);
  await as(owner).put('/teams/nobody').expect(404);
});

it('lets readers list but only admins change (403); a user repository is 405', async () => {
  await as(member).get('/teams').expect(200);
  await as(member).put('/teams/builders').expect(403);
  await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name: 'mine' }).expect(201);
  await t.request().get(`/api/v1/repos/${owner.user.name}/mine/teams`).set('Authorization', owner.auth).expect(405);
  await t.request().get(`/api/v1${base}/teams`).expect(401);
});
