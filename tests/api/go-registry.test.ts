// The Go module proxy (go.dev/ref/mod#goproxy-protocol) as the go command reads it, and the upload of module zips:
// list, info, go.mod, zip, @latest, case-escaped paths; the package API's list and delete; owner visibility,
// token scopes, quota, and hostile zips refused with nothing kept.
import { randomBytes } from 'node:crypto';
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

const proxy = (owner: string) => `/api/packages/${owner}/go`;

function moduleZip(module: string, version: string, goMod: string | null = `module ${module}\n\ngo 1.19\n`) {
  const prefix = `${module}@${version}/`;
  return makeZip({
    ...(goMod === null ? {} : { [`${prefix}go.mod`]: goMod }),
    [`${prefix}hello.go`]: `package hello\n\nfunc Version() string { return "${version}" }\n`,
  });
}

function upload(owner: string, auth: string | null, zip: Buffer) {
  const request = t
    .request()
    .put(`${proxy(owner)}/upload`)
    .set('Content-Type', 'application/zip');
  if (auth) request.set('Authorization', auth);
  return request.send(zip);
}

function get(owner: string, path: string, auth?: string) {
  const request = t.request().get(`${proxy(owner)}/${path}`);
  if (auth) request.set('Authorization', auth);
  return request;
}

