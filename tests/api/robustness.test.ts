import { basicAuth, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

const ERROR_BODY = { message: expect.any(String), url: 'http://localhost:3000/api/swagger' };

describe('routing', () => {
  it('answers unknown routes with 404 JSON', async () => {
    const res = await t.request().get('/api/v1/no/such/route').expect(404);
    expect(res.body).toMatchObject(ERROR_BODY);
    expect(res.headers['content-type']).toMatch(/application\/json/);
  });

  it('answers a method the path does not take with 405 naming the methods it takes', async () => {
    const res = await t.request().patch('/api/v1/version').expect(405);
    expect(res.body).toMatchObject(ERROR_BODY);
    expect(res.headers.allow).toBe('GET');
  });

  it('normalises trailing and doubled slashes', async () => {
    await t.request().get('/api/v1/version/').expect(200);
    await t.request().get('//api//v1//version').expect(200);
  });

  it('sends the security headers on every answer', async () => {
    const res = await t.request().get('/api/v1/version').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toMatch(/no-transform/);
  });
});

describe('bad input never produces a 500', () => {
  const send = (method: 'post' | 'patch' | 'put', url: string, body: string, type = 'application/json') =>
    t.request()[method](url).set('Authorization', admin.auth).set('Content-Type', type).send(body);

  it('answers malformed JSON with 422 and a Forgejo body', async () => {
    const res = await send('post', `/api/v1/users/${admin.user.name}/tokens`, '{"name": ');
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject(ERROR_BODY);
  });

  it.each([
    ['a number for a string', { name: 5 }],
    ['an array for an object', [1, 2]],
    ['a missing required field', {}],
    ['a string for an array', { name: 'x', scopes: 'all' }],
  ])('answers %s with 422', async (_label, body) => {
    const res = await send('post', `/api/v1/users/${admin.user.name}/tokens`, JSON.stringify(body));
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/^\[.*\]: /);
  });

  it.each([
    '/api/v1/users/%2e%2e/tokens',
    '/api/v1/users/../tokens',
    '/api/v1/users/%00/tokens',
    '/api/v1/users/%E2%9C%93%F0%9F%98%80/tokens',
    '/api/v1/users/a%2Fb/tokens',
    '/api/v1/users/%ZZ/tokens',
    '/api/v1/users/' + 'x'.repeat(5000) + '/tokens',
  ])('handles the odd path %s with a 4xx', async (url) => {
    const res = await t.request().get(url).set('Authorization', admin.auth);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it.each(['99999999999999999999', '1e400', '-1', 'abc', '9007199254740993'])(
    'handles page=limit=%s on a list',
    async (n) => {
      const res = await t
        .request()
        .get(`/api/v1/users/${admin.user.name}/tokens?page=${n}&limit=${n}`)
        .set('Authorization', basicAuth(admin.user.name, admin.password));
      expect([200, 422]).toContain(res.status);
    },
  );

  it('refuses NUL characters in bodies and queries with 422', async () => {
    const res = await send('post', `/api/v1/users/${admin.user.name}/tokens`, JSON.stringify({ name: 'a\u0000b' }));
    expect(res.status).toBe(422);
    await t
      .request()
      .get(`/api/v1/users/${admin.user.name}/tokens?page=%00`)
      .set('Authorization', admin.auth)
      .expect(422);
  });

  it('accepts unicode in string fields', async () => {
    const res = await send(
      'post',
      `/api/v1/users/${admin.user.name}/tokens`,
      JSON.stringify({ name: 'tökèn ✓ 😀' }),
      'application/json',
    ).set('Authorization', `Basic ${Buffer.from(`${admin.user.name}:${admin.password}`).toString('base64')}`);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('tökèn ✓ 😀');
  });

  it('reads a JSON body sent without a content type, as Forgejo does', async () => {
    const res = await t
      .request()
      .post(`/api/v1/users/${admin.user.name}/tokens`)
      .set('Authorization', `Basic ${Buffer.from(`${admin.user.name}:${admin.password}`).toString('base64')}`)
      .set('Content-Type', '')
      .send(Buffer.from(JSON.stringify({ name: 'no-content-type' })));
    expect(res.status).toBe(201);
  });
});

describe('operations not built yet', () => {
  it('answer 501 with a Forgejo error body', async () => {
    const { notImplemented } = await import('../../src/api/route.ts');
    const sent: { status?: number; body?: unknown } = {};
    const res = {
      status(code: number) {
        sent.status = code;
        return res;
      },
      json(body: unknown) {
        sent.body = body;
      },
    };
    await notImplemented().handler({ operationId: 'orgGet', res, app: t.context } as never);
    expect(sent).toEqual({
      status: 501,
      body: { message: 'orgGet is not implemented yet', url: 'http://localhost:3000/api/swagger' },
    });
  });
});
