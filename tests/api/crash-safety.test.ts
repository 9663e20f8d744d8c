// What a crash may leave behind (npm run crash-test kills a real server; these pin the two orderings it relies on):
// a repository row commits only once its git directory is in place, and a row a cut-off push left behind its disk
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
  const pushPastTheServer = async (name: string, files: Record<string, string>, ref = 'HEAD:refs/heads/trunk') => {
    const work = tempDir();
    await gitOk(['init', '-q', work]);
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(work, file), text);
    await gitOk(['add', '.'], work);
    await gitOk(['commit', '-q', '-m', 'c'], work);
    await gitOk(['push', '-q', '-f', repoDir(name), ref], work);
  };
  const view = async (name: string) =>
    (await t.request().get(`/api/v1/repos/alice/${name}`).set('Authorization', alice.auth).expect(200)).body;
  /** A new repository of alice's, by id. */
  const create = async (name: string): Promise<number> =>
    (await t.request().post('/api/v1/user/repos').set('Authorization', alice.auth).send({ name }).expect(201)).body.id;
  /** A write into the repository begun as the server begins a push: it is recorded before git writes. */
  const beginWrite = (id: number, name: string) =>
    t.context.services.pushes.beginPush(
      alice.user,
      { id, ownerId: alice.user.id, ownerName: 'alice', name, isPrivate: false },
      repoDir(name),
    );
  /** A new repository holding one branch, pushed and finished as the server does. */
  const createPushed = async (name: string): Promise<number> => {
    const id = await create(name);
    const write = await beginWrite(id, name);
    await pushPastTheServer(name, { 'a.txt': 'a\n' }, 'HEAD:refs/heads/main');
    await write.finish();
    return id;
  };

  it('is brought into the row from disk at start, and only that repository is read', async () => {
    const { repoEdits } = t.context.services;
    const id = await create('cut-off');
    await create('never-pushed');
    // The write began (as a push does), git wrote the refs, and the server died before it updated the row.
    await beginWrite(id, 'cut-off');
    await pushPastTheServer('cut-off', { 'f.txt': 'x\n' });
    expect((await view('cut-off')).empty).toBe(true);

    const before = await view('never-pushed');
    expect(await repoEdits.refreshCutOffFromDisk()).toBe(1);
    const answer = await view('cut-off');
    expect(answer.empty).toBe(false);
    expect(answer.default_branch).toBe('trunk');
    expect(await view('never-pushed')).toEqual(before);
    expect(await t.context.db.prisma.pushInFlight.count()).toBe(0);
    expect(await repoEdits.refreshCutOffFromDisk()).toBe(0);
  });

  it('leaves nothing behind for a push the server finished', async () => {
    const push = await beginWrite(await create('finished'), 'finished');
    await pushPastTheServer('finished', { 'f.txt': 'y\n' });
    await push.finish();
    expect((await view('finished')).empty).toBe(false);
    expect(await t.context.db.prisma.pushInFlight.count()).toBe(0);
  });

  it('keeps the mark of a repository it could not read, for the next start', async () => {
    const { repoEdits } = t.context.services;
    const id = await createPushed('unreadable');
    await beginWrite(id, 'unreadable');
    const aside = `${repoDir('unreadable')}.aside`;
    fs.renameSync(repoDir('unreadable'), aside);
    try {
      expect(await repoEdits.refreshCutOffFromDisk()).toBe(0);
      expect(await t.context.db.prisma.pushInFlight.count({ where: { repoId: id } })).toBe(1);
    } finally {
      fs.renameSync(aside, repoDir('unreadable'));
    }
    await repoEdits.refreshCutOffFromDisk();
    expect(await t.context.db.prisma.pushInFlight.count({ where: { repoId: id } })).toBe(0);
  });

  it('brings a cut-off push into a repository that was not empty up to date too', async () => {
    const { repoEdits } = t.context.services;
    const id = await createPushed('grown');
    const sizeBefore = (await t.context.db.prisma.repository.findUniqueOrThrow({ where: { id } })).gitSize;

    await beginWrite(id, 'grown');
    await pushPastTheServer('grown', { 'b.bin': 'b'.repeat(200_000) + Math.random() }, 'HEAD:refs/heads/big');
    expect(await repoEdits.refreshCutOffFromDisk()).toBe(1);
    const row = await t.context.db.prisma.repository.findUniqueOrThrow({ where: { id } });
    expect(row.gitSize).toBeGreaterThan(sizeBefore);
  });
});
