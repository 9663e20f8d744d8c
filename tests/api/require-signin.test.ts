import { basicAuth, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
beforeAll(async () => {
  t = await startTestApp({ ANVIL__service__REQUIRE_SIGNIN_VIEW: 'true' });
  alice = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'open', auto_init: true })
    .expect(201);
});
afterAll(() => t.close());

describe('[service] REQUIRE_SIGNIN_VIEW', () => {
  it('refuses every anonymous /api/v1 call with 403, version included, and keeps health and the contract open', async () => {
    const res = await t.request().get('/api/v1/orgs').expect(403);
    expect(res.body.message).toMatch(/signed in/);
    await t.request().get(`/api/v1/repos/${alice.user.name}/open`).expect(403);
    await t.request().get('/api/healthz').expect(200);
    const version = await t.request().get('/api/v1/version').expect(403);
    expect(version.body.message).toBe('Only signed in user is allowed to call APIs.');
    await t.request().get('/swagger.v1.json').expect(200);
  });

  it('serves signed-in callers', async () => {
    await t.request().get('/api/v1/orgs').set('Authorization', alice.auth).expect(200);
    await t.request().get(`/api/v1/repos/${alice.user.name}/open`).set('Authorization', alice.auth).expect(200);
  });

  it('challenges anonymous git with 401 and WWW-Authenticate, so git asks for credentials', async () => {
    const url = `/${alice.user.name}/open.git/info/refs?service=git-upload-pack`;
    const anonymous = await t.request().get(url).expect(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic /);
    const signedIn = await t
      .request()
      .get(url)
      .set('Authorization', basicAuth(alice.user.name, alice.password))
      .expect(200);
    expect(signedIn.headers['content-type']).toMatch(/git-upload-pack-advertisement/);
  });
});

describe('401 answers', () => {
  it('name the authentication scheme', async () => {
    const res = await t
      .request()
      .get('/api/v1/user')
      .set('Authorization', 'token 0123456789abcdef0123456789abcdef01234567')
      .expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic /);
  });
});
