import { basicAuth, createTestUser, createToken } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('credential forms', () => {
  it('accepts a token in the Authorization header, as token or Bearer', async () => {
    const alice = await createTestUser(t);
    for (const header of [`token ${alice.token}`, `Bearer ${alice.token}`, `bearer ${alice.token}`]) {
      const res = await t.request().get('/api/v1/user').set('Authorization', header).expect(200);
      expect(res.body.login).toBe(alice.user.name);
    }
  });

  it('accepts query tokens with a deprecation Warning header', async () => {
    const alice = await createTestUser(t);
    for (const key of ['token', 'access_token']) {
      const res = await t.request().get(`/api/v1/user?${key}=${alice.token}`).expect(200);
      expect(res.body.login).toBe(alice.user.name);
      expect(res.headers.warning).toMatch(/deprecated/);
    }
  });

  it('accepts basic auth with the password, with the token as password, and with the token as user name', async () => {
    const alice = await createTestUser(t);
    const name = alice.user.name;
    for (const header of [
      basicAuth(name, alice.password),
      basicAuth(name, alice.token),
      basicAuth(alice.token, ''),
      basicAuth(alice.token, 'x-oauth-basic'),
    ]) {
      const res = await t.request().get('/api/v1/user').set('Authorization', header).expect(200);
      expect(res.body.login).toBe(name);
    }
  });

  it('answers 401 for a supplied but invalid credential, even on public routes', async () => {
    const alice = await createTestUser(t);
    const bad = [
      'token 0123456789abcdef0123456789abcdef01234567',
      'token short',
      basicAuth(alice.user.name, 'wrong-password'),
      basicAuth('nobody-here', 'x'),
    ];
    for (const header of bad) {
      const res = await t.request().get('/api/v1/version').set('Authorization', header).expect(401);
      expect(res.body.message).toBeTruthy();
    }
    await t.request().get('/api/v1/version?token=nonsense').expect(401);
  });

  it('answers 401 on a signed-in route without credentials', async () => {
    const res = await t.request().get('/api/v1/user').expect(401);
    expect(res.body).toEqual({ message: expect.any(String), url: 'http://localhost:3000/api/swagger' });
  });

  it('refuses a deleted token at once, also one that has just signed in', async () => {
    const alice = await createTestUser(t);
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).expect(200);
    await t.context.db.prisma.accessToken.deleteMany({ where: { userId: alice.user.id } });
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).expect(401);
  });
});

describe('account gates', () => {
  it('refuses users who must change their password with 403 and a message-only body', async () => {
    const bob = await createTestUser(t, { mustChangePassword: true });
    const res = await t.request().get('/api/v1/user').set('Authorization', bob.auth).expect(403);
    expect(res.body).toEqual({ message: expect.stringMatching(/change your password/) });
  });

  it('refuses login-prohibited and inactive users', async () => {
    const carol = await createTestUser(t, { fields: { prohibitLogin: true } });
    await t.request().get('/api/v1/user').set('Authorization', carol.auth).expect(403);
    const dave = await createTestUser(t, { fields: { isActive: false } });
    await t.request().get('/api/v1/user').set('Authorization', dave.auth).expect(403);
  });
});

describe('sudo', () => {
  it('lets an administrator act as another user, by header or query', async () => {
    const admin = await createTestUser(t, { admin: true });
    const alice = await createTestUser(t);
    const viaHeader = await t
      .request()
      .get('/api/v1/user')
      .set('Authorization', admin.auth)
      .set('Sudo', alice.user.name)
      .expect(200);
    expect(viaHeader.body.login).toBe(alice.user.name);
    const viaQuery = await t
      .request()
      .get(`/api/v1/user?sudo=${alice.user.name}`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(viaQuery.body.login).toBe(alice.user.name);
  });

  it('refuses sudo to non-administrators and answers 404 for unknown users', async () => {
    const admin = await createTestUser(t, { admin: true });
    const alice = await createTestUser(t);
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).set('Sudo', admin.user.name).expect(403);
    await t.request().get('/api/v1/user').set('Authorization', admin.auth).set('Sudo', 'no-such-user').expect(404);
  });
});