describe('the proxy protocol', () => {
  it('serves an uploaded module: list, info, go.mod, zip and @latest', async () => {
    const module = `example.com/${uniqueName('mod')}`;
    const zips: Record<string, Buffer> = {};
    for (const version of ['v1.0.0', 'v1.2.0', 'v1.10.0-rc.1', 'v1.1.0']) {
      zips[version] = await moduleZip(module, version);
      await upload(alice.user.name, alice.auth, zips[version]).expect(201);
    }
    const list = await get(alice.user.name, `${module}/@v/list`).expect(200);
    expect(list.headers['content-type']).toMatch(/^text\/plain/);
    expect(list.text).toBe('v1.0.0\nv1.2.0\nv1.10.0-rc.1\nv1.1.0\n');
    const info = await get(alice.user.name, `${module}/@v/v1.2.0.info`).expect(200);
    expect(info.body).toEqual({ Version: 'v1.2.0', Time: expect.any(String) });
    expect(new Date(info.body.Time).getTime()).not.toBeNaN();
    const mod = await get(alice.user.name, `${module}/@v/v1.2.0.mod`).expect(200);
    expect(mod.text).toBe(`module ${module}\n\ngo 1.19\n`);
    const zip = await get(alice.user.name, `${module}/@v/v1.1.0.zip`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(zip.body as Buffer, zips['v1.1.0'])).toBe(0);
    // The highest release, not the last upload nor a pre-release.
    const latest = await get(alice.user.name, `${module}/@latest`).expect(200);
    expect(latest.body.Version).toBe('v1.2.0');
    await get(alice.user.name, `${module}/@v/v9.9.9.info`).expect(404);
    const missing = await get(alice.user.name, `example.com/${uniqueName('none')}/@v/list`).expect(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('decodes case-escaped module paths and versions, and gives a module without go.mod its module line', async () => {
    const module = `example.com/${uniqueName('Upper').replace(/^u/, 'U')}/Pkg`;
    await upload(alice.user.name, alice.auth, await moduleZip(module, 'v0.1.0-RC', null)).expect(201);
    const escaped = module.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);
    expect((await get(alice.user.name, `${escaped}/@v/list`).expect(200)).text).toBe('v0.1.0-RC\n');
    expect((await get(alice.user.name, `${escaped}/@v/v0.1.0-!r!c.mod`).expect(200)).text).toBe(`module ${module}\n`);
    // Upper-case letters are never in an escaped path.
    await get(alice.user.name, `${module}/@v/list`).expect(404);
  });

  it('answers 409 for a version uploaded twice', async () => {
    const module = `example.com/${uniqueName('dup')}`;
    await upload(alice.user.name, alice.auth, await moduleZip(module, 'v1.0.0')).expect(201);
    const res = await upload(alice.user.name, alice.auth, await moduleZip(module, 'v1.0.0', 'module x\n')).expect(409);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('the package API', () => {
  it('lists Go modules by type, and a version deleted through it leaves the proxy', async () => {
    const module = `example.com/${uniqueName('api')}`;
    for (const version of ['v1.0.0', 'v1.1.0'])
      await upload(alice.user.name, alice.auth, await moduleZip(module, version)).expect(201);
    const listed = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=go&q=${encodeURIComponent(module)}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(listed.body.map((item: { name: string; version: string; type: string }) => item.version).sort()).toEqual([
      'v1.0.0',
      'v1.1.0',
    ]);
    expect(
      listed.body.every((item: { type: string; name: string }) => item.type === 'go' && item.name === module),
    ).toBe(true);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/go/${encodeURIComponent(module)}/v1.1.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    expect((await get(alice.user.name, `${module}/@v/list`).expect(200)).text).toBe('v1.0.0\n');
    expect((await get(alice.user.name, `${module}/@latest`).expect(200)).body.Version).toBe('v1.0.0');
    await get(alice.user.name, `${module}/@v/v1.1.0.zip`).expect(404);
  });
});

describe('who may read and upload', () => {
  let privateOrg: User;

  beforeAll(async () => {
    privateOrg = await createTestOrg(t, alice.user, { visibility: 2 });
  });

  it("hides a private owner's modules (404) from outsiders and anonymous callers", async () => {
    const module = `example.com/${uniqueName('secret')}`;
    await upload(privateOrg.name, alice.auth, await moduleZip(module, 'v1.0.0')).expect(201);
    await get(privateOrg.name, `${module}/@v/list`, alice.auth).expect(200);
    await get(privateOrg.name, `${module}/@v/list`, bob.auth).expect(404);
    await get(privateOrg.name, `${module}/@v/list`).expect(404);
    await upload(privateOrg.name, bob.auth, await moduleZip(module, 'v1.0.1')).expect(404);
  });

  it('needs write on the owner and honours token scopes', async () => {
    const module = `example.com/${uniqueName('scope')}`;
    await upload(alice.user.name, null, await moduleZip(module, 'v1.0.0')).expect(401);
    await upload(alice.user.name, bob.auth, await moduleZip(module, 'v1.0.0')).expect(403);
    const readToken = await createToken(t, alice.user, 'read:package');
    const writeToken = await createToken(t, alice.user, 'write:package');
    const otherToken = await createToken(t, alice.user, 'write:repository');
    const refused = await upload(alice.user.name, `token ${readToken}`, await moduleZip(module, 'v1.0.0')).expect(403);
    expect(refused.text).toMatch(/write:package/);
    await upload(alice.user.name, `token ${writeToken}`, await moduleZip(module, 'v1.0.0')).expect(201);
    await get(alice.user.name, `${module}/@v/list`, `token ${readToken}`).expect(200);
    await get(alice.user.name, `${module}/@v/list`, `token ${otherToken}`).expect(403);
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

  it('refuses malformed and hostile zips with 400', async () => {
    const owner = alice.user.name;
    const module = `example.com/${uniqueName('bad')}`;
    const send = (zip: Buffer) => () => upload(owner, alice.auth, zip);
    await expectNothingKept(alice, send(Buffer.from('not a zip at all')), 400);
    await expectNothingKept(alice, send(await moduleZip(module, '1.0.0')), 400);
    await expectNothingKept(alice, send(await makeZip({ 'no-version/go.mod': 'module x\n' })), 400);
    // Files outside the module's folder, and a name that climbs out of it.
    const outside = await makeZip({ [`${module}@v1.0.0/go.mod`]: `module ${module}\n`, 'other/evil.go': 'package x' });
    await expectNothingKept(alice, send(outside), 400);
    const traversal = renameInZip(
      await makeZip({ [`${module}@v1.0.0/go.mod`]: `module ${module}\n`, [`${module}@v1.0.0/XX/evil.go`]: 'x' }),
      '/XX/',
      '/../',
    );
    const refused = await upload(owner, alice.auth, traversal).expect(400);
    expect(refused.text).toMatch(/archive/);
    // A zip bomb as its directory declares it, and 10 MB of go.mod.
    await expectNothingKept(alice, send(declareSizes(await moduleZip(module, 'v1.0.0'), 0x7fff_0000)), 400);
    const hugeGoMod = `module ${module}\n${'// padding\n'.repeat(1_000_000)}`;
    await expectNothingKept(alice, send(await moduleZip(module, 'v1.0.0', hugeGoMod)), 400);
    await get(owner, `${module}/@v/list`).expect(404);
  });

  it("refuses a zip past the owner's package quota (413)", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 10_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const module = `example.com/${uniqueName('big')}`;
    const big = await makeZip({
      [`${module}@v1.0.0/go.mod`]: `module ${module}\n`,
      [`${module}@v1.0.0/data.bin`]: randomBytes(50_000),
    });
    await expectNothingKept(owner, () => upload(owner.user.name, owner.auth, big), 413);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});
