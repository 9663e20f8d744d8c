// The stored index sets of the system-package repositories (src/packages/core/repository-index.ts): a rebuild swaps
// a whole set in one transaction and keeps the previous one reachable by hash, rebuilds of one scope coalesce, a
// build that another build overtook is done again, and the API's delete of a version of a type with indexes enqueues
// the rebuild of the scopes it was in, in its own transaction.
import { createHash, randomBytes } from 'node:crypto';
import type { IndexBuilder, IndexFile } from '../../src/packages/core/repository-index.ts';
import { PACKAGE_INDEX_JOB } from '../../src/packages/core/repository-index.ts';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { blobFiles, upload } from '../helpers/packages.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
});
afterAll(() => t.close());

const indexes = () => t.context.services.packageIndexes;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/** A builder whose next set the test decides; counts its builds. */
function scriptedBuilder(scopes: string[] = ['all']) {
  const state = { files: [] as IndexFile[], builds: 0, during: null as null | (() => Promise<void>) };
  const builder: IndexBuilder = {
    async build() {
      state.builds++;
      const files = state.files;
      const during = state.during;
      state.during = null;
      await during?.();
      return files;
    },
    scopesOf: async () => scopes,
  };
  return { state, builder };
}

const pendingJobs = () => t.context.db.prisma.job.count({ where: { kind: PACKAGE_INDEX_JOB } });

describe('index sets', () => {
  it('swaps a built set in, serves it by name, and keeps the previous set reachable by hash', async () => {
    const type = uniqueName('idx');
    const { state, builder } = scriptedBuilder();
    indexes().register(type, builder);
    const key = { ownerId: alice.user.id, type, scope: 'stable' };

    const first = { name: 'Release', data: Buffer.from('first release\n') };
    state.files = [first, { name: 'main/Packages', data: Buffer.from('first packages\n') }];
    await expect(indexes().rebuild(key)).resolves.toBe('done');
    const stored = await indexes().file(key, 'Release');
    expect(stored?.blob.hashSha256).toBe(sha256(first.data));
    expect((await indexes().read(stored!)).toString()).toBe('first release\n');
    expect(await indexes().file(key, 'release')).toBeNull();

    state.files = [{ name: 'Release', data: Buffer.from('second release\n') }];
    await indexes().rebuild(key);
    expect((await indexes().read((await indexes().file(key, 'Release'))!)).toString()).toBe('second release\n');
    expect(await indexes().file(key, 'main/Packages')).toBeNull();
    // The previous set still answers by hash (a client that read the old Release a moment ago).
    const old = await indexes().fileByHash(key, 'sha256', sha256(Buffer.from('first packages\n')));
    expect(old?.name).toBe('main/Packages');

    // A third set drops the first from storage: neither row nor bytes are left.
    const hashOfFirst = sha256(Buffer.from('first packages\n'));
    state.files = [{ name: 'Release', data: Buffer.from('third release\n') }];
    await indexes().rebuild(key);
    expect(await indexes().fileByHash(key, 'sha256', hashOfFirst)).toBeNull();
    expect(blobFiles(t).some((file) => file.endsWith(hashOfFirst))).toBe(false);
    // Another scope of the type is its own set.
    expect(await indexes().file({ ...key, scope: 'testing' }, 'Release')).toBeNull();
  });

  it('coalesces queued rebuilds of one scope into one run', async () => {
    const type = uniqueName('idx');
    const { state, builder } = scriptedBuilder();
    indexes().register(type, builder);
    state.files = [{ name: 'Release', data: randomBytes(64) }];
    const key = { ownerId: alice.user.id, type, scope: 'main' };
    for (let i = 0; i < 3; i++) await t.context.transactions.run((repos) => indexes().enqueue(repos, key));
    expect(await pendingJobs()).toBe(3);
    await indexes().runDue();
    expect(state.builds).toBe(1);
    expect(await pendingJobs()).toBe(0);
    expect(await indexes().file(key, 'Release')).not.toBeNull();
  });

  it('builds again when another build swapped its set in first, so no change is lost', async () => {
    const type = uniqueName('idx');
    const { state, builder } = scriptedBuilder();
    indexes().register(type, builder);
    const key = { ownerId: alice.user.id, type, scope: 'main' };
    const stale = Buffer.from('stale\n');
    const fresh = Buffer.from('fresh\n');
    state.files = [{ name: 'Release', data: stale }];
    // While the first build runs, a second one (a later change) builds and swaps first.
    state.during = async () => {
      state.files = [{ name: 'Release', data: fresh }];
      await indexes().rebuild(key);
    };
    await indexes().rebuild(key);
    expect(state.builds).toBe(3);
    expect((await indexes().read((await indexes().file(key, 'Release'))!)).toString()).toBe('fresh\n');
  });

  it('an empty build stores an empty set', async () => {
    const type = uniqueName('idx');
    const { state, builder } = scriptedBuilder();
    indexes().register(type, builder);
    const key = { ownerId: alice.user.id, type, scope: 'main' };
    state.files = [{ name: 'Release', data: randomBytes(16) }];
    await indexes().rebuild(key);
    state.files = [];
    await indexes().rebuild(key);
    expect(await indexes().file(key, 'Release')).toBeNull();
  });
});

describe('the API delete of a version', () => {
  it('enqueues a rebuild of each scope the version was in, in its transaction, for a type with a builder', async () => {
    const { state, builder } = scriptedBuilder(['stable', 'testing']);
    // The generic type stands in for a system-package type here: it is the one the API can upload.
    indexes().register('generic', builder);
    const name = uniqueName('pkg');
    await upload(t, alice.auth, alice.user.name, name, '1.0', 'a.bin').expect(201);
    expect(await pendingJobs()).toBe(0);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/generic/${name}/1.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const jobs = await t.context.db.prisma.job.findMany({ where: { kind: PACKAGE_INDEX_JOB } });
    expect(jobs.map((job) => JSON.parse(job.payload) as { scope: string }).map((p) => p.scope)).toEqual([
      'stable',
      'testing',
    ]);
    await indexes().runDue();
    expect(state.builds).toBe(2);
    expect(await pendingJobs()).toBe(0);
  });
});
