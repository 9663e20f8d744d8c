// Users as integrations look them up: profile, search, their repositories, keys, e-mail addresses, stars and
// watches, and a repository's stargazers and subscribers. Every response is checked against the contract.
import { generateKeyPairSync } from 'node:crypto';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let hidden: TestUser;

function sshKey(): string {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  return `ssh-ed25519 ${Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]).toString('base64')}`;
}

async function createRepo(owner: TestUser, name: string, isPrivate = false) {
  return (
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name, private: isPrivate })
      .expect(201)
  ).body;
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t, { name: uniqueName('alice') });
  bob = await createTestUser(t, { name: uniqueName('bob') });
  hidden = await createTestUser(t, { fields: { visibility: 2 } });
  await createRepo(alice, 'open');
  await createRepo(alice, 'closed', true);
});
afterAll(() => t.close());

describe('userGet and userSearch', () => {
  it('shows a user to anyone who may see them, and hides a private user (404)', async () => {
    const res = await t.request().get(`/api/v1/users/${alice.user.name}`).expect(200);
    expect(res.body).toMatchObject({ login: alice.user.name, id: alice.user.id });
    await t.request().get(`/api/v1/users/${hidden.user.name}`).set('Authorization', bob.auth).expect(404);
    await t.request().get(`/api/v1/users/${hidden.user.name}`).set('Authorization', hidden.auth).expect(200);
    await t.request().get('/api/v1/users/nobody-by-that-name').expect(404);
  });

  it('searches visible users by name or id, with paging headers', async () => {
    const res = await t
      .request()
      .get(`/api/v1/users/search?q=${alice.user.name.slice(0, 8)}`)
      .expect(200);
    expect(res.body.ok).toBe(true);
    expect(res.body.data.map((user: { login: string }) => user.login)).toEqual([alice.user.name]);
    expect(res.headers['x-total-count']).toBe('1');
    const byId = await t.request().get(`/api/v1/users/search?uid=${bob.user.id}`).expect(200);
    expect(byId.body.data.map((user: { id: number }) => user.id)).toEqual([bob.user.id]);
    const secret = await t
      .request()
      .get(`/api/v1/users/search?q=${hidden.user.name}`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(secret.body.data).toEqual([]);
    await t.request().get('/api/v1/users/search?page=x').expect(422);
  });
});

describe('repositories of a user', () => {
  it('lists what the caller may read: the private one for its owner only', async () => {
    const names = async (auth?: string) => {
      const req = t.request().get(`/api/v1/users/${alice.user.name}/repos`);
      const res = await (auth ? req.set('Authorization', auth) : req).expect(200);
      return res.body.map((repo: { name: string }) => repo.name).sort();
    };
    expect(await names()).toEqual(['open']);
    expect(await names(bob.auth)).toEqual(['open']);
    expect(await names(alice.auth)).toEqual(['closed', 'open']);
  });

  it('lists the caller’s own repositories and those shared with them; anonymous is 401', async () => {
    const res = await t.request().get('/api/v1/user/repos?limit=1').set('Authorization', alice.auth).expect(200);
    expect(res.body).toHaveLength(1);
    expect(res.headers['x-total-count']).toBe('2');
    expect(res.headers.link).toContain('rel="next"');
    await t.request().get('/api/v1/user/repos').expect(401);
  });
});

describe('keys of the caller', () => {
  it('adds, lists (by fingerprint too) and deletes a key; another user’s key is 403, a missing one 404', async () => {
    const created = await t
      .request()
      .post('/api/v1/user/keys')
      .set('Authorization', alice.auth)
      .send({ title: 'laptop', key: sshKey() })
      .expect(201);
    expect(created.body).toMatchObject({ title: 'laptop', user: { login: alice.user.name } });
    const list = await t.request().get('/api/v1/user/keys').set('Authorization', alice.auth).expect(200);
    expect(list.body.map((key: { id: number }) => key.id)).toEqual([created.body.id]);
    const byPrint = await t
      .request()
      .get(`/api/v1/user/keys?fingerprint=${encodeURIComponent(created.body.fingerprint)}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(byPrint.body).toHaveLength(1);
    const none = await t
      .request()
      .get('/api/v1/user/keys?fingerprint=SHA256:none')
      .set('Authorization', alice.auth)
      .expect(200);
    expect(none.body).toEqual([]);
    await t
      .request()
      .post('/api/v1/user/keys')
      .set('Authorization', alice.auth)
      .send({ title: 'bad', key: 'not a key' })
      .expect(422);
    await t.request().delete(`/api/v1/user/keys/${created.body.id}`).set('Authorization', bob.auth).expect(403);
    await t.request().delete(`/api/v1/user/keys/${created.body.id}`).set('Authorization', alice.auth).expect(204);
    await t.request().delete(`/api/v1/user/keys/${created.body.id}`).set('Authorization', alice.auth).expect(404);
  });
});

describe('e-mail addresses of the caller', () => {
  it('lists, adds and removes addresses; a used or invalid address is 422 and adds nothing', async () => {
    const initial = await t.request().get('/api/v1/user/emails').set('Authorization', bob.auth).expect(200);
    expect(initial.body).toEqual([expect.objectContaining({ email: bob.user.email, primary: true })]);
    const extra = `${uniqueName('extra')}@example.com`;
    const added = await t
      .request()
      .post('/api/v1/user/emails')
      .set('Authorization', bob.auth)
      .send({ emails: [extra] })
      .expect(201);
    expect(added.body).toEqual([expect.objectContaining({ email: extra, primary: false, user_id: bob.user.id })]);
    const fresh = `${uniqueName('fresh')}@example.com`;
    await t
      .request()
      .post('/api/v1/user/emails')
      .set('Authorization', bob.auth)
      .send({ emails: [fresh, alice.user.email] })
      .expect(422);
    await t
      .request()
      .post('/api/v1/user/emails')
      .set('Authorization', bob.auth)
      .send({ emails: ['not-an-address'] })
      .expect(422);
    const after = await t.request().get('/api/v1/user/emails').set('Authorization', bob.auth).expect(200);
    expect(after.body.map((email: { email: string }) => email.email)).toEqual([bob.user.email, extra]);
    // The primary address cannot be removed, and a missing one removes nothing.
    await t
      .request()
      .delete('/api/v1/user/emails')
      .set('Authorization', bob.auth)
      .send({ emails: [extra, bob.user.email] })
      .expect(404);
    await t
      .request()
      .delete('/api/v1/user/emails')
      .set('Authorization', bob.auth)
      .send({ emails: [extra] })
      .expect(204);
    const last = await t.request().get('/api/v1/user/emails').set('Authorization', bob.auth).expect(200);
    expect(last.body.map((email: { email: string }) => email.email)).toEqual([bob.user.email]);
  });
});

describe('stars and watches', () => {
  it('stars, checks, lists and unstars; counts follow; a private repository stays hidden', async () => {
    const repoPath = `${alice.user.name}/open`;
    await t.request().get(`/api/v1/user/starred/${repoPath}`).set('Authorization', bob.auth).expect(404);
    await t.request().put(`/api/v1/user/starred/${repoPath}`).set('Authorization', bob.auth).expect(204);
    await t.request().put(`/api/v1/user/starred/${repoPath}`).set('Authorization', bob.auth).expect(204);
    await t.request().get(`/api/v1/user/starred/${repoPath}`).set('Authorization', bob.auth).expect(204);
    const repo = await t.request().get(`/api/v1/repos/${repoPath}`).expect(200);
    expect(repo.body.stars_count).toBe(1);
    const mine = await t.request().get('/api/v1/user/starred').set('Authorization', bob.auth).expect(200);
    expect(mine.body.map((r: { full_name: string }) => r.full_name)).toEqual([repoPath]);
    const theirs = await t.request().get(`/api/v1/users/${bob.user.name}/starred`).expect(200);
    expect(theirs.body.map((r: { full_name: string }) => r.full_name)).toEqual([repoPath]);
    const gazers = await t.request().get(`/api/v1/repos/${repoPath}/stargazers`).expect(200);
    expect(gazers.body.map((u: { login: string }) => u.login)).toEqual([bob.user.name]);
    expect(gazers.headers['x-total-count']).toBe('1');
    await t
      .request()
      .put(`/api/v1/user/starred/${alice.user.name}/closed`)
      .set('Authorization', hidden.auth)
      .expect(404);
    await t.request().put(`/api/v1/user/starred/${repoPath}`).expect(401);
    await t.request().delete(`/api/v1/user/starred/${repoPath}`).set('Authorization', bob.auth).expect(204);
    await t.request().get(`/api/v1/user/starred/${repoPath}`).set('Authorization', bob.auth).expect(404);
    expect((await t.request().get(`/api/v1/repos/${repoPath}`).expect(200)).body.stars_count).toBe(0);
  });

  it('lists watched repositories and subscribers, hiding a private repository from others', async () => {
    await t
      .request()
      .put(`/api/v1/repos/${alice.user.name}/closed/subscription`)
      .set('Authorization', alice.auth)
      .expect(200);
    const own = await t.request().get('/api/v1/user/subscriptions').set('Authorization', alice.auth).expect(200);
    expect(own.body.map((r: { name: string }) => r.name)).toContain('closed');
    const seenByBob = await t
      .request()
      .get(`/api/v1/users/${alice.user.name}/subscriptions`)
      .set('Authorization', hidden.auth)
      .expect(200);
    expect(seenByBob.body.map((r: { name: string }) => r.name)).not.toContain('closed');
    const subscribers = await t
      .request()
      .get(`/api/v1/repos/${alice.user.name}/closed/subscribers`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(subscribers.body.map((u: { login: string }) => u.login)).toContain(alice.user.name);
    await t
      .request()
      .get(`/api/v1/repos/${alice.user.name}/closed/subscribers`)
      .set('Authorization', hidden.auth)
      .expect(404);
  });
});
