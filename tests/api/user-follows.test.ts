// Following users, and reading another user's SSH keys: rows and counters change together, lists hide accounts
// the viewer may not see, and the statuses are Forgejo's.
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { ED25519_KEY } from '../helpers/gitea-js-world.ts';

let t: TestApp;
let ann: TestUser;
let ben: TestUser;
let hidden: TestUser;

const as = (user: TestUser | null) => ({
  get: (url: string) => {
    const req = t.request().get(`/api/v1${url}`);
    return user ? req.set('Authorization', user.auth) : req;
  },
  put: (url: string) => t.request().put(`/api/v1${url}`).set('Authorization', user!.auth),
  delete: (url: string) => t.request().delete(`/api/v1${url}`).set('Authorization', user!.auth),
});
const names = (body: { login: string }[]) => body.map((u) => u.login);

beforeAll(async () => {
  t = await startTestApp();
  ann = await createTestUser(t);
  ben = await createTestUser(t);
  hidden = await createTestUser(t, { fields: { visibility: 2 } });
});
afterAll(() => t.close());

describe('following', () => {
  it('follows once (204 twice), counts on both sides, checks and unfollows', async () => {
    await as(ann).put(`/user/following/${ben.user.name}`).expect(204);
    await as(ann).put(`/user/following/${ben.user.name}`).expect(204);
    await as(ann).get(`/user/following/${ben.user.name}`).expect(204);
    await as(ben).get(`/user/following/${ann.user.name}`).expect(404);
    await as(null).get(`/users/${ann.user.name}/following/${ben.user.name}`).expect(204);
    await as(null).get(`/users/${ben.user.name}/following/${ann.user.name}`).expect(404);
    expect((await as(null).get(`/users/${ben.user.name}`).expect(200)).body.followers_count).toBe(1);
    expect((await as(ann).get('/user').expect(200)).body.following_count).toBe(1);
    const followers = await as(ben).get('/user/followers').expect(200);
    expect(names(followers.body)).toEqual([ann.user.name]);
    expect(followers.headers['x-total-count']).toBe('1');
    expect(names((await as(null).get(`/users/${ann.user.name}/following`).expect(200)).body)).toEqual([ben.user.name]);
    expect(names((await as(ann).get('/user/following').expect(200)).body)).toEqual([ben.user.name]);
    await as(ann).delete(`/user/following/${ben.user.name}`).expect(204);
    await as(ann).delete(`/user/following/${ben.user.name}`).expect(204);
    await as(ann).get(`/user/following/${ben.user.name}`).expect(404);
    expect((await as(null).get(`/users/${ben.user.name}`).expect(200)).body.followers_count).toBe(0);
  });

  it('following oneself changes nothing', async () => {
    await as(ann).put(`/user/following/${ann.user.name}`).expect(204);
    expect((await as(ann).get('/user/following').expect(200)).body).toEqual([]);
  });

  it('hides private followers from those who may not see them; a hidden user is 404', async () => {
    await as(hidden).put(`/user/following/${ben.user.name}`).expect(204);
    expect(names((await as(ben).get('/user/followers').expect(200)).body)).toEqual([]);
    expect(names((await as(hidden).get(`/users/${ben.user.name}/followers`).expect(200)).body)).toEqual([
      hidden.user.name,
    ]);
    await as(ann).put(`/user/following/${hidden.user.name}`).expect(404);
    await as(null).get(`/users/${hidden.user.name}/followers`).expect(404);
    await as(null).get(`/users/${hidden.user.name}/following/${ben.user.name}`).expect(404);
    await as(null).get(`/users/${ben.user.name}/following/${hidden.user.name}`).expect(404);
  });

  it('refuses a user an organization blocked (403), and needs sign-in (401)', async () => {
    const org = await createTestOrg(t, ann.user);
    await t.request().put(`/api/v1/orgs/${org.name}/block/${ben.user.name}`).set('Authorization', ann.auth).expect(204);
    await as(ben).put(`/user/following/${org.name}`).expect(403);
    await t.request().put(`/api/v1/user/following/${ann.user.name}`).expect(401);
    await as(null).get('/user/followers').expect(401);
  });
});

describe("another user's keys", () => {
  it('lists them to anyone and shows one by id to a signed-in caller', async () => {
    const key = await t
      .request()
      .post('/api/v1/user/keys')
      .set('Authorization', ben.auth)
      .send({ title: 'laptop', key: ED25519_KEY })
      .expect(201);
    const list = await as(null).get(`/users/${ben.user.name}/keys`).expect(200);
    expect(list.body).toEqual([expect.objectContaining({ id: key.body.id, title: 'laptop' })]);
    expect((await as(ann).get(`/user/keys/${key.body.id}`).expect(200)).body.user.login).toBe(ben.user.name);
    await as(ann).get('/user/keys/999999').expect(404);
    await as(null).get(`/user/keys/${key.body.id}`).expect(401);
    await as(null).get(`/users/${hidden.user.name}/keys`).expect(404);
  });
});
