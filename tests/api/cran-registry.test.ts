// The CRAN registry under /api/packages/{owner}/cran as R reads it: source and binary uploads, PACKAGES and
// PACKAGES.gz per tree, downloads; refusals (a file twice, hostile packages, the size limit and the quota), access
// and token scopes, and the package API's view of what was uploaded.
import { randomBytes } from 'node:crypto';
import { crc32, gunzipSync, gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { blobFiles, digestsOf } from '../helpers/packages.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/cran`;

interface Entry {
  name: string;
  body?: Buffer;
}

async function tarGz(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => pack.on('end', resolve));
  for (const entry of entries) pack.entry({ name: entry.name }, entry.body ?? Buffer.alloc(0));
  pack.finalize();
  await done;
  return gzipSync(Buffer.concat(chunks));
}

/** A zip of stored (uncompressed) entries; `claimedSize` overstates an entry's unpacked size, as a bomb's does. */
function zipOf(entries: Entry[], claimedSize?: number): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const body = entry.body ?? Buffer.alloc(0);
    const name = Buffer.from(entry.name);
    const sizes = (header: Buffer, at: number) => {
      header.writeUInt32LE(crc32(body), at);
      header.writeUInt32LE(body.length, at + 4);
      header.writeUInt32LE(claimedSize ?? body.length, at + 8);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    sizes(local, 14);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    sizes(central, 16);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

function description(name: string, version: string, extra: string[] = []): Buffer {
  return Buffer.from(
    [
      `Package: ${name}`,
      `Version: ${version}`,
      'Title: A Probe',
      'Description: A probe for the registry,',
      '  on two lines.',
      'Depends: R (>= 3.5),',
      '    methods',
      'Imports: utils',
      'License: MIT',
      'NeedsCompilation: no',
      ...extra,
      '',
    ].join('\n'),
  );
}

const sourcePackage = (name: string, version: string, extra: Entry[] = []) =>
  tarGz([
    { name: `${name}/DESCRIPTION`, body: description(name, version) },
    { name: `${name}/R/code.R`, body: randomBytes(300) },
    ...extra,
  ]);

function put(owner: string, auth: string | null, body: Buffer, where = 'src') {
  const request = t
    .request()
    .put(`${registry(owner)}/${where}`)
    .set('Content-Type', 'application/octet-stream');
  if (auth) request.set('Authorization', auth);
  return request.send(body);
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

describe('upload and install', () => {
  it('lists the newest source version in PACKAGES and PACKAGES.gz and serves every version', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('probe').replace(/[^a-zA-Z0-9]/g, '');
    const old = await sourcePackage(name, '1.0.0');
    const newer = await sourcePackage(name, '1.10.0');
    await put(owner.user.name, owner.auth, old).expect(201);
    await put(owner.user.name, owner.auth, newer).expect(201);
    await put(owner.user.name, owner.auth, await sourcePackage(name, '1.9.0')).expect(201);

    const index = await t
      .request()
      .get(`${registry(owner.user.name)}/src/contrib/PACKAGES`)
      .expect(200);
    expect(index.headers['content-type']).toMatch(/^text\/plain/);
    expect(index.text).toBe(
      [
        `Package: ${name}`,
        'Version: 1.10.0',
        'Depends: R (>= 3.5), methods',
        'Imports: utils',
        'License: MIT',
        'NeedsCompilation: no',
        `MD5sum: ${digestsOf(newer).md5}`,
        '',
      ].join('\n'),
    );
    const gz = await raw(`${registry(owner.user.name)}/src/contrib/PACKAGES.gz`).expect(200);
    expect(gunzipSync(gz.body as Buffer).toString()).toBe(index.text);
    await t
      .request()
      .get(`${registry(owner.user.name)}/src/contrib/PACKAGES`)
      .set('If-None-Match', index.headers.etag)
      .expect(304);

    const file = await raw(`${registry(owner.user.name)}/src/contrib/${name}_1.0.0.tar.gz`).expect(200);
    expect(Buffer.compare(file.body as Buffer, old)).toBe(0);
    await raw(`${registry(owner.user.name)}/src/contrib/Archive/${name}/${name}_1.0.0.tar.gz`).expect(200);
    await raw(`${registry(owner.user.name)}/src/contrib/${name}_9.9.tar.gz`).expect(404);
    await raw(`${registry(owner.user.name)}/src/contrib/PACKAGES.rds`).expect(404);
  });

  it('keeps binary builds per platform and R version, as .zip or .tar.gz, apart from the sources', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('bin').replace(/[^a-zA-Z0-9]/g, '');
    const zip = zipOf([
      { name: `${name}/DESCRIPTION`, body: description(name, '2.0.0') },
      { name: `${name}/R/${name}`, body: randomBytes(100) },
    ]);
    await put(owner.user.name, owner.auth, zip, 'bin?platform=windows&rversion=4.3').expect(201);
    await put(
      owner.user.name,
      owner.auth,
      await sourcePackage(name, '2.0.0'),
      'bin?platform=linux&rversion=4.2',
    ).expect(201);
    await put(owner.user.name, owner.auth, await sourcePackage(name, '2.0.0')).expect(201);
    await put(owner.user.name, owner.auth, zip, 'bin?platform=windows&rversion=4.3').expect(409);

    const windows = await t
      .request()
      .get(`${registry(owner.user.name)}/bin/windows/contrib/4.3/PACKAGES`)
      .expect(200);
    expect(windows.text).toContain(`MD5sum: ${digestsOf(zip).md5}`);
    const file = await raw(`${registry(owner.user.name)}/bin/windows/contrib/4.3/${name}_2.0.0.zip`).expect(200);
    expect(Buffer.compare(file.body as Buffer, zip)).toBe(0);
    await raw(`${registry(owner.user.name)}/bin/linux/contrib/4.2/${name}_2.0.0.tar.gz`).expect(200);
    await raw(`${registry(owner.user.name)}/bin/linux/contrib/4.3/${name}_2.0.0.tar.gz`).expect(404);
    await t
      .request()
      .get(`${registry(owner.user.name)}/bin/macosx/contrib/4.3/PACKAGES`)
      .expect(404);
    const files = await t
      .request()
      .get(`/api/v1/packages/${owner.user.name}/cran/${name}/2.0.0/files`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(files.body).toHaveLength(3);
  });
});

describe('refusals', () => {
  it.each([
    ['no platform', 'bin?rversion=4.3'],
    ['a malformed R version', 'bin?platform=windows&rversion=latest'],
  ])('refuses a binary upload with %s (400)', async (_label, where) => {
    await put(alice.user.name, alice.auth, await sourcePackage('fine', '1.0'), where).expect(400);
  });

  it.each([
    ['neither a tar.gz nor a zip', async () => randomBytes(2000)],
    ['no DESCRIPTION', () => tarGz([{ name: 'pkg/R/code.R', body: Buffer.from('x') }])],
    ['an invalid name', () => tarGz([{ name: 'x/DESCRIPTION', body: description('9bad', '1.0') }])],
    ['an invalid version', () => tarGz([{ name: 'x/DESCRIPTION', body: description('good', 'one') }])],
    [
      '10 MB of DESCRIPTION',
      () => tarGz([{ name: 'x/DESCRIPTION', body: description('big', '1.0', [`Note: ${'a'.repeat(10e6)}`]) }]),
    ],
    [
      'a path outside the package',
      () => sourcePackage('evil', '1.0', [{ name: '../../etc/evil', body: Buffer.from('x') }]),
    ],
    [
      'a decompression bomb',
      () => sourcePackage('bomb', '1.0', [{ name: 'bomb/data/zeros', body: Buffer.alloc(80 * 1024 * 1024) }]),
    ],
    [
      'a zip with a path outside it',
      async () => zipOf([{ name: '../evil/DESCRIPTION', body: description('evil', '1.0') }]),
    ],
    ['a zip bomb', async () => zipOf([{ name: 'bomb/DESCRIPTION', body: description('bomb', '1.0') }], 0xffffffff)],
  ])('refuses %s with 400 and keeps nothing', async (_label, make) => {
    const owner = await createTestUser(t);
    const before = blobFiles(t);
    const res = await put(owner.user.name, owner.auth, await make()).expect(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });

  it('refuses a package past [packages] LIMIT_SIZE_CRAN (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_CRAN: '1000' });
    try {
      const carol = await createTestUser(limited);
      await limited
        .request()
        .put(`${registry(carol.user.name)}/src`)
        .set('Authorization', carol.auth)
        .send(await sourcePackage('big', '1.0', [{ name: 'big/data', body: randomBytes(5000) }]))
        .expect(413);
      expect(await limited.context.db.prisma.package.count({ where: { ownerId: carol.user.id } })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it("refuses a package past the owner's package quota while streaming (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const group = await t.context.services.quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await t.context.services.quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t);
    const big = await sourcePackage('big', '1.0', [{ name: 'big/data', body: randomBytes(200_000) }]);
    await put(owner.user.name, owner.auth, big).expect(413);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});

describe('access', () => {
  it('asks an anonymous uploader to sign in (401), and refuses an upload to another user (403)', async () => {
    await put(alice.user.name, null, await sourcePackage('anon', '1.0')).expect(401);
    await put(alice.user.name, bob.auth, await sourcePackage('theirs', '1.0')).expect(403);
  });

  it('hides a private owner from outsiders and anonymous clients (404) and serves its members', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    await put(org.name, alice.auth, await sourcePackage('secret', '1.0.0')).expect(201);
    const index = `${registry(org.name)}/src/contrib/PACKAGES`;
    await t.request().get(index).expect(404);
    await t.request().get(index).set('Authorization', bob.auth).expect(404);
    await put(org.name, bob.auth, await sourcePackage('secret', '2.0.0')).expect(404);
    const seen = await t.request().get(index).set('Authorization', alice.auth).expect(200);
    expect(seen.text).toContain('Package: secret');
  });

  it('honours token scopes: read:package reads, write:package uploads, other scopes do neither', async () => {
    const owner = await createTestUser(t);
    await put(owner.user.name, owner.auth, await sourcePackage('scoped', '1.0')).expect(201);
    const reader = await createToken(t, owner.user, 'read:package');
    const writer = await createToken(t, owner.user, 'write:package');
    const other = await createToken(t, owner.user, 'read:repository');
    const index = `${registry(owner.user.name)}/src/contrib/PACKAGES`;
    await t.request().get(index).set('Authorization', `token ${reader}`).expect(200);
    await put(owner.user.name, `token ${reader}`, await sourcePackage('scoped', '2.0')).expect(403);
    await put(owner.user.name, `token ${writer}`, await sourcePackage('scoped', '2.0')).expect(201);
    await t.request().get(index).set('Authorization', `token ${other}`).expect(403);
  });
});

describe('the package API', () => {
  it('lists the versions with type cran, and a deleted version leaves PACKAGES', async () => {
    const owner = await createTestUser(t);
    await put(owner.user.name, owner.auth, await sourcePackage('listed', '1.0.0')).expect(201);
    await put(owner.user.name, owner.auth, await sourcePackage('listed', '2.0.0')).expect(201);
    const list = await t
      .request()
      .get(`/api/v1/packages/${owner.user.name}?type=cran`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(list.body.map((item: { version: string }) => item.version).sort()).toEqual(['1.0.0', '2.0.0']);
    expect(list.body[0]).toMatchObject({ type: 'cran', name: 'listed' });
    await t
      .request()
      .delete(`/api/v1/packages/${owner.user.name}/cran/listed/2.0.0`)
      .set('Authorization', owner.auth)
      .expect(204);
    const index = await t
      .request()
      .get(`${registry(owner.user.name)}/src/contrib/PACKAGES`)
      .expect(200);
    expect(index.text).toContain('Version: 1.0.0');
    await raw(`${registry(owner.user.name)}/src/contrib/listed_2.0.0.tar.gz`).expect(404);
  });
});
