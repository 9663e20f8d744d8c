// The Composer repository as Composer reads it (getcomposer.org/doc/05-repositories.md): upload of an archive,
// packages.json, p2 metadata (tagged versions and ~dev branches), list, search, download; the package API's list
// and delete; owner visibility, token scopes, quota, and hostile archives refused with nothing kept.
import { createHash, randomBytes } from 'node:crypto';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { blobFiles } from '../helpers/packages.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { declareSizes, makeZip, renameInZip } from '../helpers/zip.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
});
afterAll(() => t.close());

const registry = (owner: string) => `/api/packages/${owner}/composer`;

function archive(composerJson: Record<string, unknown>, files: Record<string, string | Buffer> = {}) {
  return makeZip({ 'composer.json': JSON.stringify(composerJson), 'src/Hello.php': '<?php\n', ...files });
}

function upload(owner: string, auth: string | null, zip: Buffer, version?: string) {
  const query = version === undefined ? '' : `?version=${encodeURIComponent(version)}`;
  const request = t
    .request()
    .put(`${registry(owner)}${query}`)
    .set('Content-Type', 'application/zip');
  if (auth) request.set('Authorization', auth);
  return request.send(zip);
}

function get(owner: string, path: string, auth?: string) {
  const request = t.request().get(`${registry(owner)}/${path}`);
  if (auth) request.set('Authorization', auth);
  return request;
}

