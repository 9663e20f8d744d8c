// The Cargo registry under /api/packages/{owner}/cargo through the whole app: the sparse index (config.json and the
// crates' files with deps, features, cksum and yanked), the binary publish body, yank/unyank, download, search and
// owners; refusals of hostile crates and bodies (400, nothing kept), size and quota (413); access and token scopes;
// the package API's view, and its delete seen by the index.
import { createHash } from 'node:crypto';
import {
  addTestOrgMember,
  createTestOrg,
  createTestUser,
  createToken,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import {
  cargoRegistry,
  claimedSizeArchive,
  crateArchive,
  crateMetadata,
  publishBody,
  publishCrate,
  putCrate,
} from '../helpers/cargo.ts';
import { blobFiles } from '../helpers/packages.ts';
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

/** The index path cargo makes from a name. */
function indexPath(name: string): string {
  const lower = name.toLowerCase();
  if (lower.length <= 2) return `${lower.length}/${lower}`;
  if (lower.length === 3) return `3/${lower[0]}/${lower}`;
  return `${lower.slice(0, 2)}/${lower.slice(2, 4)}/${lower}`;
}

const indexUrl = (owner: string, name: string) => `${cargoRegistry(owner)}/${indexPath(name)}`;

function indexLines(text: string): Record<string, unknown>[] {
  return text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function raw(url: string, auth?: string) {
  const request = t
    .request()
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  if (auth) request.set('Authorization', auth);
  return request;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('the sparse index and publish', () => {
  it('answers config.json with the download and API addresses', async () => {
    const res = await t
      .request()
      .get(`${cargoRegistry(alice.user.name)}/config.json`)
      .expect(200);
    const base = `http://localhost:3000${cargoRegistry(alice.user.name)}`;
    expect(res.body).toEqual({ dl: `${base}/api/v1/crates`, api: base, 'auth-required': false });
  });

  it('publishes a crate and lists each version on its index file with deps, features, cksum and yanked', async () => {
    const name = uniqueName('Crate');
    const dep = {
      name: 'serde',
      version_req: '^1.0',
      features: ['derive'],
      optional: true,
      default_features: false,
      target: 'cfg(unix)',
      kind: 'normal',
      registry: 'https://github.com/rust-lang/crates.io-index',
      explicit_name_in_toml: 'serde1',
    };
    const first = await publishCrate(t, alice.user.name, alice.auth, name, '1.0.0', {
      deps: [dep, { name: 'helper', version_req: '=0.2', features: [], kind: 'dev', optional: false }],
      features: { default: ['std'], std: [], json: ['dep:serde1', 'serde1?/std'] },
      links: 'z',
      rust_version: '1.70',
    });
    expect(first.res.status).toBe(200);
    expect(first.res.body).toEqual({ ok: true });
    const second = await publishCrate(t, alice.user.name, alice.auth, name, '1.1.0-beta.1');
    expect(second.res.status).toBe(200);

    const res = await t.request().get(indexUrl(alice.user.name, name)).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    const [v1, v2] = indexLines(res.text);
    expect(v1).toEqual({
      name,
      vers: '1.0.0',
      deps: [
        {
          name: 'serde1',
          req: '^1.0',
          features: ['derive'],
          optional: true,
          default_features: false,
          target: 'cfg(unix)',
          kind: 'normal',
          registry: 'https://github.com/rust-lang/crates.io-index',
          package: 'serde',
        },
        {
          name: 'helper',
          req: '=0.2',
          features: [],
          optional: false,
          default_features: true,
          target: null,
          kind: 'dev',
          registry: null,
        },
      ],
      cksum: sha256(first.crate),
      features: { default: ['std'], std: [] },
      features2: { json: ['dep:serde1', 'serde1?/std'] },
      v: 2,
      yanked: false,
      links: 'z',
      rust_version: '1.70',
    });
    expect(v2).toEqual({
      name,
      vers: '1.1.0-beta.1',
      deps: [],
      cksum: sha256(second.crate),
      features: {},
      yanked: false,
    });

    // The download is the published crate, under the `dl` address cargo completes.
    const file = await raw(`${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/1.0.0/download`).expect(200);
    expect(Buffer.compare(file.body as Buffer, first.crate)).toBe(0);
  });

  it('serves short names at 1/, 2/ and 3/x/ paths, and no other path for a name', async () => {
    for (const name of ['q', 'qz', 'qzx']) {
      await publishCrate(t, bob.user.name, bob.auth, name, '0.1.0').then(({ res }) => expect(res.status).toBe(200));
      const res = await t.request().get(indexUrl(bob.user.name, name)).expect(200);
      expect(indexLines(res.text)).toEqual([expect.objectContaining({ name, vers: '0.1.0' })]);
    }
    await t
      .request()
      .get(`${cargoRegistry(bob.user.name)}/3/q/qzx`)
      .expect(200);
    const wrong = await t
      .request()
      .get(`${cargoRegistry(bob.user.name)}/2/qzx`)
      .expect(404);
    expect(wrong.body).toEqual({ errors: [{ detail: expect.any(String) }] });
    await t
      .request()
      .get(`${cargoRegistry(bob.user.name)}/zz/zz/${uniqueName('zz')}`)
      .expect(404);
  });

  it('answers the index file with an ETag, 304 when unchanged, and a new body after a yank', async () => {
    const name = uniqueName('cached');
    await publishCrate(t, alice.user.name, alice.auth, name, '0.1.0');
    const url = indexUrl(alice.user.name, name);
    const first = await t.request().get(url).set('Accept-Encoding', 'identity').expect(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    await t.request().get(url).set('If-None-Match', first.headers.etag).expect(304);
    // cargo accepts gzip: the same lines, compressed, under their own tag.
    const gzipped = await t.request().get(url).set('Accept-Encoding', 'deflate, gzip').expect(200);
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gzipped.headers.etag).not.toBe(first.headers.etag);
    expect(gzipped.text).toBe(first.text);
    await t.request().get(url).set('If-None-Match', gzipped.headers.etag).expect(304);

    const yank = `${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/0.1.0`;
    const yanked = await t.request().delete(`${yank}/yank`).set('Authorization', alice.auth).expect(200);
    expect(yanked.body).toEqual({ ok: true });
    const after = await t.request().get(url).set('If-None-Match', first.headers.etag).expect(200);
    expect(indexLines(after.text)[0]).toMatchObject({ vers: '0.1.0', yanked: true });
    await t.request().put(`${yank}/unyank`).set('Authorization', alice.auth).expect(200);
    const again = await t.request().get(url).expect(200);
    expect(indexLines(again.text)[0]).toMatchObject({ yanked: false });
    await t
      .request()
      .delete(`${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/9.9.9/yank`)
      .set('Authorization', alice.auth)
      .expect(404);
  });

  it('answers cargo search with the highest version and description, and owners', async () => {
    const stem = uniqueName('findme');
    await publishCrate(t, alice.user.name, alice.auth, `${stem}-a`, '1.2.0', { description: 'first' });
    await publishCrate(t, alice.user.name, alice.auth, `${stem}-a`, '1.10.0', { description: 'newest' });
    await publishCrate(t, alice.user.name, alice.auth, `${stem}-b`, '0.1.0');
    const res = await t
      .request()
      .get(`${cargoRegistry(alice.user.name)}/api/v1/crates?q=${stem}&per_page=1`)
      .expect(200);
    expect(res.body).toEqual({
      crates: [{ name: `${stem}-a`, max_version: '1.10.0', description: 'newest' }],
      meta: { total: 2 },
    });
    const owners = await t
      .request()
      .get(`${cargoRegistry(alice.user.name)}/api/v1/crates/${stem}-a/owners`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(owners.body).toEqual({ users: [expect.objectContaining({ id: alice.user.id, login: alice.user.name })] });
  });
});

describe('refusals', () => {
  it('answers 409 for a version that exists, keeping the first', async () => {
    const name = uniqueName('dup');
    const { crate } = await publishCrate(t, alice.user.name, alice.auth, name, '1.0.0');
    const again = await publishCrate(t, alice.user.name, alice.auth, name, '1.0.0');
    expect(again.res.status).toBe(409);
    expect(again.res.body).toEqual({ errors: [{ detail: 'package version already exists' }] });
    const file = await raw(`${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/1.0.0/download`).expect(200);
    expect(Buffer.compare(file.body as Buffer, crate)).toBe(0);
  });

  const folder = (name: string) => `${name}-1.0.0`;
  it.each([
    [
      'path traversal',
      (name: string) => [
        { name: `${folder(name)}/Cargo.toml`, body: '' },
        { name: `${folder(name)}/../../etc/cron.d/evil`, body: 'x' },
      ],
    ],
    [
      'an entry outside the folder',
      (name: string) => [
        { name: `${folder(name)}/Cargo.toml`, body: '' },
        { name: 'other/file', body: 'x' },
      ],
    ],
    [
      'a symbolic link',
      (name: string) => [
        { name: `${folder(name)}/Cargo.toml`, body: '' },
        { name: `${folder(name)}/link`, type: 'symlink' as const, linkname: '/etc/passwd' },
      ],
    ],
    ['no Cargo.toml', (name: string) => [{ name: `${folder(name)}/src/lib.rs`, body: '' }]],
  ])('refuses a crate with %s (400) and keeps nothing', async (_label, entries) => {
    const before = blobFiles(t);
    const name = uniqueName('bad');
    const crate = await crateArchive(name, '1.0.0', entries(name));
    const res = await putCrate(t, alice.user.name, alice.auth, publishBody(crateMetadata(name, '1.0.0'), crate));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ detail: expect.stringMatching(/^invalid crate/) }] });
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
  });

  it('refuses a gzip bomb (an entry claiming 600 MiB) and a crate that is not gzip (400), keeping nothing', async () => {
    const before = blobFiles(t);
    const name = uniqueName('bomb');
    const bomb = claimedSizeArchive(`${folder(name)}/Cargo.toml`, 600 * 1024 * 1024);
    const res = await putCrate(t, alice.user.name, alice.auth, publishBody(crateMetadata(name, '1.0.0'), bomb));
    expect(res.status).toBe(400);
    expect(res.body.errors[0].detail).toMatch(/size limit/);
    const notGzip = Buffer.from('just text, not an archive');
    await putCrate(t, alice.user.name, alice.auth, publishBody(crateMetadata(name, '1.0.0'), notGzip)).expect(400);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
  });

  it('refuses 10 MB of metadata before reading it, and malformed bodies and metadata (400)', async () => {
    const name = uniqueName('meta');
    const crate = await crateArchive(name, '1.0.0');
    const huge = Buffer.alloc(8);
    huge.writeUInt32LE(10 * 1024 * 1024);
    const res = await putCrate(t, alice.user.name, alice.auth, huge);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].detail).toMatch(/metadata is larger/);
    const send = (body: Buffer) => putCrate(t, alice.user.name, alice.auth, body);
    await send(Buffer.from([1, 0])).expect(400);
    await send(publishBody('not json', crate)).expect(400);
    await send(publishBody({ ...crateMetadata(name, '1.0.0'), name: '1bad' }, crate)).expect(400);
    await send(publishBody({ ...crateMetadata(name, '1.0.0'), vers: 'one' }, crate)).expect(400);
    await send(publishBody({ ...crateMetadata(name, '1.0.0'), deps: [{ name: 'x', kind: 'odd' }] }, crate)).expect(400);
    // The crate shorter or longer than its announced length.
    await send(publishBody(crateMetadata(name, '1.0.0'), crate, crate.length + 10)).expect(400);
    await send(publishBody(crateMetadata(name, '1.0.0'), crate, crate.length - 10)).expect(400);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
  });

  it('refuses a crate past [packages] LIMIT_SIZE_CARGO (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_CARGO: '100' });
    try {
      const carol = await createTestUser(limited);
      const name = uniqueName('big');
      const crate = await crateArchive(name, '1.0.0');
      const res = await putCrate(
        limited,
        carol.user.name,
        carol.auth,
        publishBody(crateMetadata(name, '1.0.0'), crate),
      );
      expect(res.status).toBe(413);
      expect(await limited.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it("refuses a crate past the owner's package quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t);
    const name = uniqueName('quota');
    const { res } = await publishCrate(t, owner.user.name, owner.auth, name, '1.0.0');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ errors: [{ detail: expect.any(String) }] });
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
    await t.request().get(indexUrl(owner.user.name, name)).expect(404);
  });
});

