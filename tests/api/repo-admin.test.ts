// What a repository's administrators manage beside branch protection: tag protection rules (enforced on the tags
// API and on git pushes), deploy keys, the repository's avatar; and the site-wide topic search. Every response is
// checked against the contract.
import { generateKeyPairSync } from 'node:crypto';
import type { Server } from 'node:http';
import path from 'node:path';
import { Jimp } from 'jimp';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let repoPath: string;

const api = (suffix: string) => `/api/v1/repos/${repoPath}${suffix}`;

function sshKey(): string {
  const der = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
  const field = (b: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, b.length]), b]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(der.subarray(der.length - 32))]);
  return `ssh-ed25519 ${blob.toString('base64')}`;
}

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  carol = await createTestUser(t);
  const org = await createTestOrg(t, alice.user);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', alice.auth)
    .send({ name: 'tools', auto_init: true })
    .expect(201);
  repoPath = `${org.name}/tools`;
  const team = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/teams`)
    .set('Authorization', alice.auth)
    .send({ name: 'releasers', permission: 'write', includes_all_repositories: true, units: ['repo.code'] })
    .expect(201);
  await t
    .request()
    .put(`/api/v1/teams/${team.body.id}/members/${bob.user.name}`)
    .set('Authorization', alice.auth)
    .expect(204);
  await t
    .request()
    .put(api(`/collaborators/${carol.user.name}`))
    .set('Authorization', alice.auth)
    .send({ permission: 'write' })
    .expect(204);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('tag protection rules', () => {
  let id: number;

  it('creates, lists, gets, edits and deletes a rule; only repository admins may', async () => {
    const created = await t
      .request()
      .post(api('/tag_protections'))
      .set('Authorization', alice.auth)
      .send({ name_pattern: 'v*', whitelist_teams: ['releasers'] })
      .expect(201);
    expect(created.body).toMatchObject({ name_pattern: 'v*', whitelist_teams: ['releasers'], whitelist_usernames: [] });
    id = created.body.id;
    const list = await t.request().get(api('/tag_protections')).set('Authorization', alice.auth).expect(200);
    expect(list.body).toEqual([expect.objectContaining({ id, name_pattern: 'v*' })]);
    await t
      .request()
      .get(api(`/tag_protections/${id}`))
      .set('Authorization', alice.auth)
      .expect(200);
    const edited = await t
      .request()
      .patch(api(`/tag_protections/${id}`))
      .set('Authorization', alice.auth)
      .send({ whitelist_usernames: [alice.user.name] })
      .expect(200);
    expect(edited.body).toMatchObject({ whitelist_usernames: [alice.user.name], whitelist_teams: ['releasers'] });
    const doomed = await t
      .request()
      .post(api('/tag_protections'))
      .set('Authorization', alice.auth)
      .send({ name_pattern: '/^tmp-[0-9]+$/', whitelist_usernames: [alice.user.name] })
      .expect(201);
    await t
      .request()
      .delete(api(`/tag_protections/${doomed.body.id}`))
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .get(api(`/tag_protections/${doomed.body.id}`))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .delete(api(`/tag_protections/${doomed.body.id}`))
      .set('Authorization', alice.auth)
      .expect(404);
  });

  it('refuses an empty pattern or allow-list (400), a taken pattern (403), unknown names and bad patterns (422)', async () => {
    const post = (body: object) =>
      t.request().post(api('/tag_protections')).set('Authorization', alice.auth).send(body);
    await post({ name_pattern: ' ', whitelist_usernames: [alice.user.name] }).expect(400);
    await post({ name_pattern: 'x*' }).expect(400);
    await post({ name_pattern: 'v*', whitelist_usernames: [alice.user.name] }).expect(403);
    await post({ name_pattern: 'x*', whitelist_usernames: ['nobody-at-all'] }).expect(422);
    await post({ name_pattern: 'x*', whitelist_teams: ['no-such-team'] }).expect(422);
    await post({ name_pattern: '/(/', whitelist_usernames: [alice.user.name] }).expect(422);
    await t
      .request()
      .patch(api(`/tag_protections/${id}`))
      .set('Authorization', alice.auth)
      .send({ name_pattern: '[z-a]' })
      .expect(422);
    await t.request().patch(api('/tag_protections/999999')).set('Authorization', alice.auth).send({}).expect(404);
  });

  it('answers 403 to writers who are not admins, 401 without a token, 404 to who may not see the repository', async () => {
    await t.request().get(api('/tag_protections')).set('Authorization', bob.auth).expect(403);
    await t.request().get(api('/tag_protections')).expect(401);
    const stranger = await createTestUser(t);
    const secret = uniqueName('secret');
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: secret, private: true })
      .expect(201);
    await t
      .request()
      .get(`/api/v1/repos/${alice.user.name}/${secret}/tag_protections`)
      .set('Authorization', stranger.auth)
      .expect(404);
  });

  it('refuses the tags API to who a matching rule does not list (422); lets the listed create and delete', async () => {
    await t
      .request()
      .post(api('/tags'))
      .set('Authorization', carol.auth)
      .send({ tag_name: 'v1.0' })
      .expect(422)
      .expect((res) => expect(res.body.message).toContain('protected tag'));
    await t.request().post(api('/tags')).set('Authorization', carol.auth).send({ tag_name: 'nightly' }).expect(201);
    await t.request().post(api('/tags')).set('Authorization', bob.auth).send({ tag_name: 'v1.0' }).expect(201);
    await t.request().delete(api('/tags/v1.0')).set('Authorization', carol.auth).expect(422);
    await t.request().delete(api('/tags/v1.0')).set('Authorization', bob.auth).expect(204);
  });

  it('refuses pushes of protected tags by who is not listed, with the reason; the listed push them', async () => {
    const remote = (user: TestUser) => withCredentials(`${base}${repoPath}.git`, user.user.name, user.token);
    const work = path.join(tempDir(), 'work');
    await gitOk(['clone', '-q', remote(alice), work]);
    await gitOk(['tag', 'v2.0'], work);
    await gitOk(['tag', 'build-7'], work);
    const refused = await git(['push', remote(carol), 'v2.0'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Tag v2.0 is protected');
    await gitOk(['push', '-q', remote(carol), 'build-7'], work);
    await gitOk(['push', '-q', remote(bob), 'v2.0'], work);
    const deleted = await git(['push', remote(carol), ':refs/tags/v2.0'], work);
    expect(deleted.stderr).toContain('Tag v2.0 is protected');
    // A regular expression rule, matched anywhere in the name as Forgejo's MatchString does.
    await t
      .request()
      .post(api('/tag_protections'))
      .set('Authorization', alice.auth)
      .send({ name_pattern: '/^rc-[0-9]+$/', whitelist_usernames: [alice.user.name] })
      .expect(201);
    await gitOk(['tag', 'rc-1'], work);
    expect((await git(['push', remote(bob), 'rc-1'], work)).stderr).toContain('Tag rc-1 is protected');
    await gitOk(['push', '-q', remote(alice), 'rc-1'], work);
    const tags = await gitOk(['ls-remote', '--tags', remote(alice)]);
    expect(tags).toContain('refs/tags/v2.0');
    expect(tags).toContain('refs/tags/build-7');
    expect(tags).toContain('refs/tags/rc-1');
  });
});

describe('deploy keys', () => {
  const key = sshKey();
  let id: number;

  it('adds, lists, gets and deletes a key; the same key may be granted to another repository', async () => {
    const created = await t
      .request()
      .post(api('/keys'))
      .set('Authorization', alice.auth)
      .send({ title: 'ci', key, read_only: true })
      .expect(201);
    expect(created.body).toMatchObject({ title: 'ci', read_only: true, key });
    expect(created.body.fingerprint).toMatch(/^SHA256:/);
    expect(created.body.url).toMatch(new RegExp(`/api/v1/repos/${repoPath}/keys/${created.body.id}$`));
    id = created.body.id;
    const list = await t.request().get(api('/keys')).set('Authorization', alice.auth).expect(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body[0]).toMatchObject({ id, read_only: true });
    const byFingerprint = await t
      .request()
      .get(api('/keys'))
      .query({ fingerprint: 'SHA256:none' })
      .set('Authorization', alice.auth)
      .expect(200);
    expect(byFingerprint.body).toEqual([]);
    const one = await t
      .request()
      .get(api(`/keys/${id}`))
      .set('Authorization', alice.auth)
      .expect(200);
    expect(one.body).toMatchObject({ id, title: 'ci', key_id: created.body.key_id });
    const other = uniqueName('other');
    await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: other }).expect(201);
    const shared = await t
      .request()
      .post(`/api/v1/repos/${alice.user.name}/${other}/keys`)
      .set('Authorization', alice.auth)
      .send({ title: 'ci', key })
      .expect(201);
    expect(shared.body).toMatchObject({ key_id: created.body.key_id, read_only: false });
    // Another repository's key is not this one's: 404 to read, 403 to delete.
    await t
      .request()
      .get(api(`/keys/${shared.body.id}`))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .delete(api(`/keys/${shared.body.id}`))
      .set('Authorization', alice.auth)
      .expect(403);
  });

  it('refuses a key twice, a title twice, a user key, bad key text (422); deletes quietly what is not there', async () => {
    const post = (body: object) => t.request().post(api('/keys')).set('Authorization', alice.auth).send(body);
    await post({ title: 'again', key }).expect(422);
    await post({ title: 'ci', key: sshKey() }).expect(422);
    await post({ title: 'broken', key: 'ssh-ed25519 AAAA%%%%' }).expect(422);
    const userKey = sshKey();
    await t
      .request()
      .post('/api/v1/user/keys')
      .set('Authorization', carol.auth)
      .send({ title: 'laptop', key: userKey })
      .expect(201);
    await post({ title: 'laptop', key: userKey })
      .expect(422)
      .expect((res) => expect(res.body.message).toBe('Key content has been used as non-deploy key'));
    // …and a deploy key cannot become a user's key.
    await t.request().post('/api/v1/user/keys').set('Authorization', carol.auth).send({ title: 'k', key }).expect(422);
    await t.request().delete(api('/keys/999999')).set('Authorization', alice.auth).expect(204);
  });

  it('is for repository admins only (403), and 404 for an unknown key', async () => {
    await t.request().get(api('/keys')).set('Authorization', bob.auth).expect(403);
    await t
      .request()
      .post(api('/keys'))
      .set('Authorization', carol.auth)
      .send({ title: 'x', key: sshKey() })
      .expect(403);
    await t.request().get(api('/keys/999999')).set('Authorization', alice.auth).expect(404);
    await t
      .request()
      .delete(api(`/keys/${id}`))
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .get(api(`/keys/${id}`))
      .set('Authorization', alice.auth)
      .expect(404);
  });
});

describe('repository avatar', () => {
  it('stores an uploaded image, shows it as avatar_url and serves it; deleting clears it', async () => {
    const image = (await new Jimp({ width: 64, height: 64, color: 0xcc3366ff }).getBuffer('image/png')).toString(
      'base64',
    );
    await t.request().post(api('/avatar')).set('Authorization', alice.auth).send({ image }).expect(204);
    const repo = await t.request().get(api('')).set('Authorization', alice.auth).expect(200);
    expect(repo.body.avatar_url).toMatch(/\/avatars\/[0-9a-f]{64}$/);
    const served = await t.request().get(new URL(repo.body.avatar_url).pathname).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    await t.request().delete(api('/avatar')).set('Authorization', alice.auth).expect(204);
    const after = await t.request().get(api('')).set('Authorization', alice.auth).expect(200);
    expect(after.body.avatar_url).toBe('');
    await t.request().get(new URL(repo.body.avatar_url).pathname).expect(404);
  });

  it('refuses what is not an image (400), writers who are not admins (403), anonymous callers (401)', async () => {
    await t
      .request()
      .post(api('/avatar'))
      .set('Authorization', alice.auth)
      .send({ image: 'bm90IGFuIGltYWdl' })
      .expect(400);
    await t.request().post(api('/avatar')).set('Authorization', alice.auth).send({ image: '%%%' }).expect(400);
    await t.request().post(api('/avatar')).set('Authorization', bob.auth).send({ image: '' }).expect(403);
    await t.request().delete(api('/avatar')).expect(401);
  });
});

describe('topic search', () => {
  it('finds topic names containing the keyword, most used first, with their counts and a total', async () => {
    const mine = uniqueName('topics');
    await t.request().post('/api/v1/user/repos').set('Authorization', carol.auth).send({ name: mine }).expect(201);
    await t
      .request()
      .put(api('/topics'))
      .set('Authorization', alice.auth)
      .send({ topics: ['zeta-tools', 'zeta-ci'] })
      .expect(204);
    await t
      .request()
      .put(`/api/v1/repos/${carol.user.name}/${mine}/topics`)
      .set('Authorization', carol.auth)
      .send({ topics: ['zeta-ci'] })
      .expect(204);
    const found = await t.request().get('/api/v1/topics/search?q=zeta').set('Authorization', bob.auth).expect(200);
    expect(found.headers['x-total-count']).toBe('2');
    expect(found.body.topics).toEqual([
      expect.objectContaining({ topic_name: 'zeta-ci', repo_count: 2 }),
      expect.objectContaining({ topic_name: 'zeta-tools', repo_count: 1 }),
    ]);
    const paged = await t.request().get('/api/v1/topics/search?q=ZETA&limit=1&page=2').expect(200);
    expect(paged.body.topics).toEqual([expect.objectContaining({ topic_name: 'zeta-tools' })]);
    const none = await t.request().get('/api/v1/topics/search?q=no-such-topic').expect(200);
    expect(none.body).toEqual({ topics: [] });
  });
});
