// The Conan registry under /api/packages/{owner}/conan through the whole app, following the requests of
// `conan upload` and `conan install`: v2 with revisions (ping, the token exchange, revisions, latest, files per
// revision, packages and their revisions) and v1 (snapshots, upload and download addresses, v1/files); recipe and
// package search, deletes of revisions and packages; refusals of hostile files (400, nothing kept), size and quota
// (413); access and token scopes; the package API's view, and its delete seen by the registry.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import tar from 'tar-stream';
import {
  addTestOrgMember,
  basicAuth,
  createTestOrg,
  createTestUser,
  createToken,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { blobFiles } from '../helpers/packages.ts';
import { tarGz } from '../helpers/tar-gz.ts';
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

const ROOT = 'http://localhost:3000';
const registry = (owner: string) => `/api/packages/${owner}/conan`;
const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

interface Recipe {
  name: string;
  version: string;
  user: string;
  channel: string;
}

const refPath = (r: Recipe) => `${r.name}/${r.version}/${r.user || '_'}/${r.channel || '_'}`;
const v2 = (owner: string, r: Recipe, rest = '') => `${registry(owner)}/v2/conans/${refPath(r)}${rest}`;

const conanfile = (name: string) =>
  Buffer.from(
    [
      'from conan import ConanFile',
      '',
      `class Pkg(ConanFile):`,
      `    name = "${name}"`,
      '    author = "Alice Example <alice@example.com>"',
      '    license = "MIT"',
      '    homepage = "https://example.com/pkg"',
      '    url = "https://example.com/pkg.git"',
      '    description = "A test package"',
      '    topics = ("testing", "conan")',
      '    settings = "os", "arch"',
      '',
    ].join('\n'),
  );
const CONANINFO = Buffer.from('[settings]\n    arch=x86_64\n    os=Linux\n[options]\n    shared=False\n[requires]\n');

async function recipeFiles(name: string): Promise<Record<string, Buffer>> {
  return {
    'conanfile.py': conanfile(name),
    'conan_export.tgz': await tarGz({ 'conandata.yml': 'sources: {}\n' }),
    'conanmanifest.txt': Buffer.from('1700000000\nconanfile.py: 0123456789abcdef0123456789abcdef\n'),
  };
}

async function packageFiles(): Promise<Record<string, Buffer>> {
  return {
    'conaninfo.txt': CONANINFO,
    'conan_package.tgz': await tarGz({ 'include/pkg.h': '#pragma once\n', 'lib/libpkg.a': 'archive' }),
    'conanmanifest.txt': Buffer.from('1700000000\ninclude/pkg.h: 0123456789abcdef0123456789abcdef\n'),
  };
}

function put(url: string, auth: string | null, bytes: Buffer) {
  const request = t
    .request()
    .put(url)
    .set('Content-Type', 'application/octet-stream')
    .set('X-Checksum-Sha1', sha1(bytes));
  if (auth) request.set('Authorization', auth);
  return request.send(bytes);
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

/** `conan remote login`: the token of users/authenticate, sent as Bearer after. */
async function login(owner: string, user: TestUser, api: 'v1' | 'v2' = 'v2'): Promise<string> {
  const res = await t
    .request()
    .get(`${registry(owner)}/${api}/users/authenticate`)
    .set('Authorization', basicAuth(user.user.name, user.password))
    .expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain/);
  return `Bearer ${res.text}`;
}

/** `conan upload` (v2): the recipe revision's files, then the package revision's. */
async function uploadV2(owner: string, auth: string, r: Recipe, rrev: string, pkgid: string, prev: string) {
  const recipe = await recipeFiles(r.name);
  for (const [file, bytes] of Object.entries(recipe))
    await put(v2(owner, r, `/revisions/${rrev}/files/${file}`), auth, bytes).expect(201);
  const binary = await packageFiles();
  for (const [file, bytes] of Object.entries(binary))
    await put(v2(owner, r, `/revisions/${rrev}/packages/${pkgid}/revisions/${prev}/files/${file}`), auth, bytes).expect(
      201,
    );
  return { recipe, binary };
}

const newRecipe = (user = 'demo', channel = 'stable'): Recipe => ({
  name: uniqueName('pkg'),
  version: '1.0.0',
  user,
  channel,
});

describe('the v2 API (revisions), as conan 2 uploads and installs', () => {
  it('pings with the revisions capability and exchanges basic credentials for a token', async () => {
    const res = await t
      .request()
      .get(`${registry(alice.user.name)}/v1/ping`)
      .expect(200);
    expect(res.headers['x-conan-server-capabilities']).toBe('revisions');
    const auth = await login(alice.user.name, alice);
    await t
      .request()
      .get(`${registry(alice.user.name)}/v2/users/check_credentials`)
      .set('Authorization', auth)
      .expect(200);
    await t
      .request()
      .get(`${registry(alice.user.name)}/v2/users/check_credentials`)
      .expect(401);
    await t
      .request()
      .get(`${registry(alice.user.name)}/v2/users/authenticate`)
      .set('Authorization', basicAuth(alice.user.name, 'wrong'))
      .expect(401);
  });

  it('uploads a recipe and a package revision, then serves every field conan install reads', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice);
    const r = newRecipe();
    await t
      .request()
      .get(v2(owner, r, '/revisions'))
      .set('Authorization', auth)
      .expect(404);
    const { recipe, binary } = await uploadV2(owner, auth, r, 'rrev1', 'pkgid1', 'prev1');

    const latest = await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', auth)
      .expect(200);
    expect(latest.headers['content-type']).toBe('application/json');
    expect(latest.body).toEqual({
      revision: 'rrev1',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
    });
    const revisions = await t
      .request()
      .get(v2(owner, r, '/revisions'))
      .set('Authorization', auth)
      .expect(200);
    expect(revisions.body).toEqual({ revisions: [latest.body] });

    const files = await t
      .request()
      .get(v2(owner, r, '/revisions/rrev1/files'))
      .set('Authorization', auth)
      .expect(200);
    expect(files.body).toEqual({ files: { 'conanfile.py': {}, 'conan_export.tgz': {}, 'conanmanifest.txt': {} } });
    for (const [file, bytes] of Object.entries(recipe)) {
      const got = await raw(v2(owner, r, `/revisions/rrev1/files/${file}`), auth).expect(200);
      expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    }

    const search = await t
      .request()
      .get(v2(owner, r, '/revisions/rrev1/search'))
      .set('Authorization', auth)
      .expect(200);
    expect(search.body).toEqual({
      pkgid1: expect.objectContaining({
        settings: { arch: 'x86_64', os: 'Linux' },
        options: { shared: 'False' },
        requires: [],
      }),
    });
    await t
      .request()
      .get(v2(owner, r, '/search'))
      .set('Authorization', auth)
      .expect(200, search.body);

    const pkg = v2(owner, r, '/revisions/rrev1/packages/pkgid1');
    const pkgLatest = await t.request().get(`${pkg}/latest`).set('Authorization', auth).expect(200);
    expect(pkgLatest.body).toEqual({ revision: 'prev1', time: expect.any(String) });
    const pkgRevisions = await t.request().get(`${pkg}/revisions`).set('Authorization', auth).expect(200);
    expect(pkgRevisions.body).toEqual({ revisions: [pkgLatest.body] });
    const pkgFiles = await t.request().get(`${pkg}/revisions/prev1/files`).set('Authorization', auth).expect(200);
    expect(Object.keys(pkgFiles.body.files).sort()).toEqual([
      'conan_package.tgz',
      'conaninfo.txt',
      'conanmanifest.txt',
    ]);
    for (const [file, bytes] of Object.entries(binary)) {
      const got = await raw(`${pkg}/revisions/prev1/files/${file}`, auth).expect(200);
      expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    }
    await t.request().get(`${pkg}/revisions/other/files`).set('Authorization', auth).expect(404);
    await t
      .request()
      .get(v2(owner, r, '/revisions/rrev1/packages/nopkg/latest'))
      .set('Authorization', auth)
      .expect(404);
  });

  it('lists revisions newest first, keeps revisions apart, and deletes a revision, a package and a recipe', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice);
    const r = newRecipe('_', '_');
    r.user = '';
    r.channel = '';
    await uploadV2(owner, auth, r, 'aaa1', 'p1', 'x1');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    await uploadV2(owner, auth, r, 'bbb2', 'p1', 'y1');
    await put(v2(owner, r, '/revisions/bbb2/packages/p2/revisions/z1/files/conaninfo.txt'), auth, CONANINFO).expect(
      201,
    );

    const revisions = await t
      .request()
      .get(v2(owner, r, '/revisions'))
      .set('Authorization', auth)
      .expect(200);
    expect(revisions.body.revisions.map((entry: { revision: string }) => entry.revision)).toEqual(['bbb2', 'aaa1']);
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', auth)
      .expect(200, { revision: 'bbb2', time: revisions.body.revisions[0].time });
    const search = await t
      .request()
      .get(v2(owner, r, '/search'))
      .set('Authorization', auth)
      .expect(200);
    expect(Object.keys(search.body).sort()).toEqual(['p1', 'p2']);

    await t
      .request()
      .delete(v2(owner, r, '/revisions/bbb2/packages/p2'))
      .set('Authorization', auth)
      .expect(200);
    await t
      .request()
      .get(v2(owner, r, '/revisions/bbb2/packages/p2/latest'))
      .set('Authorization', auth)
      .expect(404);
    await t
      .request()
      .delete(v2(owner, r, '/revisions/bbb2/packages/p1/revisions/y1'))
      .set('Authorization', auth)
      .expect(200);
    await t
      .request()
      .delete(v2(owner, r, '/revisions/bbb2/packages/p1/revisions/y1'))
      .set('Authorization', auth)
      .expect(404);
    await t
      .request()
      .delete(v2(owner, r, '/revisions/bbb2'))
      .set('Authorization', auth)
      .expect(200);
    const left = await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', auth)
      .expect(200);
    expect(left.body.revision).toBe('aaa1');
    await t.request().delete(v2(owner, r)).set('Authorization', auth).expect(200);
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', auth)
      .expect(404);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: r.name } })).toBe(0);
  });

  it('replaces a file uploaded again, ignores the empty checksum probe, refuses a wrong X-Checksum-Sha1', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice);
    const r = newRecipe();
    const url = v2(owner, r, '/revisions/r1/files/conanmanifest.txt');
    await t.request().put(url).set('Authorization', auth).send('').expect(200);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: r.name } })).toBe(0);
    await put(url, auth, Buffer.from('first\n')).expect(201);
    await put(url, auth, Buffer.from('second\n')).expect(201);
    const got = await raw(url, auth).expect(200);
    expect((got.body as Buffer).toString()).toBe('second\n');
    await t
      .request()
      .put(url)
      .set('Authorization', auth)
      .set('X-Checksum-Sha1', sha1(Buffer.from('other')))
      .send(Buffer.from('third\n'))
      .expect(400);
    await t
      .request()
      .put(v2(owner, r, '/revisions/r1/files/evil.sh'))
      .set('Authorization', auth)
      .send('x')
      .expect(400);
    await t
      .request()
      .get(v2('x', { ...r, name: 'a' }, '/latest'))
      .set('Authorization', auth)
      .expect(404);
    const bad = await t
      .request()
      .get(`${registry(owner)}/v2/conans/a/1.0/demo/_/latest`)
      .set('Authorization', auth)
      .expect(400);
    expect(bad.body).toEqual({ message: expect.any(String) });
  });

  it('keeps the conanfile metadata on the version and finds recipes with conan search', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice);
    const r = newRecipe('team', 'testing');
    await uploadV2(owner, auth, r, 'r1', 'p1', 'q1');
    const version = await t.context.db.prisma.packageVersion.findFirstOrThrow({
      where: { package: { lowerName: r.name } },
    });
    expect(JSON.parse(version.metadataJson)).toEqual({
      author: 'Alice Example <alice@example.com>',
      license: 'MIT',
      project_url: 'https://example.com/pkg',
      repository_url: 'https://example.com/pkg.git',
      description: 'A test package',
      keywords: ['testing', 'conan'],
    });
    const search = (q: string) =>
      t
        .request()
        .get(`${registry(owner)}/v2/conans/search`)
        .query({ q })
        .set('Authorization', auth)
        .expect(200);
    expect((await search(r.name)).body).toEqual({ results: [`${r.name}/1.0.0@team/testing`] });
    expect((await search(`${r.name.slice(0, 5)}*/1.*@team/*`)).body.results).toEqual([`${r.name}/1.0.0@team/testing`]);
    expect((await search(`${r.name}/2.*`)).body.results).toEqual([]);
    expect((await search(`${r.name}@other/*`)).body.results).toEqual([]);
  });
});

