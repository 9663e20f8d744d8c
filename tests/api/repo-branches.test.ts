// Branches and tags through the API, checked with the git client: what the API creates or deletes is what a clone
// sees. Every response is checked against the contract.
import path from 'node:path';
import type { Server } from 'node:http';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;
let repoPath: string;
let mainSha: string;

async function remoteRefs(): Promise<string> {
  return gitOk(['ls-remote', `${base}${repoPath}.git`]);
}

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'refs', auto_init: true })
    .expect(201);
  repoPath = `${alice.user.name}/refs`;
  mainSha = (await remoteRefs()).split('\t')[0];
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('branches', () => {
  it('lists and gets branches with their head commit; a missing one is 404', async () => {
    const list = await t.request().get(`/api/v1/repos/${repoPath}/branches`).expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({ name: 'main', commit: expect.objectContaining({ id: mainSha }) }),
    ]);
    expect(list.headers['x-total-count']).toBe('1');
    const main = await t
      .request()
      .get(`/api/v1/repos/${repoPath}/branches/main`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(main.body).toMatchObject({ name: 'main', protected: false, user_can_push: true });
    expect(main.body.commit.message).toMatch(/Initial commit/);
    const asBob = await t
      .request()
      .get(`/api/v1/repos/${repoPath}/branches/main`)
      .set('Authorization', bob.auth)
      .expect(200);
    expect(asBob.body.user_can_push).toBe(false);
    await t.request().get(`/api/v1/repos/${repoPath}/branches/nope`).expect(404);
  });

  it('creates a branch (a name with slashes too) from the default branch or a commit; git sees it', async () => {
    const created = await t
      .request()
      .post(`/api/v1/repos/${repoPath}/branches`)
      .set('Authorization', alice.auth)
      .send({ new_branch_name: 'feature/one' })
      .expect(201);
    expect(created.body).toMatchObject({ name: 'feature/one', commit: { id: mainSha } });
    await t
      .request()
      .post(`/api/v1/repos/${repoPath}/branches`)
      .set('Authorization', alice.auth)
      .send({ new_branch_name: 'from-sha', old_ref_name: mainSha })
      .expect(201);
    const refs = await remoteRefs();
    expect(refs).toContain(`${mainSha}\trefs/heads/feature/one`);
    expect(refs).toContain(`${mainSha}\trefs/heads/from-sha`);
    const got = await t.request().get(`/api/v1/repos/${repoPath}/branches/feature/one`).expect(200);
    expect(got.body.name).toBe('feature/one');
    const encoded = await t.request().get(`/api/v1/repos/${repoPath}/branches/feature%2Fone`).expect(200);
    expect(encoded.body.name).toBe('feature/one');
  });

  it('refuses an existing branch (409), a clashing path (409), a bad name (422), a missing start (404), outsiders (403)', async () => {
    const create = (body: object, auth = alice.auth) =>
      t.request().post(`/api/v1/repos/${repoPath}/branches`).set('Authorization', auth).send(body);
    await create({ new_branch_name: 'feature/one' }).expect(409);
    await create({ new_branch_name: 'feature' }).expect(409);
    await create({ new_branch_name: 'bad..name' }).expect(422);
    await create({ new_branch_name: 'x', old_branch_name: 'missing' }).expect(404);
    await create({ new_branch_name: 'x', old_ref_name: 'f'.repeat(40) }).expect(404);
    await create({ new_branch_name: 'x' }, bob.auth).expect(403);
    await t.request().post(`/api/v1/repos/${repoPath}/branches`).send({ new_branch_name: 'x' }).expect(401);
    expect(await remoteRefs()).not.toContain('refs/heads/x');
  });

  it('deletes a branch; the default branch is 403, a missing one 404; git no longer sees it', async () => {
    await t.request().delete(`/api/v1/repos/${repoPath}/branches/from-sha`).set('Authorization', bob.auth).expect(403);
    await t
      .request()
      .delete(`/api/v1/repos/${repoPath}/branches/from-sha`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .delete(`/api/v1/repos/${repoPath}/branches/from-sha`)
      .set('Authorization', alice.auth)
      .expect(404);
    await t.request().delete(`/api/v1/repos/${repoPath}/branches/main`).set('Authorization', alice.auth).expect(403);
    expect(await remoteRefs()).not.toContain('refs/heads/from-sha');
  });

  it('refuses writes to an archived repository (423)', async () => {
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: 'frozen', auto_init: true })
      .expect(201);
    await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/frozen`)
      .set('Authorization', alice.auth)
      .send({ archived: true })
      .expect(200);
    await t
      .request()
      .post(`/api/v1/repos/${alice.user.name}/frozen/branches`)
      .set('Authorization', alice.auth)
      .send({ new_branch_name: 'b' })
      .expect(423);
    await t
      .request()
      .post(`/api/v1/repos/${alice.user.name}/frozen/tags`)
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v1' })
      .expect(423);
    await t.request().get(`/api/v1/repos/${alice.user.name}/frozen/branches`).expect(200);
  });
});

describe('tags', () => {
  it('creates lightweight and annotated tags, lists and gets them; git sees both', async () => {
    const light = await t
      .request()
      .post(`/api/v1/repos/${repoPath}/tags`)
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v1.0.0' })
      .expect(201);
    expect(light.body).toMatchObject({ name: 'v1.0.0', id: mainSha, commit: { sha: mainSha } });
    const annotated = await t
      .request()
      .post(`/api/v1/repos/${repoPath}/tags`)
      .set('Authorization', alice.auth)
      .send({ tag_name: 'release/2', target: 'main', message: 'Second release' })
      .expect(201);
    expect(annotated.body).toMatchObject({ name: 'release/2', message: 'Second release\n', commit: { sha: mainSha } });
    expect(annotated.body.id).not.toBe(mainSha);
    const list = await t.request().get(`/api/v1/repos/${repoPath}/tags`).expect(200);
    expect(list.body.map((tag: { name: string }) => tag.name).sort()).toEqual(['release/2', 'v1.0.0']);
    const got = await t.request().get(`/api/v1/repos/${repoPath}/tags/release/2`).expect(200);
    expect(got.body.id).toBe(annotated.body.id);
    const dir = path.join(tempDir(), 'clone');
    await gitOk(['clone', '-q', `${base}${repoPath}.git`, dir]);
    expect(await gitOk(['cat-file', '-t', 'release/2'], dir)).toBe('tag\n');
    expect(await gitOk(['for-each-ref', '--format=%(taggername)', 'refs/tags/release/2'], dir)).toBe(
      `${alice.user.name}\n`,
    );
    expect(await gitOk(['rev-parse', 'v1.0.0'], dir)).toBe(`${mainSha}\n`);
  });

  it('refuses an existing tag (409), a bad name (422), a missing target (404), outsiders (403); deletes', async () => {
    const create = (body: object, auth = alice.auth) =>
      t.request().post(`/api/v1/repos/${repoPath}/tags`).set('Authorization', auth).send(body);
    await create({ tag_name: 'v1.0.0' }).expect(409);
    await create({ tag_name: 'bad tag' }).expect(422);
    await create({ tag_name: 'v9', target: 'missing' }).expect(404);
    await create({ tag_name: 'v9' }, bob.auth).expect(403);
    await t.request().get(`/api/v1/repos/${repoPath}/tags/v9`).expect(404);
    await t.request().delete(`/api/v1/repos/${repoPath}/tags/v1.0.0`).set('Authorization', alice.auth).expect(204);
    await t.request().delete(`/api/v1/repos/${repoPath}/tags/v1.0.0`).set('Authorization', alice.auth).expect(404);
    expect(await remoteRefs()).not.toContain('refs/tags/v1.0.0');
  });
});
