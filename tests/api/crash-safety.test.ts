// What a crash may leave behind (npm run crash-test kills a real server; these pin the two orderings it relies on):
// a repository row commits only once its git directory is in place, and a row a cut-off push left saying "empty"
// is brought up to date from disk when the server starts.
import fs from 'node:fs';
import path from 'node:path';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, tempDir } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { initBare } from '../../src/infra/git/repository.ts';

let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t, { name: 'alice' });
});
afterAll(() => t.close());

const repoDir = (name: string) => path.join(t.context.settings.repository.ROOT, 'alice', `${name}.git`);

describe('creating a repository', () => {
  it('makes no row while the git directory is built, and places the directory before the row commits', async () => {
    const { repoCreation } = t.context.services;
    let seenWhileBuilding: number | null = null;
    let rowWhileBuilding: unknown = 'unchecked';
    const record = { name: 'built-first', isPrivate: false, defaultBranch: 'main' };
    const created = await repoCreation.insert(alice.user, alice.user, record, {
      build: async (dir) => {
        await initBare(dir, { defaultBranch: 'main' });
        // A crash here must leave nothing a client could see as a repository.
        seenWhileBuilding = (await t.request().get('/api/v1/repos/alice/built-first').set('Authorization', alice.auth))
          .status;
        rowWhileBuilding = await t.context.db.prisma.repository.findFirst({ where: { lowerName: 'built-first' } });
        expect(fs.existsSync(repoDir('built-first'))).toBe(false);
      },
    });
    expect(seenWhileBuilding).toBe(404);
    expect(rowWhileBuilding).toBeNull();
    expect(fs.existsSync(path.join(repoDir('built-first'), 'HEAD'))).toBe(true);
    const answer = await t
      .request()
      .get('/api/v1/repos/alice/built-first')
      .set('Authorization', alice.auth)
      .expect(200);
    expect(answer.body.id).toBe(created.id);
    expect(answer.body.empty).toBe(true);
  });

  it('leaves neither a row nor a directory when building the directory fails', async () => {
    const { repoCreation } = t.context.services;
    const record = { name: 'build-fails', isPrivate: false, defaultBranch: 'main' };
    await expect(
      repoCreation.insert(alice.user, alice.user, record, {
        build: async (dir) => {
          await initBare(dir, { defaultBranch: 'main' });
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    await t.request().get('/api/v1/repos/alice/build-fails').set('Authorization', alice.auth).expect(404);
    expect(fs.existsSync(repoDir('build-fails'))).toBe(false);
    const staging = path.join(t.context.settings.repository.ROOT, '.staging');
    expect(fs.existsSync(staging) ? fs.readdirSync(staging) : []).toEqual([]);
  });

  it('records what an initialized directory holds with the row', async () => {
    const answer = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: 'initialized', auto_init: true, readme: 'Default' })
      .expect(201);
    expect(answer.body.empty).toBe(false);
    expect(answer.body.default_branch).toBe('main');
  });
});

describe('a push cut off before the row was updated', () => {
  it('is brought into the row from disk at start', async () => {
    await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name: 'cut-off' }).expect(201);
    // git wrote the refs, the server died before it updated the row: the same as pushing past the server.
    const work = tempDir();
    await gitOk(['init', '-q', work]);
    fs.writeFileSync(path.join(work, 'f.txt'), 'x\n');
    await gitOk(['add', 'f.txt'], work);
    await gitOk(['commit', '-q', '-m', 'c'], work);
    await gitOk(['push', '-q', repoDir('cut-off'), 'HEAD:refs/heads/trunk'], work);
    expect(
      (await t.request().get('/api/v1/repos/alice/cut-off').set('Authorization', alice.auth).expect(200)).body.empty,
    ).toBe(true);

    expect(await t.context.services.repoEdits.refreshEmptyFromDisk()).toBe(1);
    const answer = await t.request().get('/api/v1/repos/alice/cut-off').set('Authorization', alice.auth).expect(200);
    expect(answer.body.empty).toBe(false);
    expect(answer.body.default_branch).toBe('trunk');
    expect(await t.context.services.repoEdits.refreshEmptyFromDisk()).toBe(0);
  });
});
