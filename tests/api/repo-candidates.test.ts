// Assignees (write access to issues or pulls) and reviewers (read access to pulls, the caller left out) of user and
// organization repositories.
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let writer: TestUser;
let reader: TestUser;
let outsider: TestUser;

const logins = (body: { login: string }[]) => body.map((u) => u.login).sort();
const get = (url: string, user: TestUser) => t.request().get(`/api/v1${url}`).set('Authorization', user.auth);

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  writer = await createTestUser(t);
  reader = await createTestUser(t);
  outsider = await createTestUser(t);
  await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name: 'r', private: true });
  for (const [user, permission] of [
    [writer, 'write'],
    [reader, 'read'],
  ] as const)
    await t
      .request()
      .put(`/api/v1/repos/${owner.user.name}/r/collaborators/${user.user.name}`)
      .set('Authorization', owner.auth)
      .send({ permission })
      .expect(204);
});
afterAll(() => t.close());

it('lists the owner and writers as assignees, every reader but the caller as reviewers', async () => {
  const base = `/repos/${owner.user.name}/r`;
  expect(logins((await get(`${base}/assignees`, reader).expect(200)).body)).toEqual(
    [owner.user.name, writer.user.name].sort(),
  );
  expect(logins((await get(`${base}/reviewers`, owner).expect(200)).body)).toEqual(
    [writer.user.name, reader.user.name].sort(),
  );
  await get(`${base}/assignees`, outsider).expect(404);
  await t.request().get(`/api/v1${base}/reviewers`).expect(404);
});

it('counts the members of teams that reach an organization repository', async () => {
  const org = await createTestOrg(t, owner.user);
  await addTestOrgMember(t, org, reader.user, { accessMode: 1 });
  await t.request().post(`/api/v1/orgs/${org.name}/repos`).set('Authorization', owner.auth).send({ name: 'o' });
  const assignees = (await get(`/repos/${org.name}/o/assignees`, owner).expect(200)).body;
  expect(logins(assignees)).toEqual([owner.user.name]);
});
