// Unadopted repositories: directories without a row; list, adopt, delete, and names that must never become paths.
import fs from 'node:fs';
import path from 'node:path';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, tempDir } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
let alice: TestUser;
let root: string;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
  alice = await createTestUser(t, { name: 'alice' });
  root = t.context.settings.repository.ROOT;
});
afterAll(() => t.close());

async function bareOnDisk(owner: string, name: string, withCommit = false) {
  const dir = path.join(root, owner, `${name}.git`);
  await gitOk(['init', '-q', '--bare', dir]);
  if (withCommit) {
    const work = tempDir();
    await gitOk(['init', '-q', work]);
    fs.writeFileSync(path.join(work, 'f.txt'), 'x\n');
    await gitOk(['add', 'f.txt'], work);
    await gitOk(['commit', '-q', '-m', 'c'], work);
    await gitOk(['push', '-q', dir, 'HEAD:refs/heads/trunk'], work);
  }
  return dir;
}

const list = (query = '') => t.request().get(`/api/v1/admin/unadopted${query}`).set('Authorization', admin.auth);

describe('list', () => {
  it('lists directories without rows whose owner exists, filtered by a glob, paged', async () => {
    await bareOnDisk('alice', 'orphan-one', true);
    await bareOnDisk('alice', 'orphan-two');
    await bareOnDisk('nobody', 'ghost');
    await bareOnDisk('alice', 'Upper');
    fs.mkdirSync(path.join(root, 'alice', 'not-a-repo'), { recursive: true });
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: 'adopted-already' })
      .expect(201);

    const all = await list().expect(200);
    expect(all.body).toEqual(['alice/orphan-one', 'alice/orphan-two']);
    expect(all.headers['x-total-count']).toBe('2');
    expect((await list('?query=alice/*-two').expect(200)).body).toEqual(['alice/orphan-two']);
    expect((await list('?pattern=alice/orphan-{one,three}').expect(200)).body).toEqual(['alice/orphan-one']);
    expect((await list('?query=bob').expect(200)).body).toEqual([]);
    const paged = await list('?page=0&limit=1').expect(200);
    expect(paged.body).toEqual(['alice/orphan-one']);
    expect(paged.headers['x-total-count']).toBe('2');
    expect((await list('?page=2&limit=1').expect(200)).body).toEqual(['alice/orphan-two']);
  });

  it('is for administrators only', async () => {
    await t.request().get('/api/v1/admin/unadopted').set('Authorization', alice.auth).expect(403);
    await t.request().get('/api/v1/admin/unadopted').expect(401);
    await t.request().post('/api/v1/admin/unadopted/alice/orphan-one').set('Authorization', alice.auth).expect(403);
  });
});

describe('adopt', () => {
  it('makes the directory a private repository of the owner, reading its branches', async () => {
    await bareOnDisk('alice', 'to-adopt', true);
    await t.request().post('/api/v1/admin/unadopted/alice/to-adopt').set('Authorization', admin.auth).expect(204);
    const repo = await t.request().get('/api/v1/repos/alice/to-adopt').set('Authorization', alice.auth).expect(200);
    expect(repo.body).toMatchObject({
      private: true,
      empty: false,
      default_branch: 'trunk',
      owner: { login: 'alice' },
    });
    expect(repo.body.size).toBeGreaterThanOrEqual(0);
    await t.request().get('/api/v1/repos/alice/to-adopt').expect(404);
    expect((await list().expect(200)).body).not.toContain('alice/to-adopt');
  });

  it('works for organizations too', async () => {
    const org = await createTestOrg(t, alice.user, { name: 'adoptorg' });
    await bareOnDisk('adoptorg', 'org-orphan');
    await t
      .request()
      .post(`/api/v1/admin/unadopted/${org.name}/org-orphan`)
      .set('Authorization', admin.auth)
      .expect(204);
    const repo = await t
      .request()
      .get(`/api/v1/repos/${org.name}/org-orphan`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(repo.body).toMatchObject({ private: true, empty: true });
  });

  it('answers 404 for an unknown owner, an existing row, or no directory', async () => {
    await bareOnDisk('ghostowner', 'x');
    await t.request().post('/api/v1/admin/unadopted/ghostowner/x').set('Authorization', admin.auth).expect(404);
    await t
      .request()
      .post('/api/v1/admin/unadopted/alice/adopted-already')
      .set('Authorization', admin.auth)
      .expect(404);
    await t.request().post('/api/v1/admin/unadopted/alice/no-such-dir').set('Authorization', admin.auth).expect(404);
  });
});

describe('delete', () => {
  it('removes the directory; 404 for rows that exist and for missing directories', async () => {
    const dir = await bareOnDisk('alice', 'to-delete');
    await t.request().delete('/api/v1/admin/unadopted/alice/to-delete').set('Authorization', admin.auth).expect(204);
    expect(fs.existsSync(dir)).toBe(false);
    await t.request().delete('/api/v1/admin/unadopted/alice/to-delete').set('Authorization', admin.auth).expect(404);
    await t
      .request()
      .delete('/api/v1/admin/unadopted/alice/adopted-already')
      .set('Authorization', admin.auth)
      .expect(404);
    expect(fs.existsSync(path.join(root, 'alice', 'adopted-already.git'))).toBe(true);
  });
});

describe('path traversal', () => {
  it('never touches anything outside the repository root', async () => {
    // A bare repository next to the root, which a traversal would reach.
    const outside = path.join(path.dirname(root), 'outside.git');
    await gitOk(['init', '-q', '--bare', outside]);
    const attempts = [
      ['alice', '..%2F..%2Foutside'],
      ['alice', '..%2Foutside'],
      ['..', 'outside'],
      ['alice', '..'],
      ['alice', '...'],
      ['%2E%2E', 'outside'],
      ['alice%2F..%2F..', 'outside'],
      ['alice', 'orphan-one%2F..%2F..%2F..%2Foutside'],
    ];
    for (const [owner, repo] of attempts) {
      for (const method of ['post', 'delete'] as const) {
        const res = await t
          .request()
          [method](`/api/v1/admin/unadopted/${owner}/${repo}`)
          .set('Authorization', admin.auth);
        expect([404, 422]).toContain(res.status);
      }
    }
    expect(fs.existsSync(outside)).toBe(true);
    expect(fs.existsSync(path.join(root, 'alice', 'orphan-one.git'))).toBe(true);
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: { contains: 'outside' } } })).toBe(0);
  });

  it('refuses repository names that would leave the owner folder on create and rename', async () => {
    for (const name of ['..', '../x', '..%2Fx', '.', 'a/../../b']) {
      const res = await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name });
      expect(res.status).toBe(422);
    }
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: 'stay-here' })
      .expect(201);
    for (const name of ['..', '../../escaped', '/abs']) {
      await t
        .request()
        .patch('/api/v1/repos/alice/stay-here')
        .set('Authorization', alice.auth)
        .send({ name })
        .expect(422);
    }
    expect(fs.existsSync(path.join(root, 'alice', 'stay-here.git'))).toBe(true);
    await t.request().get('/api/v1/repos/alice/..%2F..%2Fetc').expect(404);
  });
});
