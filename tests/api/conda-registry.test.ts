// The Conda registry under /api/packages/{owner}/conda, following what conda reads: PUT of .tar.bz2 and .conda
// archives (metadata from info/index.json), {channel}/{subdir}/repodata.json (and current_repodata.json) with every
// field conda's solver reads, channeldata.json, downloads checked against the listed digests, Forgejo's
// `{reason, message}` errors, hostile archives refused keeping nothing, access, scopes, quota and the package API.
import { createHash } from 'node:crypto';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { condaTarBz2, condaV2, type CondaPackageSpec, indexJsonOf } from '../helpers/conda.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/conda`;
const condaName = () => uniqueName('pkg').toLowerCase();

function put(owner: string, auth: string | null, path: string, bytes: Buffer) {
  const request = t.request().put(`${registry(owner)}/${path}`);
  if (auth) request.set('Authorization', auth);
  return request.set('Content-Type', 'application/octet-stream').send(bytes);
}

function get(owner: string, path: string, auth?: string) {
  const request = t.request().get(`${registry(owner)}/${path}`);
  if (auth) request.set('Authorization', auth);
  return request;
}

/** A download as conda makes it, read as bytes whatever its type. */
function download(owner: string, path: string) {
  return get(owner, path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

describe('publish and install', () => {
  it("lists .tar.bz2 and .conda uploads in their subdir's repodata.json with what conda reads, and serves them", async () => {
    const owner = alice.user.name;
    const name = condaName();
    const spec: CondaPackageSpec = { name, version: '1.2.0', depends: ['python >=3.9', 'numpy'] };
    const bz2 = await condaTarBz2(spec);
    const conda = await condaV2({ ...spec, version: '1.3.0' });
    await put(owner, alice.auth, `main/${name}-1.2.0-h0_0.tar.bz2`, bz2).expect(201);
    await put(owner, alice.auth, `main/upload.conda`, conda).expect(201);

    for (const document of ['repodata.json', 'current_repodata.json']) {
      const res = await get(owner, `main/linux-64/${document}`).expect(200).expect('Content-Type', /json/);
      expect(res.body.info).toEqual({ subdir: 'linux-64' });
      expect(res.body.removed).toEqual([]);
      expect(res.body.packages).toEqual({
        [`${name}-1.2.0-h0_0.tar.bz2`]: {
          name,
          version: '1.2.0',
          build: 'h0_0',
          build_number: 0,
          depends: ['python >=3.9', 'numpy'],
          license: 'MIT',
          license_family: 'MIT',
          subdir: 'linux-64',
          timestamp: 1700000000123,
          md5: md5(bz2),
          sha256: sha256(bz2),
          size: bz2.length,
        },
      });
      expect(res.body['packages.conda']).toEqual({
        [`${name}-1.3.0-h0_0.conda`]: expect.objectContaining({
          name,
          version: '1.3.0',
          sha256: sha256(conda),
          md5: md5(conda),
          size: conda.length,
          subdir: 'linux-64',
        }),
      });
    }

    // conda downloads each file from beside the repodata.json that lists it, and checks its digests.
    const bz2Download = await download(owner, `main/linux-64/${name}-1.2.0-h0_0.tar.bz2`).expect(200);
    expect(sha256(bz2Download.body as Buffer)).toBe(sha256(bz2));
    const condaDownload = await download(owner, `main/linux-64/${name}-1.3.0-h0_0.conda`).expect(200);
    expect(sha256(condaDownload.body as Buffer)).toBe(sha256(conda));
    await t
      .request()
      .head(`${registry(owner)}/main/linux-64/${name}-1.3.0-h0_0.conda`)
      .expect(200);
    // Another subdir or channel does not have it.
    await get(owner, `main/osx-64/${name}-1.3.0-h0_0.conda`).expect(404);
    await get(owner, `other/linux-64/${name}-1.3.0-h0_0.conda`).expect(404);
    await get(owner, `linux-64/${name}-1.3.0-h0_0.conda`).expect(404);
  });

  it('answers noarch/repodata.json of a channel with files elsewhere (conda asks for it), and 404 for no channel', async () => {
    const owner = alice.user.name;
    const channel = uniqueName('chan');
    await put(owner, alice.auth, `${channel}/x.tar.bz2`, await condaTarBz2({ name: condaName(), version: '1' })).expect(
      201,
    );
    const noarch = await get(owner, `${channel}/noarch/repodata.json`).expect(200);
    expect(noarch.body).toMatchObject({ info: { subdir: 'noarch' }, packages: {}, 'packages.conda': {} });
    const missing = await get(owner, `${uniqueName('none')}/noarch/repodata.json`).expect(404);
    expect(missing.body).toEqual({ reason: 'Not Found', message: expect.any(String) });
    await get(owner, `${channel}/linux-64/repodata.json.bz2`).expect(404);
  });

  it('serves noarch packages and the default channel (no channel path), with ETag revalidation', async () => {
    const owner = alice.user.name;
    const name = condaName();
    const bytes = await condaV2({ name, version: '0.1', subdir: 'noarch', noarch: 'python', build: 'py_0' });
    await put(owner, alice.auth, `${name}.conda`, bytes).expect(201);
    const first = await get(owner, 'noarch/repodata.json').expect(200);
    expect(first.body['packages.conda'][`${name}-0.1-py_0.conda`]).toMatchObject({
      noarch: 'python',
      subdir: 'noarch',
    });
    await t
      .request()
      .get(`${registry(owner)}/noarch/repodata.json`)
      .set('If-None-Match', first.headers.etag!)
      .expect(304);
    await get(owner, `noarch/${name}-0.1-py_0.conda`).expect(200);
  });

  it('describes each package of the channel in channeldata.json', async () => {
    const owner = alice.user.name;
    const channel = uniqueName('cd');
    const name = condaName();
    await put(owner, alice.auth, `${channel}/a.tar.bz2`, await condaTarBz2({ name, version: '1.0' })).expect(201);
    await put(
      owner,
      alice.auth,
      `${channel}/b.conda`,
      await condaV2({ name, version: '2.0', subdir: 'osx-arm64' }),
    ).expect(201);
    const res = await get(owner, `${channel}/channeldata.json`).expect(200);
    expect(res.body).toEqual({
      channeldata_version: 1,
      packages: {
        [name]: {
          version: '2.0',
          subdirs: ['linux-64', 'osx-arm64'],
          summary: `${name} summary`,
          description: 'A test package',
          home: 'https://example.com/home',
          license: 'MIT',
          license_family: 'MIT',
          timestamp: 1700000000123,
        },
      },
      subdirs: ['linux-64', 'osx-arm64'],
    });
  });

  it("refuses the same file again (409) in Forgejo's {reason, message} form, and a non-package name (400)", async () => {
    const owner = alice.user.name;
    const bytes = await condaTarBz2({ name: condaName(), version: '1.0' });
    await put(owner, alice.auth, 'dup/p.tar.bz2', bytes).expect(201);
    const again = await put(owner, alice.auth, 'dup/p.tar.bz2', bytes).expect(409);
    expect(again.body).toEqual({ reason: 'Conflict', message: expect.any(String) });
    const wrong = await put(owner, alice.auth, 'dup/p.zip', bytes).expect(400);
    expect(wrong.body).toEqual({ reason: 'Bad Request', message: expect.any(String) });
  });
});

describe('hostile and malformed uploads answer 400 and keep nothing', () => {
  const cases: [string, () => Promise<{ path: string; bytes: Buffer }>][] = [
    ['bytes that are no archive', async () => ({ path: 'bad/x.tar.bz2', bytes: Buffer.from('not bzip2 at all') })],
    ['a zip that is not a .conda', async () => ({ path: 'bad/x.conda', bytes: Buffer.from('PK\u0003\u0004broken') })],
    [
      'an entry escaping the archive',
      async () => ({
        path: 'bad/x.tar.bz2',
        bytes: await condaTarBz2({
          name: condaName(),
          version: '1',
          infoEntries: [{ name: '../../etc/evil', body: 'x' }],
        }),
      }),
    ],
    [
      'a zstd bomb in the info part of a .conda',
      async () => ({
        path: 'bad/x.conda',
        bytes: await condaV2({
          name: condaName(),
          version: '1',
          infoEntries: [{ name: 'info/bomb', body: Buffer.alloc(80 * 1024 * 1024) }],
        }),
      }),
    ],
    [
      '2 MB of metadata',
      async () => ({
        path: 'bad/x.tar.bz2',
        bytes: await condaTarBz2({
          name: condaName(),
          version: '1',
          indexJson: JSON.stringify({ ...JSON.parse(indexJsonOf({ name: 'a', version: '1' })), x: 'y'.repeat(2e6) }),
        }),
      }),
    ],
    [
      'an upper-case name',
      async () => ({ path: 'bad/x.conda', bytes: await condaV2({ name: 'UpperCase', version: '1' }) }),
    ],
    [
      'a version with a dash',
      async () => ({ path: 'bad/x.conda', bytes: await condaV2({ name: condaName(), version: '1-2' }) }),
    ],
    [
      'no info/index.json',
      async () => ({
        path: 'bad/x.tar.bz2',
        bytes: await condaTarBz2({ name: condaName(), version: '1', indexJson: 'not json' }),
      }),
    ],
  ];

  it.each(cases)(
    '%s',
    async (_label, make) => {
      const { path, bytes } = await make();
      const before = blobFiles(t).length;
      const res = await put(alice.user.name, alice.auth, path, bytes).expect(400);
      expect(res.body).toEqual({ reason: 'Bad Request', message: expect.any(String) });
      expect(blobFiles(t)).toHaveLength(before);
      await get(alice.user.name, 'bad/channeldata.json').expect(404);
    },
    180_000,
  );
});

describe('who may see and change packages', () => {
  it('challenges an anonymous upload (401) and refuses an upload to another owner (403)', async () => {
    const bytes = await condaTarBz2({ name: condaName(), version: '1' });
    const anonymous = await put(alice.user.name, null, 'c/x.tar.bz2', bytes).expect(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
    await put(alice.user.name, bob.auth, 'c/x.tar.bz2', bytes).expect(403);
  });

  it('hides a private owner (404) from outsiders and anonymous callers', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const name = condaName();
    await put(org.name, alice.auth, `${name}.tar.bz2`, await condaTarBz2({ name, version: '1' })).expect(201);
    await get(org.name, 'linux-64/repodata.json', alice.auth).expect(200);
    for (const auth of [bob.auth, undefined]) {
      await get(org.name, 'linux-64/repodata.json', auth).expect(404);
      await get(org.name, `linux-64/${name}-1-h0_0.tar.bz2`, auth).expect(404);
    }
    await put(org.name, bob.auth, 'x.tar.bz2', await condaTarBz2({ name: condaName(), version: '1' })).expect(404);
  });

  it('honours token scopes: write:package uploads, read:package reads only, other scopes neither', async () => {
    const owner = alice.user.name;
    const [write, read, other] = await Promise.all(
      ['write:package', 'read:package', 'write:repository'].map((scope) => createToken(t, alice.user, scope)),
    );
    const channel = uniqueName('scoped');
    const bytes = await condaTarBz2({ name: condaName(), version: '1' });
    await put(owner, `token ${read}`, `${channel}/x.tar.bz2`, bytes).expect(403);
    await put(owner, `token ${other}`, `${channel}/x.tar.bz2`, bytes).expect(403);
    await put(owner, `token ${write}`, `${channel}/x.tar.bz2`, bytes).expect(201);
    await get(owner, `${channel}/linux-64/repodata.json`, `token ${read}`).expect(200);
    await get(owner, `${channel}/linux-64/repodata.json`, `token ${other}`).expect(403);
  });

  it("refuses an upload past the owner's package quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const { randomBytes } = await import('node:crypto');
    const bytes = await condaTarBz2({ name: condaName(), version: '1', payload: randomBytes(300_000) });
    const before = blobFiles(t).length;
    const res = await put(owner.user.name, owner.auth, 'q/x.tar.bz2', bytes).expect(413);
    expect(res.body).toEqual({ reason: 'Payload Too Large', message: expect.any(String) });
    expect(blobFiles(t)).toHaveLength(before);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
    await get(owner.user.name, 'q/channeldata.json', owner.auth).expect(404);
  });
});

describe('the package API', () => {
  it('lists an upload under type=conda and deletes it, which drops it from repodata.json', async () => {
    const owner = alice.user.name;
    const name = condaName();
    const channel = uniqueName('api');
    await put(owner, alice.auth, `${channel}/a.tar.bz2`, await condaTarBz2({ name, version: '3.1' })).expect(201);
    await put(owner, alice.auth, `${channel}/b.tar.bz2`, await condaTarBz2({ name, version: '3.2' })).expect(201);
    const fullName = `${channel}/${name}`;
    const list = await t
      .request()
      .get(`/api/v1/packages/${owner}?type=conda&q=${encodeURIComponent(name)}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((pkg: { name: string; version: string }) => [pkg.name, pkg.version]).sort()).toEqual([
      [fullName, '3.1'],
      [fullName, '3.2'],
    ]);
    const files = await t
      .request()
      .get(`/api/v1/packages/${owner}/conda/${encodeURIComponent(fullName)}/3.1/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body.map((file: { name: string }) => file.name)).toEqual([`${name}-3.1-h0_0.tar.bz2`]);
    await t
      .request()
      .delete(`/api/v1/packages/${owner}/conda/${encodeURIComponent(fullName)}/3.1`)
      .set('Authorization', alice.auth)
      .expect(204);
    const repodata = await get(owner, `${channel}/linux-64/repodata.json`).expect(200);
    expect(Object.keys(repodata.body.packages)).toEqual([`${name}-3.2-h0_0.tar.bz2`]);
    await get(owner, `${channel}/linux-64/${name}-3.1-h0_0.tar.bz2`).expect(404);
  });
});

describe('a large channel', () => {
  it('lists 1,200 files in one repodata.json', async () => {
    const owner = await createTestUser(t);
    const { prisma } = t.context.db;
    const pkg = await prisma.package.create({
      data: { ownerId: owner.user.id, type: 'conda', name: 'big/seeded', lowerName: 'big/seeded' },
    });
    const count = Array.from({ length: 1200 }, (_, i) => i);
    const versions = await prisma.packageVersion.createManyAndReturn({
      data: count.map((i) => ({
        packageId: pkg.id,
        version: `1.${i}`,
        lowerVersion: `1.${i}`,
        metadataJson: '{"license":"MIT"}',
      })),
    });
    const blobs = await prisma.packageBlob.createManyAndReturn({
      data: count.map((i) => {
        const hash = createHash('sha256').update(`seeded ${owner.user.id} ${i}`).digest('hex');
        return {
          size: 10,
          hashMd5: hash.slice(0, 32),
          hashSha1: hash.slice(0, 40),
          hashSha256: hash,
          hashSha512: hash,
        };
      }),
    });
    const files = await prisma.packageFile.createManyAndReturn({
      data: versions.map((version, i) => ({
        versionId: version.id,
        blobId: blobs[i]!.id,
        name: `seeded-${version.version}-h0_0.tar.bz2`,
        lowerName: `seeded-${version.version}-h0_0.tar.bz2`,
        compositeKey: 'linux-64',
      })),
    });
    await prisma.packageProperty.createMany({
      data: files.map((file) => ({
        refType: 1,
        refId: file.id,
        name: 'conda.metadata',
        value: '{"is_conda":false,"build":"h0_0","build_number":0,"depends":[]}',
      })),
    });
    const res = await get(owner.user.name, 'big/linux-64/repodata.json').expect(200);
    expect(Object.keys(res.body.packages)).toHaveLength(1200);
  });
});