describe('the v1 API, as conan 1 uploads and installs without revisions', () => {
  it('hands out upload addresses, takes the files there, and serves snapshots, download addresses and search', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice, 'v1');
    const r = newRecipe();
    const base = `${registry(owner)}/v1/conans/${refPath(r)}`;
    await t.request().get(base).set('Authorization', auth).expect(404);
    const recipe = await recipeFiles(r.name);
    const sizes = Object.fromEntries(
      [...Object.entries(recipe), ['junk.txt', Buffer.from('x')]].map(([k, v]) => [k, (v as Buffer).length]),
    );
    const urls = await t.request().post(`${base}/upload_urls`).set('Authorization', auth).send(sizes).expect(200);
    const filesBase = `${ROOT}${registry(owner)}/v1/files/${refPath(r)}/0`;
    expect(urls.body).toEqual(
      Object.fromEntries(Object.keys(recipe).map((file) => [file, `${filesBase}/recipe/${file}`])),
    );
    for (const [file, url] of Object.entries(urls.body as Record<string, string>))
      await put(url.slice(ROOT.length), auth, recipe[file]).expect(201);

    const binary = await packageFiles();
    await t.request().get(`${base}/packages/pkgv1`).set('Authorization', auth).expect(404);
    const pkgUrls = await t
      .request()
      .post(`${base}/packages/pkgv1/upload_urls`)
      .set('Authorization', auth)
      .send(Object.fromEntries(Object.entries(binary).map(([k, v]) => [k, v.length])))
      .expect(200);
    expect(pkgUrls.body['conaninfo.txt']).toBe(`${filesBase}/package/pkgv1/0/conaninfo.txt`);
    for (const [file, url] of Object.entries(pkgUrls.body as Record<string, string>))
      await put(url.slice(ROOT.length), auth, binary[file]).expect(201);

    const snapshot = await t.request().get(base).set('Authorization', auth).expect(200);
    expect(snapshot.body).toEqual(Object.fromEntries(Object.entries(recipe).map(([k, v]) => [k, md5(v)])));
    const pkgSnapshot = await t.request().get(`${base}/packages/pkgv1`).set('Authorization', auth).expect(200);
    expect(pkgSnapshot.body).toEqual(Object.fromEntries(Object.entries(binary).map(([k, v]) => [k, md5(v)])));

    for (const [path, files] of [
      [base, recipe],
      [`${base}/packages/pkgv1`, binary],
    ] as const) {
      const downloads = await t.request().get(`${path}/download_urls`).set('Authorization', auth).expect(200);
      expect(Object.keys(downloads.body).sort()).toEqual(Object.keys(files).sort());
      await t.request().get(`${path}/digest`).set('Authorization', auth).expect(200, downloads.body);
      for (const [file, url] of Object.entries(downloads.body as Record<string, string>)) {
        const got = await raw(url.slice(ROOT.length), auth).expect(200);
        expect(Buffer.compare(got.body as Buffer, files[file as keyof typeof files])).toBe(0);
      }
    }
    const search = await t.request().get(`${base}/search`).set('Authorization', auth).expect(200);
    expect(search.body).toEqual({ pkgv1: expect.objectContaining({ settings: { arch: 'x86_64', os: 'Linux' } }) });
    // The v2 API sees the same files as revision "0".
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', auth)
      .expect(200);

    await t
      .request()
      .post(`${base}/packages/delete`)
      .set('Authorization', auth)
      .send({ package_ids: ['pkgv1'] })
      .expect(200);
    await t.request().get(`${base}/packages/pkgv1`).set('Authorization', auth).expect(404);
    await t.request().delete(base).set('Authorization', auth).expect(200);
    await t.request().get(base).set('Authorization', auth).expect(404);
  });
});

