// Cargo's git index through the whole app: the owner's repository `_cargo-index` made on request (Forgejo's
// "Initialize index"), holding config.json and each crate's file at its index path — the sparse index's lines —
// and a commit for every publish, yank, unyank and deletion; concurrent publishes losing no commit; rebuild;
// who may ask for it. The repository is read back through the repository API.
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { cargoRegistry, publishCrate } from '../helpers/cargo.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
});
afterAll(() => t.close());

function indexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

const initialize = (owner: TestUser, auth: string | null = owner.auth, action = 'initialize') => {
  const request = t.request().post(`${cargoRegistry(owner.user.name)}/index/${action}`);
  return auth ? request.set('Authorization', auth) : request;
};

/** A file of the owner's index repository at its default branch, or the status it answers with. */
async function indexFile(owner: TestUser, path: string): Promise<string | number> {
  const res = await t
    .request()
    .get(`/api/v1/repos/${owner.user.name}/_cargo-index/raw/${path}`)
    .set('Authorization', owner.auth);
  return res.status === 200 ? (res.text ?? (res.body as Buffer).toString()) : res.status;
}

async function commitMessages(owner: TestUser): Promise<string[]> {
  const res = await t
    .request()
    .get(`/api/v1/repos/${owner.user.name}/_cargo-index/commits?limit=50&stat=false`)
    .set('Authorization', owner.auth)
    .expect(200);
  return (res.body as { commit: { message: string } }[]).map((commit) => commit.commit.message.trim());
}

async function sparseFile(owner: TestUser, name: string): Promise<string> {
  const res = await t
    .request()
    .get(`${cargoRegistry(owner.user.name)}/${indexPath(name)}`)
    .expect(200);
  return res.text;
}

describe('the git index', () => {
  it('is made on request with config.json and the crates published before, then follows every change', async () => {
    const before = uniqueName('before');
    await publishCrate(t, alice.user.name, alice.auth, before, '0.1.0');
    // No index repository until asked for: a publish does not make one.
    await t.request().get(`/api/v1/repos/${alice.user.name}/_cargo-index`).set('Authorization', alice.auth).expect(404);
    await initialize(alice).expect(204);

    const base = `http://localhost:3000${cargoRegistry(alice.user.name)}`;
    expect(JSON.parse(String(await indexFile(alice, 'config.json')))).toEqual({
      dl: `${base}/api/v1/crates`,
      api: base,
      'auth-required': false,
    });
    expect(await indexFile(alice, indexPath(before))).toBe(await sparseFile(alice, before));

    const name = uniqueName('after');
    await publishCrate(t, alice.user.name, alice.auth, name, '1.0.0');
    await publishCrate(t, alice.user.name, alice.auth, name, '1.1.0');
    const published = String(await indexFile(alice, indexPath(name)));
    expect(published).toBe(await sparseFile(alice, name));
    expect(
      published
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { vers: string }).vers),
    ).toEqual(['1.0.0', '1.1.0']);

    const crates = `${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/1.0.0`;
    await t.request().delete(`${crates}/yank`).set('Authorization', alice.auth).expect(200);
    expect(String(await indexFile(alice, indexPath(name)))).toContain('"yanked":true');
    await t.request().put(`${crates}/unyank`).set('Authorization', alice.auth).expect(200);
    expect(String(await indexFile(alice, indexPath(name)))).not.toContain('"yanked":true');

    // A deletion through the package API: the version leaves the file, the last one takes the file away.
    const remove = (version: string) =>
      t
        .request()
        .delete(`/api/v1/packages/${alice.user.name}/cargo/${name}/${version}`)
        .set('Authorization', alice.auth)
        .expect(204);
    await remove('1.0.0');
    expect(String(await indexFile(alice, indexPath(name)))).toBe(await sparseFile(alice, name));
    await remove('1.1.0');
    expect(await indexFile(alice, indexPath(name))).toBe(404);

    expect(await commitMessages(alice)).toEqual([
      `Update ${name}`,
      `Update ${name}`,
      `Update ${name}`,
      `Update ${name}`,
      `Update ${name}`,
      `Update ${name}`,
      'Rebuild Cargo index',
    ]);
  });

  it('loses no commit to concurrent publishes', async () => {
    const owner = await createTestUser(t);
    await initialize(owner).expect(204);
    const names = [1, 2, 3, 4, 5].map((i) => uniqueName(`race${i}`));
    await Promise.all(names.map((name) => publishCrate(t, owner.user.name, owner.auth, name, '1.0.0')));
    for (const name of names) expect(await indexFile(owner, indexPath(name))).toBe(await sparseFile(owner, name));
    expect((await commitMessages(owner)).sort()).toEqual(
      [...names.map((name) => `Update ${name}`), 'Rebuild Cargo index'].sort(),
    );
  });

  it('rebuilds an existing index (404 without one) and initializes again without harm', async () => {
    const owner = await createTestUser(t);
    await initialize(owner, owner.auth, 'rebuild').expect(404);
    const name = uniqueName('rebuilt');
    await publishCrate(t, owner.user.name, owner.auth, name, '0.2.0');
    await initialize(owner).expect(204);
    await initialize(owner).expect(204);
    await initialize(owner, owner.auth, 'rebuild').expect(204);
    expect(await indexFile(owner, indexPath(name))).toBe(await sparseFile(owner, name));
    expect(await commitMessages(owner)).toHaveLength(3);
  });

  it("asks an anonymous caller to sign in (401) and refuses another user's (403)", async () => {
    const owner = await createTestUser(t);
    await initialize(owner, null).expect(401);
    await initialize(owner, bob.auth).expect(403);
    await t.request().get(`/api/v1/repos/${owner.user.name}/_cargo-index`).set('Authorization', owner.auth).expect(404);
  });
});
