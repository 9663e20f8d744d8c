// The Debian registry under /api/packages/{owner}/debian: .deb uploads named by their control file (any compression
// dpkg-deb uses), the signed distribution index rebuilt by the background job after uploads and deletes, pool
// downloads, by-hash reads, hostile uploads refused keeping nothing, access and token scopes.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as openpgp from 'openpgp';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { arArchive, buildDeb } from '../helpers/debian.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/debian`;

function put(owner: string, auth: string | null, dist: string, component: string, deb: Buffer) {
  const request = t
    .request()
    .put(`${registry(owner)}/pool/${dist}/${component}/upload`)
    .set('Content-Type', 'application/vnd.debian.binary-package');
  if (auth) request.set('Authorization', auth);
  return request.send(deb);
}

/** The raw bytes of a GET (supertest would parse text). */
function get(url: string, auth: string | null = alice.auth) {
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

const rebuild = () => t.context.services.packageIndexes.runDue();
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

async function verifyDetached(owner: string, data: Buffer, armoredSignature: string): Promise<void> {
  const key = await openpgp.readKey({
    armoredKey: (await get(`${registry(owner)}/repository.key`).expect(200)).body.toString(),
  });
  const result = await openpgp.verify({
    message: await openpgp.createMessage({ binary: data }),
    signature: await openpgp.readSignature({ armoredSignature }),
    verificationKeys: key,
    expectSigned: true,
  });
  await result.signatures[0].verified;
}

/** The Release's SHA256 lines: path → [hash, size]. */
function releaseSha256(release: string): Map<string, [string, number]> {
  const section = release.split('\nSHA256:\n')[1].split(/\n(?! )/)[0];
  const entries = new Map<string, [string, number]>();
  for (const line of section.split('\n').filter(Boolean)) {
    const [hash, size, file] = line.trim().split(/\s+/);
    entries.set(file, [hash, Number(size)]);
  }
  return entries;
}

describe('upload and index', () => {
  it('indexes an uploaded .deb in a signed Release whose digests name the Packages files served', async () => {
    const name = uniqueName('hello');
    const deb = buildDeb({ name, version: '1.2-1', control: 'Depends: libc6 (>= 2.0), perl' });
    await put(alice.user.name, alice.auth, 'bookworm', 'main', deb).expect(201);
    await rebuild();

    const base = `${registry(alice.user.name)}/dists/bookworm`;
    const release = (await get(`${base}/Release`).expect(200)).body as Buffer;
    const text = release.toString();
    expect(text).toMatch(/^Suite: bookworm$/m);
    expect(text).toMatch(/^Components: main$/m);
    expect(text).toMatch(/^Architectures: all$/m);
    expect(text).toMatch(/^Acquire-By-Hash: yes$/m);

    const signature = (await get(`${base}/Release.gpg`).expect(200)).body.toString();
    await expect(verifyDetached(alice.user.name, release, signature)).resolves.toBeUndefined();
    await expect(
      verifyDetached(alice.user.name, Buffer.from(text.replace('bookworm', 'bookwork')), signature),
    ).rejects.toThrow();

    const inRelease = (await get(`${base}/InRelease`).expect(200)).body.toString();
    const key = await openpgp.readKey({
      armoredKey: (await get(`${registry(alice.user.name)}/repository.key`).expect(200)).body.toString(),
    });
    const clear = await openpgp.verify({
      message: await openpgp.readCleartextMessage({ cleartextMessage: inRelease }),
      verificationKeys: key,
    });
    await clear.signatures[0].verified;
    expect(clear.data).toBe(text);

    const packages = (await get(`${base}/main/binary-all/Packages`).expect(200)).body as Buffer;
    const packagesGz = (await get(`${base}/main/binary-all/Packages.gz`).expect(200)).body as Buffer;
    expect(gunzipSync(packagesGz).equals(packages)).toBe(true);
    const listed = releaseSha256(text);
    expect(listed.get('main/binary-all/Packages')).toEqual([sha256(packages), packages.length]);
    expect(listed.get('main/binary-all/Packages.gz')).toEqual([sha256(packagesGz), packagesGz.length]);
    // Packages.xz, read back with xz-utils itself.
    const packagesXz = await get(`${base}/main/binary-all/Packages.xz`).expect(200);
    expect(packagesXz.headers['content-type']).toBe('application/x-xz');
    const xzBytes = packagesXz.body as Buffer;
    expect(execFileSync('xz', ['--decompress', '--stdout'], { input: xzBytes }).equals(packages)).toBe(true);
    expect(listed.get('main/binary-all/Packages.xz')).toEqual([sha256(xzBytes), xzBytes.length]);
    const stanza = packages.toString();
    expect(stanza).toContain(`Package: ${name}\nVersion: 1.2-1\nArchitecture: all\n`);
    expect(stanza).toContain('Depends: libc6 (>= 2.0), perl\n');
    expect(stanza).toContain(`Filename: pool/bookworm/main/${name}_1.2-1_all.deb\n`);
    expect(stanza).toContain(`SHA256: ${sha256(deb)}\n`);
    expect(stanza).toContain(`Size: ${deb.length}\n`);

    // apt's by-hash reads, with the strongest digest the Release names.
    const sha512 = createHash('sha512').update(packages).digest('hex');
    const byHash = await get(`${base}/main/binary-all/by-hash/SHA512/${sha512}`).expect(200);
    expect((byHash.body as Buffer).equals(packages)).toBe(true);
    await get(`${base}/main/binary-all/by-hash/SHA256/${'0'.repeat(64)}`).expect(404);

    const pool = await get(`${registry(alice.user.name)}/pool/bookworm/main/${name}_1.2-1_all.deb`).expect(200);
    expect((pool.body as Buffer).equals(deb)).toBe(true);
    expect(pool.headers.etag).toBe(`"${sha256(deb)}"`);
    await get(`${registry(alice.user.name)}/pool/trixie/main/${name}_1.2-1_all.deb`).expect(404);

    const key2 = await get(`${registry(alice.user.name)}/repository.key`).expect(200);
    expect(key2.body.toString()).toContain('-----BEGIN PGP PUBLIC KEY BLOCK-----');
  });

  it('reads control files compressed with gzip, zstd or not at all, and lists each architecture', async () => {
    const dist = uniqueName('dist');
    const names: string[] = [];
    for (const compression of ['gzip', 'zstd', 'none'] as const) {
      const name = uniqueName(`c${compression}`);
      names.push(name);
      await put(
        alice.user.name,
        alice.auth,
        dist,
        'main',
        buildDeb({ name, compression, architecture: 'amd64' }),
      ).expect(201);
    }
    const shared = uniqueName('shared');
    await put(alice.user.name, alice.auth, dist, 'contrib', buildDeb({ name: shared })).expect(201);
    await rebuild();
    const base = `${registry(alice.user.name)}/dists/${dist}`;
    const release = (await get(`${base}/Release`).expect(200)).body.toString();
    expect(release).toMatch(/^Architectures: all amd64$/m);
    expect(release).toMatch(/^Components: contrib main$/m);
    const amd64 = (await get(`${base}/main/binary-amd64/Packages`).expect(200)).body.toString();
    for (const name of names) expect(amd64).toContain(`Package: ${name}\n`);
    // An "all" package is listed under every architecture of its component.
    const contribAmd64 = (await get(`${base}/contrib/binary-amd64/Packages`).expect(200)).body.toString();
    expect(contribAmd64).toContain(`Package: ${shared}\n`);
    expect((await get(`${base}/contrib/binary-all/Packages`).expect(200)).body.toString()).toContain(shared);
  });

  it('refuses the same package twice in a distribution and component (409), and takes it in another', async () => {
    const name = uniqueName('dup');
    const deb = buildDeb({ name });
    await put(alice.user.name, alice.auth, 'stable', 'main', deb).expect(201);
    await put(alice.user.name, alice.auth, 'stable', 'main', deb).expect(409);
    await put(alice.user.name, alice.auth, 'testing', 'main', deb).expect(201);
    await put(alice.user.name, alice.auth, 'stable', 'extra', deb).expect(201);
  });
});

describe('hostile and malformed uploads', () => {
  async function refusedKeepingNothing(deb: Buffer, dist = 'stable'): Promise<string> {
    const blobs = blobFiles(t).length;
    const versions = await t.context.db.prisma.packageVersion.count();
    const res = await put(alice.user.name, alice.auth, dist, 'main', deb).expect(400);
    expect(blobFiles(t)).toHaveLength(blobs);
    expect(await t.context.db.prisma.packageVersion.count()).toBe(versions);
    return res.text;
  }

  it('refuses a file that is no .deb', async () => {
    expect(await refusedKeepingNothing(Buffer.from('not an archive at all'))).toMatch(/not a .deb/);
  });

  it('refuses invalid names, versions and distributions', async () => {
    await refusedKeepingNothing(Buffer.alloc(0));
    const withControl = async (control: string) =>
      arArchive([
        { name: 'debian-binary', data: Buffer.from('2.0\n') },
        { name: 'control.tar.gz', data: gzipSync(await tarOf('./control', Buffer.from(control))) },
      ]);
    const deb = await withControl('Package: UPPER\nVersion: 1\nArchitecture: all\n');
    expect(await refusedKeepingNothing(deb)).toMatch(/package name is invalid/);
    const spaced = await withControl('Package: fine\nVersion: 1.0 beta\nArchitecture: all\n');
    expect(await refusedKeepingNothing(spaced)).toMatch(/package version is invalid/);
    const traversal = buildDeb({ name: uniqueName('trav') });
    const res = await put(alice.user.name, alice.auth, '..', 'main', traversal);
    expect([400, 404]).toContain(res.status);
    await refusedKeepingNothing(traversal, '.hidden');
  });

  it('refuses a decompression bomb in the control member', async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const deb = arArchive([
      { name: 'debian-binary', data: Buffer.from('2.0\n') },
      { name: 'control.tar.gz', data: bomb },
    ]);
    expect(await refusedKeepingNothing(deb)).toMatch(/unpacks to more than/);
  });

  it('refuses huge metadata: a control member past what is read of the head', async () => {
    const deb = arArchive([
      { name: 'debian-binary', data: Buffer.from('2.0\n') },
      { name: 'control.tar', data: Buffer.alloc(5 * 1024 * 1024) },
    ]);
    expect(await refusedKeepingNothing(deb)).toMatch(/too large/);
  });
});