describe('token scopes', () => {
  it('needs the read level of the route category for GET and the write level otherwise', async () => {
    const alice = await createTestUser(t, { scopes: 'read:organization' });
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).expect(403);
    const withUser = await createToken(t, alice.user, 'read:user');
    await t.request().get('/api/v1/user').set('Authorization', `token ${withUser}`).expect(200);
    const writeUser = await createToken(t, alice.user, 'write:user');
    await t.request().get('/api/v1/user').set('Authorization', `token ${writeUser}`).expect(200);
  });

  it('makes a token with an unknown scope unusable', async () => {
    const alice = await createTestUser(t, { scopes: 'read:user,read:everything' });
    await t.request().get('/api/v1/user').set('Authorization', alice.auth).expect(403);
  });

  it('does not restrict password authentication', async () => {
    const alice = await createTestUser(t, { scopes: 'read:organization' });
    await t.request().get('/api/v1/user').set('Authorization', basicAuth(alice.user.name, alice.password)).expect(200);
  });
});

describe('access tokens', () => {
  it('creates a token over basic auth, shows the secret once, lists and deletes it', async () => {
    const alice = await createTestUser(t);
    const name = alice.user.name;
    const created = await t
      .request()
      .post(`/api/v1/users/${name}/tokens`)
      .set('Authorization', basicAuth(name, alice.password))
      .send({ name: 'ci', scopes: ['read:user', 'write:organization'] })
      .expect(201);
    expect(created.body.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(created.body.token_last_eight).toBe(created.body.sha1.slice(-8));
    expect(created.body.scopes).toEqual(['write:organization', 'read:user']);
    await t.request().get('/api/v1/user').set('Authorization', `token ${created.body.sha1}`).expect(200);

    // Listing needs the password too: a token may not list the account's tokens.
    await t.request().get(`/api/v1/users/${name}/tokens`).set('Authorization', alice.auth).expect(401);
    const listed = await t
      .request()
      .get(`/api/v1/users/${name}/tokens`)
      .set('Authorization', basicAuth(name, alice.password))
      .expect(200);
    const entry = listed.body.find((tok: { name: string }) => tok.name === 'ci');
    expect(entry.sha1).toBe('');
    expect(listed.headers['x-total-count']).toBe(String(listed.body.length));

    await t
      .request()
      .post(`/api/v1/users/${name}/tokens`)
      .set('Authorization', basicAuth(name, alice.password))
      .send({ name: 'ci' })
      .expect(400);
    await t
      .request()
      .delete(`/api/v1/users/${name}/tokens/ci`)
      .set('Authorization', basicAuth(name, alice.password))
      .expect(204);
    await t.request().get('/api/v1/user').set('Authorization', `token ${created.body.sha1}`).expect(401);
    await t
      .request()
      .delete(`/api/v1/users/${name}/tokens/ci`)
      .set('Authorization', basicAuth(name, alice.password))
      .expect(404);
  });

  it('refuses to create or delete tokens for a caller signed in with a token, however the token is sent', async () => {
    const alice = await createTestUser(t, { scopes: 'write:user,public-only' });
    const name = alice.user.name;
    const tokenCount = () => t.context.db.prisma.accessToken.count({ where: { userId: alice.user.id } });
    const before = await tokenCount();
    const viaToken = [
      alice.auth,
      `Bearer ${alice.token}`,
      basicAuth(name, alice.token),
      basicAuth(alice.token, ''),
      basicAuth(alice.token, 'x-oauth-basic'),
    ];
    for (const header of viaToken) {
      const res = await t
        .request()
        .post(`/api/v1/users/${name}/tokens`)
        .set('Authorization', header)
        .send({ name: 'minted', scopes: ['all'] })
        .expect(401);
      expect(res.body).toEqual({ message: 'auth method not allowed', url: 'http://localhost:3000/api/swagger' });
    }
    await t
      .request()
      .post(`/api/v1/users/${name}/tokens?token=${alice.token}`)
      .send({ name: 'minted', scopes: ['all'] })
      .expect(401);
    expect(await tokenCount()).toBe(before);

    const kept = await createToken(t, alice.user, 'read:user');
    const keptName = (
      await t.context.db.prisma.accessToken.findFirstOrThrow({
        where: { userId: alice.user.id },
        orderBy: { id: 'desc' },
      })
    ).name;
    for (const header of viaToken) {
      await t.request().delete(`/api/v1/users/${name}/tokens/${keptName}`).set('Authorization', header).expect(401);
    }
    await t.request().get('/api/v1/user').set('Authorization', `token ${kept}`).expect(200);

    // The password still works, and the token it makes carries exactly the scopes asked for.
    const made = await t
      .request()
      .post(`/api/v1/users/${name}/tokens`)
      .set('Authorization', basicAuth(name, alice.password))
      .send({ name: 'minted', scopes: ['read:user'] })
      .expect(201);
    expect(made.body.scopes).toEqual(['read:user']);
  });

  it("lets a site administrator manage another user's tokens with the password only", async () => {
    const admin = await createTestUser(t, { admin: true });
    const alice = await createTestUser(t);
    const target = `/api/v1/users/${alice.user.name}/tokens`;

    const made = await t
      .request()
      .post(target)
      .set('Authorization', basicAuth(admin.user.name, admin.password))
      .send({ name: 'by-admin', scopes: ['read:user'] })
      .expect(201);
    const stored = await t.context.db.prisma.accessToken.findFirstOrThrow({ where: { id: made.body.id } });
    expect(stored.userId).toBe(alice.user.id);
    await t
      .request()
      .post(target)
      .set('Authorization', basicAuth(admin.user.name, admin.password))
      .set('Sudo', alice.user.name)
      .send({ name: 'by-sudo', scopes: ['read:user'] })
      .expect(201);
    await t
      .request()
      .post(target)
      .set('Authorization', admin.auth)
      .set('Sudo', alice.user.name)
      .send({ name: 'x' })
      .expect(401);
    await t.request().post(target).set('Authorization', admin.auth).send({ name: 'x' }).expect(401);

    const userScoped = await createToken(t, admin.user, 'read:user');
    const res = await t.request().get(target).set('Authorization', `token ${userScoped}`).expect(403);
    expect(res.body.message).toBe('doer should be the site admin or be same as the contextUser');
    const publicOnly = await createToken(t, admin.user, 'all,public-only');
    await t.request().get(target).set('Authorization', `token ${publicOnly}`).expect(403);
    // A token with the admin scope passes the admin check, and is then refused: listing needs the password too.
    const adminScoped = await createToken(t, admin.user, 'read:user,read:admin');
    await t.request().get(target).set('Authorization', `token ${adminScoped}`).expect(401);
    const listed = await t
      .request()
      .get(target)
      .set('Authorization', basicAuth(admin.user.name, admin.password))
      .expect(200);
    expect(listed.body.map((tok: { name: string }) => tok.name)).toEqual(
      expect.arrayContaining(['by-admin', 'by-sudo']),
    );
  });

  it("refuses another user's tokens to non-administrators", async () => {
    const alice = await createTestUser(t);
    const bob = await createTestUser(t);
    await t.request().get(`/api/v1/users/${alice.user.name}/tokens`).set('Authorization', bob.auth).expect(403);
    await t
      .request()
      .post(`/api/v1/users/${alice.user.name}/tokens`)
      .set('Authorization', basicAuth(bob.user.name, bob.password))
      .send({ name: 'x' })
      .expect(403);
  });

  it('refuses an unknown scope with 400', async () => {
    const alice = await createTestUser(t);
    await t
      .request()
      .post(`/api/v1/users/${alice.user.name}/tokens`)
      .set('Authorization', basicAuth(alice.user.name, alice.password))
      .send({ name: 'x', scopes: ['write:everything'] })
      .expect(400);
  });
});