describe('hostile and oversized uploads', () => {
  async function tarWith(name: string, extra: Partial<tar.Headers> = {}): Promise<Buffer> {
    const pack = tar.pack();
    pack.entry({ name, mode: 0o644, ...extra }, extra.type === 'symlink' ? undefined : Buffer.from('evil'));
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    return gzipSync(Buffer.concat(chunks));
  }

  it('refuses archives with paths or links out of them, non-archives, 2 MB conanfiles (400) and keeps nothing', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice);
    const r = newRecipe();
    const before = blobFiles(t);
    const file = (name: string) => v2(owner, r, `/revisions/r1/files/${name}`);
    const refused = await put(file('conan_export.tgz'), auth, await tarWith('../../.bashrc')).expect(400);
    expect(refused.body).toEqual({ message: expect.stringMatching(/leaves the archive/) });
    await put(file('conan_sources.tgz'), auth, await tarWith('/etc/passwd')).expect(400);
    await put(
      file('conan_export.tgz'),
      auth,
      await tarWith('link', { type: 'symlink', linkname: '../../../etc' }),
    ).expect(400);
    await put(file('conan_export.tgz'), auth, Buffer.from('not an archive')).expect(400);
    const huge = Buffer.concat([conanfile(r.name), Buffer.alloc(2 * 1024 * 1024, 0x23)]);
    await put(file('conanfile.py'), auth, huge).expect(400);
    await put(
      v2(owner, r, '/revisions/r1/packages/p1/revisions/q1/files/conaninfo.txt'),
      auth,
      Buffer.from('not a section\n'),
    ).expect(400);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: r.name } })).toBe(0);
  });

  /** A tar header of a file that says it is `size` bytes long, and 1 KiB of zeros: a bomb's announcement. */
  function bombHeader(size: number): Buffer {
    const header = Buffer.alloc(512);
    header.write('bomb.bin', 0);
    header.write('0000644\0', 100);
    header.write('0000000\0', 108);
    header.write('0000000\0', 116);
    header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
    header.write('00000000000\0', 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\0' + '00', 257);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    return gzipSync(Buffer.concat([header, Buffer.alloc(1024)]));
  }

  it('refuses an archive that unpacks far past its size (a bomb, 400) and keeps nothing', async () => {
    const owner = alice.user.name;
    const auth = await login(owner, alice);
    const r = newRecipe();
    const before = blobFiles(t);
    const url = v2(owner, r, '/revisions/r1/packages/p1/revisions/q1/files/conan_package.tgz');
    const res = await put(url, auth, bombHeader(300 * 1024 * 1024)).expect(400);
    expect(res.body.message).toMatch(/unpacks past the size limit/);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: r.name } })).toBe(0);
  });

  it('refuses a file past [packages] LIMIT_SIZE_CONAN (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_CONAN: '100' });
    try {
      const carol = await createTestUser(limited);
      const r = newRecipe();
      const res = await limited
        .request()
        .put(v2(carol.user.name, r, '/revisions/r1/files/conanmanifest.txt'))
        .set('Authorization', carol.auth)
        .send(Buffer.alloc(200, 0x61));
      expect(res.status).toBe(413);
      expect(await limited.context.db.prisma.package.count({ where: { lowerName: r.name } })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it("refuses a file past the owner's package quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t);
    const r = newRecipe();
    const res = await put(
      v2(owner.user.name, r, '/revisions/r1/files/conanfile.py'),
      owner.auth,
      Buffer.alloc(500, 0x23),
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: expect.any(String) });
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});

describe('access', () => {
  it('challenges anonymous uploads (401), refuses one on another owner (403)', async () => {
    const r = newRecipe();
    const url = v2(alice.user.name, r, '/revisions/r1/files/conanfile.py');
    const challenged = await put(url, null, conanfile(r.name)).expect(401);
    expect(challenged.headers['www-authenticate']).toMatch(/^Basic/);
    await put(url, await login(alice.user.name, bob), conanfile(r.name)).expect(403);
    await put(url, bob.auth, conanfile(r.name)).expect(403);
  });

  it('hides a private owner from an outsider (404), challenges anonymous conan (401), serves members', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const r = newRecipe();
    await uploadV2(org.name, alice.auth, r, 'r1', 'p1', 'q1');
    const latest = v2(org.name, r, '/latest');
    await t.request().get(latest).expect(401);
    await t.request().get(latest).set('Authorization', bob.auth).expect(404);
    await t
      .request()
      .get(`${registry(org.name)}/v2/users/authenticate`)
      .set('Authorization', basicAuth(bob.user.name, bob.password))
      .expect(404);
    await put(v2(org.name, r, '/revisions/r2/files/conanfile.py'), bob.auth, conanfile(r.name)).expect(404);
    const carol = await createTestUser(t);
    await addTestOrgMember(t, org, carol.user);
    await t
      .request()
      .get(latest)
      .set('Authorization', await login(org.name, carol))
      .expect(200);
  });

  it('honours token scopes, through the exchanged token too: read:package reads, write:package uploads', async () => {
    const owner = alice.user.name;
    const r = newRecipe();
    await uploadV2(owner, alice.auth, r, 'r1', 'p1', 'q1');
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const exchanged = async (token: string) => {
      const res = await t
        .request()
        .get(`${registry(owner)}/v2/users/authenticate`)
        .set('Authorization', basicAuth(alice.user.name, token))
        .expect(200);
      return `Bearer ${res.text}`;
    };
    const readerBearer = await exchanged(reader);
    const writerBearer = await exchanged(writer);
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', readerBearer)
      .expect(200);
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', `token ${other}`)
      .expect(403);
    const url = v2(owner, r, '/revisions/r2/files/conanfile.py');
    await put(url, readerBearer, conanfile(r.name)).expect(403);
    await put(url, `token ${reader}`, conanfile(r.name)).expect(403);
    await t.request().delete(v2(owner, r)).set('Authorization', readerBearer).expect(403);
    await put(url, writerBearer, conanfile(r.name)).expect(201);
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', 'Bearer not.a.token')
      .expect(401);
  });
});

describe('the package API', () => {
  it('lists the version with type conan and its files; a deleted version leaves the registry', async () => {
    const owner = alice.user.name;
    const r = newRecipe();
    await uploadV2(owner, alice.auth, r, 'r1', 'p1', 'q1');
    const list = await t
      .request()
      .get(`/api/v1/packages/${owner}?type=conan&q=${r.name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body).toEqual([expect.objectContaining({ type: 'conan', name: r.name, version: '1.0.0' })]);
    const files = await t
      .request()
      .get(`/api/v1/packages/${owner}/conan/${r.name}/1.0.0/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body.map((file: { name: string }) => file.name).sort()).toEqual([
      'conan_export.tgz',
      'conan_package.tgz',
      'conanfile.py',
      'conaninfo.txt',
      'conanmanifest.txt',
      'conanmanifest.txt',
    ]);
    await t
      .request()
      .delete(`/api/v1/packages/${owner}/conan/${r.name}/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .get(v2(owner, r, '/latest'))
      .set('Authorization', alice.auth)
      .expect(404);
    await raw(v2(owner, r, '/revisions/r1/files/conanfile.py'), alice.auth).expect(404);
  });
});
