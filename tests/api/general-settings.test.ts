// The instance settings clients read, and a repository looked up by id with the visibility rules of its name.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await startTestApp({ ANVIL__api__MAX_RESPONSE_ITEMS: '40', ANVIL__repository__DISABLE_MIGRATIONS: 'true' });
  owner = await createTestUser(t);
  other = await createTestUser(t);
});
afterAll(() => t.close());

describe('general settings', () => {
  it('answers the [api] settings in force', async () => {
    const res = await t.request().get('/api/v1/settings/api').expect(200);
    expect(res.body).toEqual({
      max_response_items: 40,
      default_paging_num: 30,
      default_git_trees_per_page: 1000,
      default_max_blob_size: 10485760,
    });
  });

  it('answers the repository features in force', async () => {
    const res = await t.request().get('/api/v1/settings/repository').expect(200);
    expect(res.body).toMatchObject({ migrations_disabled: true, mirrors_disabled: false, stars_disabled: false });
  });

  it('answers the UI defaults', async () => {
    const res = await t.request().get('/api/v1/settings/ui').expect(200);
    expect(res.body.allowed_reactions).toContain('+1');
  });
});

describe('GET /repositories/{id}', () => {
  it('shows a repository by id to those who may read it; to others it is 404', async () => {
    const created = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name: 'secretive', private: true })
      .expect(201);
    const url = `/api/v1/repositories/${created.body.id}`;
    const mine = await t.request().get(url).set('Authorization', owner.auth).expect(200);
    expect(mine.body.full_name).toBe(`${owner.user.name}/secretive`);
    await t.request().get(url).set('Authorization', other.auth).expect(404);
    await t.request().get(url).expect(404);
    await t.request().get('/api/v1/repositories/999999').set('Authorization', owner.auth).expect(404);
    await t.request().get('/api/v1/repositories/abc').set('Authorization', owner.auth).expect(404);
  });
});