function download(path: string) {
  return t
    .request()
    .get(path)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

describe('the repository documents', () => {
  it('serves packages.json with the metadata URL, search and list', async () => {
    const res = await get(alice.user.name, 'packages.json').expect(200);
    const base = `${t.context.settings.server.ROOT_URL}api/packages/${alice.user.name}/composer`;
    expect(res.body).toEqual({
      packages: {},
      'metadata-url': `${base}/p2/%package%.json`,
      search: `${base}/search.json?q=%query%&type=%type%`,
      list: `${base}/list.json`,
    });
  });

  it("serves an uploaded package's versions with their composer.json fields and dist, and downloads the zip", async () => {
    const name = `acme/${uniqueName('lib')}`;
    const json = {
      name,
      description: 'A library',
      type: 'library',
      license: 'MIT',
      keywords: ['a', 'b'],
      homepage: 'https://example.com',
      authors: [{ name: 'Alice', email: 'alice@example.com' }],
      require: { php: '>=7.4' },
      autoload: { 'psr-4': { 'Acme\\': 'src/' } },
    };
    const first = await archive({ ...json, version: '1.0.0' }, { 'README.md': '# Hello' });
    await upload(alice.user.name, alice.auth, first).expect(201);
    // Without a version in composer.json, the query's.
    const second = await archive({ ...json, require: { php: '>=8.1' } });
    await upload(alice.user.name, alice.auth, second, '1.1.0').expect(201);

    const res = await get(alice.user.name, `p2/${name}.json`).expect(200);
    expect(res.body.minified).toBeUndefined();
    const versions = res.body.packages[name];
    expect(versions.map((version: { version: string }) => version.version)).toEqual(['1.1.0', '1.0.0']);
    const [newer, older] = versions;
    expect(older).toEqual({
      name,
      version: '1.0.0',
      type: 'library',
      time: expect.any(String),
      description: 'A library',
      license: ['MIT'],
      keywords: ['a', 'b'],
      homepage: 'https://example.com',
      authors: [{ name: 'Alice', email: 'alice@example.com' }],
      require: { php: '>=7.4' },
      autoload: { 'psr-4': { 'Acme\\': 'src/' } },
      dist: {
        type: 'zip',
        url: expect.stringContaining(`/files/${encodeURIComponent(name)}/1.0.0/`),
        shasum: createHash('sha1').update(first).digest('hex'),
      },
    });
    expect(newer.require).toEqual({ php: '>=8.1' });
    const url = new URL(older.dist.url as string);
    const zip = await download(url.pathname).expect(200);
    expect(Buffer.compare(zip.body as Buffer, first)).toBe(0);
    // The name as two segments too.
    await t.request().get(url.pathname.replace('%2F', '/')).expect(200);

    expect((await get(alice.user.name, `p2/${name}~dev.json`).expect(200)).body).toEqual({ packages: { [name]: [] } });

    // Kept per revision: the same ETag until the package changes, 304 for it, gzip for a client that accepts it.
    const again = await get(alice.user.name, `p2/${name}.json`).set('Accept-Encoding', 'gzip').expect(200);
    expect(again.headers['content-encoding']).toBe('gzip');
    expect(again.body).toEqual(res.body);
    expect(again.headers.etag).toBe(res.headers.etag);
    await get(alice.user.name, `p2/${name}.json`).set('If-None-Match', res.headers.etag).expect(304);
    await upload(alice.user.name, alice.auth, await archive({ ...json, version: '1.2.0' })).expect(201);
    const changed = await get(alice.user.name, `p2/${name}.json`).set('If-None-Match', res.headers.etag).expect(200);
    expect(changed.body.packages[name]).toHaveLength(3);
    await get(alice.user.name, `p2/acme/${uniqueName('none')}.json`).expect(404);
    const list = await get(alice.user.name, 'list.json').expect(200);
    expect(list.body.packageNames).toContain(name);
  });

  it('searches by name and type, paged', async () => {
    const owner = await createTestUser(t);
    for (const [project, type] of [
      ['alpha', 'library'],
      ['alphabet', 'project'],
      ['beta', 'library'],
    ]) {
      const zip = await archive({ name: `acme/${project}`, type, description: `The ${project}`, version: '1.0.0' });
      await upload(owner.user.name, owner.auth, zip).expect(201);
    }
    const all = await get(owner.user.name, 'search.json?q=alpha').expect(200);
    expect(all.body).toEqual({
      total: 2,
      results: [
        { name: 'acme/alpha', description: 'The alpha', downloads: 0 },
        { name: 'acme/alphabet', description: 'The alphabet', downloads: 0 },
      ],
    });
    const typed = await get(owner.user.name, 'search.json?q=&type=library').expect(200);
    expect(typed.body.results.map((item: { name: string }) => item.name)).toEqual(['acme/alpha', 'acme/beta']);
    const paged = await get(owner.user.name, 'search.json?q=&per_page=2').expect(200);
    expect(paged.body.total).toBe(3);
    expect(paged.body.results).toHaveLength(2);
    const next = new URL(paged.body.next as string);
    const second = await t.request().get(`${next.pathname}${next.search}`).expect(200);
    expect(second.body.results.map((item: { name: string }) => item.name)).toEqual(['acme/beta']);
    expect(second.body.next).toBeUndefined();
  });

  it("answers 409 for a version uploaded twice, in Composer's error form", async () => {
    const zip = await archive({ name: `acme/${uniqueName('dup')}`, version: '1.0.0' });
    await upload(alice.user.name, alice.auth, zip).expect(201);
    const res = await upload(alice.user.name, alice.auth, zip).expect(409);
    expect(res.body).toEqual({ errors: [{ status: 409, message: expect.any(String) }] });
  });
});

describe('the package API', () => {
  it('lists Composer packages by type, and a version deleted through it leaves the metadata', async () => {
    const name = `acme/${uniqueName('api')}`;
    for (const version of ['1.0.0', '2.0.0'])
      await upload(alice.user.name, alice.auth, await archive({ name, version })).expect(201);
    const listed = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=composer&q=${encodeURIComponent(name)}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(listed.body.map((item: { type: string; name: string; version: string }) => item.version).sort()).toEqual([
      '1.0.0',
      '2.0.0',
    ]);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/composer/${encodeURIComponent(name)}/2.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const res = await get(alice.user.name, `p2/${name}.json`).expect(200);
    expect(res.body.packages[name].map((version: { version: string }) => version.version)).toEqual(['1.0.0']);
  });
});

describe('who may read and upload', () => {
  let privateOrg: User;

  beforeAll(async () => {
    privateOrg = await createTestOrg(t, alice.user, { visibility: 2 });
  });

  it("hides a private owner's packages (404) from outsiders and anonymous callers", async () => {
    const name = `acme/${uniqueName('secret')}`;
    await upload(privateOrg.name, alice.auth, await archive({ name, version: '1.0.0' })).expect(201);
    await get(privateOrg.name, `p2/${name}.json`, alice.auth).expect(200);
    const hidden = await get(privateOrg.name, `p2/${name}.json`, bob.auth).expect(404);
    expect(hidden.body).toEqual({ errors: [{ status: 404, message: expect.any(String) }] });
    await get(privateOrg.name, 'packages.json').expect(404);
    await upload(privateOrg.name, bob.auth, await archive({ name, version: '1.0.1' })).expect(404);
  });

  it('needs write on the owner and honours token scopes', async () => {
    const name = `acme/${uniqueName('scope')}`;
    const zip = await archive({ name, version: '1.0.0' });
    await upload(alice.user.name, null, zip).expect(401);
    await upload(alice.user.name, bob.auth, zip).expect(403);
    const readToken = await createToken(t, alice.user, 'read:package');
    const writeToken = await createToken(t, alice.user, 'write:package');
    const otherToken = await createToken(t, alice.user, 'write:repository');
    const refused = await upload(alice.user.name, `token ${readToken}`, zip).expect(403);
    expect(refused.body.errors[0].message).toMatch(/write:package/);
    await upload(alice.user.name, `token ${writeToken}`, zip).expect(201);
    await get(alice.user.name, `p2/${name}.json`, `token ${readToken}`).expect(200);
    await get(alice.user.name, `p2/${name}.json`, `token ${otherToken}`).expect(403);
  });
});

describe('refusals keep nothing', () => {
  async function expectNothingKept(owner: TestUser, send: () => Promise<{ status: number }>, status: number) {
    const blobs = blobFiles(t).length;
    const packages = await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } });
    expect((await send()).status).toBe(status);
    expect(blobFiles(t)).toHaveLength(blobs);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(packages);
  }

  it('refuses malformed and hostile archives with 400', async () => {
    const owner = alice.user.name;
    const name = `acme/${uniqueName('bad')}`;
    const send = (zip: Buffer, version?: string) => () => upload(owner, alice.auth, zip, version);
    await expectNothingKept(alice, send(Buffer.from('not a zip')), 400);
    await expectNothingKept(alice, send(await makeZip({ 'README.md': 'no composer.json' })), 400);
    await expectNothingKept(alice, send(await makeZip({ 'composer.json': '{not json' })), 400);
    await expectNothingKept(alice, send(await archive({ name: 'NoVendor', version: '1.0.0' })), 400);
    await expectNothingKept(alice, send(await archive({ name })), 400);
    await expectNothingKept(alice, send(await archive({ name }), 'not a version'), 400);
    await expectNothingKept(alice, send(await archive({ name, version: '1.0.0', require: ['x'] })), 400);
    const traversal = renameInZip(await archive({ name, version: '1.0.0' }, { 'XX/evil.php': 'x' }), 'XX/', '../');
    const refused = await upload(owner, alice.auth, traversal).expect(400);
    expect(refused.body.errors[0].message).toMatch(/archive/);
    await expectNothingKept(alice, send(declareSizes(await archive({ name, version: '1.0.0' }), 0x7fff_0000)), 400);
    const huge = { name, version: '1.0.0', description: 'x'.repeat(10 * 1024 * 1024) };
    await expectNothingKept(alice, send(await archive(huge)), 400);
    await get(owner, `p2/${name}.json`).expect(404);
  });

  it("refuses an archive past the owner's package quota (413)", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 10_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const big = await archive(
      { name: `acme/${uniqueName('big')}`, version: '1.0.0' },
      { 'data.bin': randomBytes(50_000) },
    );
    await expectNothingKept(owner, () => upload(owner.user.name, owner.auth, big), 413);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});
