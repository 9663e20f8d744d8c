// Actions secrets, variables and runner tokens of a repository (for its admins; the token for its owner) and of the
// caller's own account: each scope sees only its own rows, and the statuses are Forgejo's.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let writer: TestUser;
let admin: TestUser;
let outsider: TestUser;
let repoPath: string;

const as = (user: TestUser) => ({
  get: (url: string) => t.request().get(`/api/v1${url}`).set('Authorization', user.auth),
  post: (url: string, body: object) => t.request().post(`/api/v1${url}`).set('Authorization', user.auth).send(body),
  put: (url: string, body: object) => t.request().put(`/api/v1${url}`).set('Authorization', user.auth).send(body),
  delete: (url: string) => t.request().delete(`/api/v1${url}`).set('Authorization', user.auth),
});

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  writer = await createTestUser(t);
  admin = await createTestUser(t);
  outsider = await createTestUser(t);
  await as(owner).post('/user/repos', { name: 'ci', private: true }).expect(201);
  repoPath = `/repos/${owner.user.name}/ci`;
  await as(owner).put(`${repoPath}/collaborators/${writer.user.name}`, { permission: 'write' }).expect(204);
  await as(owner).put(`${repoPath}/collaborators/${admin.user.name}`, { permission: 'admin' }).expect(204);
});
afterAll(() => t.close());

describe('repository secrets', () => {
  it('creates (201), replaces (204), lists without values and deletes (204, then 404)', async () => {
    await as(admin).put(`${repoPath}/actions/secrets/DEPLOY_KEY`, { data: 'one' }).expect(201);
    await as(owner).put(`${repoPath}/actions/secrets/deploy_key`, { data: 'two' }).expect(204);
    const list = await as(owner).get(`${repoPath}/actions/secrets`).expect(200);
    expect(list.body).toEqual([{ name: 'DEPLOY_KEY', created_at: expect.any(String) }]);
    expect(list.headers['x-total-count']).toBe('1');
    await as(owner).delete(`${repoPath}/actions/secrets/DEPLOY_KEY`).expect(204);
    await as(owner).delete(`${repoPath}/actions/secrets/DEPLOY_KEY`).expect(404);
  });

  it('refuses a writer (403), hides a private repository from an outsider (404), refuses a bad name (400)', async () => {
    await as(writer).put(`${repoPath}/actions/secrets/X`, { data: 'v' }).expect(403);
    await as(writer).get(`${repoPath}/actions/secrets`).expect(403);
    await as(outsider).put(`${repoPath}/actions/secrets/X`, { data: 'v' }).expect(404);
    await as(owner).put(`${repoPath}/actions/secrets/GITEA_X`, { data: 'v' }).expect(400);
    await t.request().get(`/api/v1${repoPath}/actions/secrets`).expect(404);
  });
});

describe('repository variables', () => {
  it('creates, reads, renames, lists and deletes; a taken name is 409', async () => {
    await as(admin).post(`${repoPath}/actions/variables/MODE`, { value: 'debug' }).expect(204);
    await as(admin).post(`${repoPath}/actions/variables/mode`, { value: 'again' }).expect(409);
    const one = await as(owner).get(`${repoPath}/actions/variables/MODE`).expect(200);
    expect(one.body).toMatchObject({ name: 'MODE', data: 'debug', owner_id: 0 });
    await as(owner).put(`${repoPath}/actions/variables/MODE`, { name: 'BUILD_MODE', value: 'release' }).expect(204);
    const list = await as(owner).get(`${repoPath}/actions/variables`).expect(200);
    expect(list.body.map((v: { name: string; data: string }) => [v.name, v.data])).toEqual([['BUILD_MODE', 'release']]);
    await as(owner).get(`${repoPath}/actions/variables/MODE`).expect(404);
    await as(writer).get(`${repoPath}/actions/variables/BUILD_MODE`).expect(403);
    await as(owner).delete(`${repoPath}/actions/variables/BUILD_MODE`).expect(204);
    await as(owner).delete(`${repoPath}/actions/variables/BUILD_MODE`).expect(404);
  });
});

describe("the caller's own secrets and variables", () => {
  it('are the caller’s alone: another user neither sees nor removes them', async () => {
    await as(writer).put('/user/actions/secrets/TOKEN', { data: 's' }).expect(201);
    await as(writer).put('/user/actions/secrets/TOKEN', { data: 't' }).expect(204);
    await as(outsider).delete('/user/actions/secrets/TOKEN').expect(404);
    await as(writer).delete('/user/actions/secrets/TOKEN').expect(204);

    await as(writer).post('/user/actions/variables/REGION', { value: 'eu' }).expect(204);
    await as(writer).post('/user/actions/variables/REGION', { value: 'us' }).expect(409);
    const mine = await as(writer).get('/user/actions/variables').expect(200);
    expect(mine.body).toEqual([expect.objectContaining({ name: 'REGION', data: 'eu', owner_id: writer.user.id })]);
    expect((await as(outsider).get('/user/actions/variables').expect(200)).body).toEqual([]);
    await as(outsider).get('/user/actions/variables/REGION').expect(404);
    await as(writer).put('/user/actions/variables/REGION', { value: 'us' }).expect(204);
    expect((await as(writer).get('/user/actions/variables/REGION').expect(200)).body.data).toBe('us');
    await as(writer).delete('/user/actions/variables/REGION').expect(204);
    await as(writer).post('/user/actions/variables/REGION', { value: '' }).expect(400);
  });

  it('need a signed-in caller (401)', async () => {
    await t.request().get('/api/v1/user/actions/variables').expect(401);
    await t.request().put('/api/v1/user/actions/secrets/X').send({ data: 'v' }).expect(401);
  });
});

describe('runner registration tokens', () => {
  it('gives one stable token per scope: the repository owner’s, the user’s; an admin collaborator is 403', async () => {
    const first = await as(owner).get(`${repoPath}/actions/runners/registration-token`).expect(200);
    const again = await as(owner).get(`${repoPath}/actions/runners/registration-token`).expect(200);
    expect(first.body.token).toHaveLength(40);
    expect(again.body.token).toBe(first.body.token);
    await as(admin).get(`${repoPath}/actions/runners/registration-token`).expect(403);
    const mine = await as(writer).get('/user/actions/runners/registration-token').expect(200);
    expect(mine.body.token).not.toBe(first.body.token);
  });
});