async function tarOf(name: string, data: Buffer): Promise<Buffer> {
  const tar = await import('tar-stream');
  const pack = tar.pack();
  pack.entry({ name, size: data.length }, data);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('delete', () => {
  it('drops a deleted .deb from the index, and the last one takes the distribution index with it', async () => {
    const dist = uniqueName('gone');
    const keep = uniqueName('keep');
    const drop = uniqueName('drop');
    await put(alice.user.name, alice.auth, dist, 'main', buildDeb({ name: keep })).expect(201);
    await put(alice.user.name, alice.auth, dist, 'main', buildDeb({ name: drop })).expect(201);
    await rebuild();
    const packagesUrl = `${registry(alice.user.name)}/dists/${dist}/main/binary-all/Packages`;
    expect((await get(packagesUrl).expect(200)).body.toString()).toContain(drop);

    await t
      .request()
      .delete(`${registry(alice.user.name)}/pool/${dist}/main/${drop}/1.0.0/all`)
      .set('Authorization', bob.auth)
      .expect(403);
    await t
      .request()
      .delete(`${registry(alice.user.name)}/pool/${dist}/main/${drop}/1.0.0/all`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .delete(`${registry(alice.user.name)}/pool/${dist}/main/${drop}/1.0.0/all`)
      .set('Authorization', alice.auth)
      .expect(404);
    await rebuild();
    const after = (await get(packagesUrl).expect(200)).body.toString();
    expect(after).not.toContain(drop);
    expect(after).toContain(keep);

    // The package API's delete rebuilds the index too.
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/debian/${keep}/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    await rebuild();
    await get(packagesUrl).expect(404);
    await get(`${registry(alice.user.name)}/dists/${dist}/Release`).expect(404);
  });

  it('keeps the version while another distribution still has its file', async () => {
    const name = uniqueName('two');
    const deb = buildDeb({ name });
    await put(alice.user.name, alice.auth, 'one', 'main', deb).expect(201);
    await put(alice.user.name, alice.auth, 'two', 'main', deb).expect(201);
    await t
      .request()
      .delete(`${registry(alice.user.name)}/pool/one/main/${name}/1.0.0/all`)
      .set('Authorization', alice.auth)
      .expect(204);
    await get(`${registry(alice.user.name)}/pool/two/main/${name}_1.0.0_all.deb`).expect(200);
    await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/debian/${name}/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(200);
  });
});

describe('access', () => {
  it('hides a private owner (404) from outsiders and anonymous callers', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    await put(org.name, alice.auth, 'stable', 'main', buildDeb({ name: uniqueName('secret') })).expect(201);
    await rebuild();
    await get(`${registry(org.name)}/dists/stable/Release`, alice.auth).expect(200);
    await get(`${registry(org.name)}/dists/stable/Release`, bob.auth).expect(404);
    await get(`${registry(org.name)}/dists/stable/Release`, null).expect(404);
    await get(`${registry(org.name)}/repository.key`, null).expect(404);
    await put(org.name, bob.auth, 'stable', 'main', buildDeb({ name: uniqueName('x') })).expect(404);
  });

  it('honours token scopes: read:package reads, write:package uploads', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const deb = buildDeb({ name: uniqueName('scoped') });
    await put(alice.user.name, `token ${reader}`, 'scoped', 'main', deb).expect(403);
    await put(alice.user.name, `token ${other}`, 'scoped', 'main', deb).expect(403);
    await put(alice.user.name, null, 'scoped', 'main', deb).expect(401);
    await put(alice.user.name, `token ${writer}`, 'scoped', 'main', deb).expect(201);
    await rebuild();
    await get(`${registry(alice.user.name)}/dists/scoped/Release`, `token ${reader}`).expect(200);
    await get(`${registry(alice.user.name)}/dists/scoped/Release`, `token ${other}`).expect(403);
  });

  it("refuses an upload past the owner's package quota (413), keeping nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 1000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const blobs = blobFiles(t).length;
    const deb = buildDeb({ name: uniqueName('big'), payload: randomBytes(50_000).toString('hex') });
    await put(owner.user.name, owner.auth, 'stable', 'main', deb).expect(413);
    expect(blobFiles(t)).toHaveLength(blobs);
    expect(
      await t.context.db.prisma.job.count({ where: { payload: { contains: `"ownerId":${owner.user.id},` } } }),
    ).toBe(0);
  });
});