describe('access', () => {
  it('asks an anonymous publisher to sign in (401), refuses one on another owner (403)', async () => {
    const name = uniqueName('anon');
    const crate = await crateArchive(name, '1.0.0');
    const body = publishBody(crateMetadata(name, '1.0.0'), crate);
    await putCrate(t, alice.user.name, null, body).expect(401);
    await putCrate(t, alice.user.name, bob.auth, body).expect(403);
    await t
      .request()
      .delete(`${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/1.0.0/yank`)
      .set('Authorization', bob.auth)
      .expect(403);
  });

  it('takes the token as cargo sends it: `Bearer …` (and `token …`)', async () => {
    const name = uniqueName('bearer');
    const crate = await crateArchive(name, '1.0.0');
    await putCrate(
      t,
      alice.user.name,
      `Bearer ${alice.token}`,
      publishBody(crateMetadata(name, '1.0.0'), crate),
    ).expect(200);
    const next = await crateArchive(name, '1.0.1');
    await putCrate(t, alice.user.name, `token ${alice.token}`, publishBody(crateMetadata(name, '1.0.1'), next)).expect(
      200,
    );
  });

  it('hides a private owner from an outsider (404), challenges anonymous cargo (401), serves members', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const name = uniqueName('secret');
    await publishCrate(t, org.name, alice.auth, name, '1.0.0').then(({ res }) => expect(res.status).toBe(200));
    const config = `${cargoRegistry(org.name)}/config.json`;
    const challenged = await t.request().get(config).expect(401);
    expect(challenged.headers['www-authenticate']).toMatch(/^Basic/);
    await t.request().get(config).set('Authorization', bob.auth).expect(404);
    await t.request().get(indexUrl(org.name, name)).set('Authorization', bob.auth).expect(404);
    await publishCrate(t, org.name, bob.auth, name, '2.0.0').then(({ res }) => expect(res.status).toBe(404));
    const inside = await t.request().get(config).set('Authorization', alice.auth).expect(200);
    expect(inside.body['auth-required']).toBe(true);
    const carol = await createTestUser(t);
    await addTestOrgMember(t, org, carol.user);
    await t.request().get(indexUrl(org.name, name)).set('Authorization', carol.auth).expect(200);
  });

  it('honours token scopes: read:package reads, write:package publishes and yanks, other scopes neither', async () => {
    const name = uniqueName('scoped');
    await publishCrate(t, alice.user.name, alice.auth, name, '1.0.0');
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const index = indexUrl(alice.user.name, name);
    await t.request().get(index).set('Authorization', `Bearer ${reader}`).expect(200);
    await t.request().get(index).set('Authorization', `Bearer ${other}`).expect(403);
    const publish = async (token: string, version: string) => {
      const crate = await crateArchive(name, version);
      return putCrate(t, alice.user.name, `Bearer ${token}`, publishBody(crateMetadata(name, version), crate));
    };
    expect((await publish(reader, '2.0.0')).status).toBe(403);
    expect((await publish(other, '2.0.0')).status).toBe(403);
    expect((await publish(writer, '2.0.0')).status).toBe(200);
    await t
      .request()
      .delete(`${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/2.0.0/yank`)
      .set('Authorization', `Bearer ${reader}`)
      .expect(403);
  });
});

describe('the package API', () => {
  it('lists the versions with type cargo and their crate file; a deleted version leaves the index', async () => {
    const name = uniqueName('listed');
    const { crate } = await publishCrate(t, alice.user.name, alice.auth, name, '2.0.0');
    await publishCrate(t, alice.user.name, alice.auth, name, '2.1.0');
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=cargo&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((item: { version: string }) => item.version).sort()).toEqual(['2.0.0', '2.1.0']);
    expect(list.body[0]).toMatchObject({ type: 'cargo', name });
    const files = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/cargo/${name}/2.0.0/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body).toEqual([expect.objectContaining({ name: `${name}-2.0.0.crate`, sha256: sha256(crate) })]);

    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/cargo/${name}/2.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const index = await t.request().get(indexUrl(alice.user.name, name)).expect(200);
    expect(indexLines(index.text).map((line) => line.vers)).toEqual(['2.1.0']);
    await t
      .request()
      .get(`${cargoRegistry(alice.user.name)}/api/v1/crates/${name}/2.0.0/download`)
      .expect(404);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/cargo/${name}/2.1.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t.request().get(indexUrl(alice.user.name, name)).expect(404);
  });
});
