// The package API under /api/v1/packages/{owner}: list, get, delete and files, with the owner's visibility and
// the packages unit of teams deciding access.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { User } from '../../src/db/prisma.ts';
import {
  createTestOrg,
  createTestUser,
  createToken,
  memberOfTeam,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { blobFiles, digestsOf, upload } from '../helpers/packages.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

const api = (owner: string, rest = '') => `/api/v1/packages/${owner}${rest}`;

/** A package of another type, made as its registry would (no registry for it exists yet). */
async function otherTypePackage(
  owner: User,
  type: string,
  name: string,
  version: string,
  options: { internal?: boolean } = {},
) {
  const prisma = t.context.db.prisma;
  const pkg = await prisma.package.create({
    data: { ownerId: owner.id, type, name, lowerName: name.toLowerCase(), isInternal: options.internal ?? false },
  });
  return prisma.packageVersion.create({
    data: {
      packageId: pkg.id,
      creatorId: owner.id,
      version,
      lowerVersion: version.toLowerCase(),
      isInternal: options.internal ?? false,
    },
  });
}

describe('GET /packages/{owner}', () => {
  let owner: TestUser;
  beforeAll(async () => {
    owner = await createTestUser(t);
    // Five versions of two generic packages, one npm package and one internal package, in a known order.
    for (const [name, version] of [
      ['alpha', '1.0'],
      ['alpha', '1.1'],
      ['beta-tool', '0.1'],
      ['alpha', '2.0'],
      ['beta-tool', '0.2'],
    ]) {
      await upload(t, owner.auth, owner.user.name, name, version, 'file.bin').expect(201);
    }
    await otherTypePackage(owner.user, 'npm', 'left-pad', '1.3.0');
    await otherTypePackage(owner.user, 'debian', 'repository', '_debian', { internal: true });
  });

  it('lists one entry per version, newest first, internal packages left out, with totals', async () => {
    const res = await t.request().get(api(owner.user.name)).set('Authorization', owner.auth).expect(200);
    expect(res.body.map((p: { name: string; version: string }) => `${p.name}@${p.version}`)).toEqual([
      'left-pad@1.3.0',
      'beta-tool@0.2',
      'alpha@2.0',
      'beta-tool@0.1',
      'alpha@1.1',
      'alpha@1.0',
    ]);
    expect(res.headers['x-total-count']).toBe('6');
    const version = await t.context.db.prisma.packageVersion.findFirstOrThrow({
      where: { version: '2.0', package: { ownerId: owner.user.id } },
    });
    expect(res.body[2]).toMatchObject({ id: version.id, type: 'generic', name: 'alpha', version: '2.0' });
  });

  it('filters by type and by a substring of the name (any case)', async () => {
    const generic = await t
      .request()
      .get(api(owner.user.name, '?type=generic'))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(generic.body).toHaveLength(5);
    const npm = await t.request().get(api(owner.user.name, '?type=npm')).set('Authorization', owner.auth).expect(200);
    expect(npm.body.map((p: { name: string }) => p.name)).toEqual(['left-pad']);
    const debian = await t
      .request()
      .get(api(owner.user.name, '?type=debian'))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(debian.body).toEqual([]);
    const beta = await t.request().get(api(owner.user.name, '?q=TA-t')).set('Authorization', owner.auth).expect(200);
    expect(beta.body.map((p: { version: string }) => p.version)).toEqual(['0.2', '0.1']);
    expect(beta.headers['x-total-count']).toBe('2');
    const both = await t
      .request()
      .get(api(owner.user.name, '?q=alpha&type=npm'))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(both.body).toEqual([]);
  });

  it('pages with limit and page, and a Link header', async () => {
    const res = await t
      .request()
      .get(api(owner.user.name, '?limit=2&page=2'))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(res.body.map((p: { version: string }) => p.version)).toEqual(['2.0', '0.1']);
    expect(res.headers['x-total-count']).toBe('6');
    expect(res.headers.link).toContain('rel="next"');
    expect(res.headers.link).toContain('rel="prev"');
    const last = await t
      .request()
      .get(api(owner.user.name, '?limit=2&page=3'))
      .set('Authorization', owner.auth)
      .expect(200);
    expect(last.body.map((p: { version: string }) => p.version)).toEqual(['1.1', '1.0']);
  });

  it('refuses a type outside the contract', async () => {
    const res = await t.request().get(api(owner.user.name, '?type=nonsense')).set('Authorization', owner.auth);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});

describe('GET /packages/{owner}/{type}/{name}/{version}', () => {
  it("shows the version with its owner, creator, type and Forgejo's html_url", async () => {
    const name = `Mixed.${uniqueName('Case')}`;
    await upload(t, alice.auth, alice.user.name, name, 'V1.0', 'f').expect(201);
    const res = await t
      .request()
      .get(api(alice.user.name, `/generic/${name.toLowerCase()}/v1.0`))
      .set('Authorization', bob.auth)
      .expect(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      owner: expect.objectContaining({ id: alice.user.id, login: alice.user.name }),
      creator: expect.objectContaining({ id: alice.user.id, login: alice.user.name }),
      type: 'generic',
      name,
      version: 'V1.0',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      html_url: `http://localhost:3000/${alice.user.name}/-/packages/generic/${name.toLowerCase()}/v1.0`,
    });
  });

  it('answers 404 for a missing version, name or type, and 401 without sign-in', async () => {
    const name = uniqueName('get');
    await upload(t, alice.auth, alice.user.name, name, '1', 'f').expect(201);
    await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/2`))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .get(api(alice.user.name, `/npm/${name}/1`))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .get(api(alice.user.name, `/generic/${uniqueName('x')}/1`))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/1`))
      .expect(401);
    await t
      .request()
      .get(api(uniqueName('nobody'), `/generic/${name}/1`))
      .set('Authorization', alice.auth)
      .expect(404);
  });

  it('shows a ghost as the creator once the account is gone', async () => {
    const org = await createTestOrg(t, alice.user);
    const member = await createTestUser(t);
    await memberOfTeam(t, org, alice, member.user, { permission: 'write', units: ['repo.packages'] });
    const name = uniqueName('orphan');
    await upload(t, member.auth, org.name, name, '1', 'f').expect(201);
    await t
      .request()
      .delete(`/api/v1/admin/users/${member.user.name}?purge=true`)
      .set('Authorization', admin.auth)
      .expect(204);
    const res = await t
      .request()
      .get(api(org.name, `/generic/${name}/1`))
      .set('Authorization', alice.auth)
      .expect(200);
    expect(res.body.creator).toMatchObject({ id: -1, login: 'Ghost' });
  });
});

describe('GET /packages/{owner}/{type}/{name}/{version}/files', () => {
  it('lists the files with size and md5, sha1, sha256 and sha512', async () => {
    const name = uniqueName('files');
    const first = randomBytes(1000);
    const second = Buffer.from('second file');
    await upload(t, alice.auth, alice.user.name, name, '1', 'one.bin', first).expect(201);
    await upload(t, alice.auth, alice.user.name, name, '1', 'two.txt', second).expect(201);
    const res = await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/1/files`))
      .set('Authorization', alice.auth)
      .expect(200);
    expect(res.body).toEqual([
      { id: expect.any(Number), name: 'one.bin', Size: 1000, ...digestsOf(first) },
      { id: expect.any(Number), name: 'two.txt', Size: second.length, ...digestsOf(second) },
    ]);
    await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/2/files`))
      .set('Authorization', alice.auth)
      .expect(404);
  });
});

describe('DELETE /packages/{owner}/{type}/{name}/{version}', () => {
  it('deletes the version and its files (204), removes bytes nothing else refers to, then 404', async () => {
    const name = uniqueName('gone');
    const bytes = randomBytes(2048);
    await upload(t, alice.auth, alice.user.name, name, '1', 'f.bin', bytes).expect(201);
    await upload(t, alice.auth, alice.user.name, name, '2', 'f.bin').expect(201);
    const hash = digestsOf(bytes).sha256;
    expect(blobFiles(t)).toContain(path.join(hash.slice(0, 2), hash.slice(2, 4), hash));
    await t
      .request()
      .delete(api(alice.user.name, `/generic/${name}/1`))
      .set('Authorization', alice.auth)
      .expect(204);
    expect(blobFiles(t)).not.toContain(path.join(hash.slice(0, 2), hash.slice(2, 4), hash));
    await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/1`))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/2`))
      .set('Authorization', alice.auth)
      .expect(200);
    await t
      .request()
      .delete(api(alice.user.name, `/generic/${name}/1`))
      .set('Authorization', alice.auth)
      .expect(404);
  });

  it('deletes packages of other types alike', async () => {
    const version = await otherTypePackage(alice.user, 'npm', uniqueName('npm'), '1.0.0');
    const pkg = await t.context.db.prisma.package.findUniqueOrThrow({ where: { id: version.packageId } });
    await t
      .request()
      .delete(api(alice.user.name, `/npm/${pkg.name}/1.0.0`))
      .set('Authorization', alice.auth)
      .expect(204);
    expect(await t.context.db.prisma.package.count({ where: { id: pkg.id } })).toBe(0);
  });

  it("needs write: another user's packages are 403 to delete, a site admin may", async () => {
    const name = uniqueName('admin');
    await upload(t, alice.auth, alice.user.name, name, '1', 'f').expect(201);
    await t
      .request()
      .delete(api(alice.user.name, `/generic/${name}/1`))
      .set('Authorization', bob.auth)
      .expect(403);
    await t
      .request()
      .delete(api(alice.user.name, `/generic/${name}/1`))
      .set('Authorization', admin.auth)
      .expect(204);
  });
});

describe('visibility and team access', () => {
  let privateOrg: User;
  let reader: TestUser;
  let writer: TestUser;
  let name: string;

  beforeAll(async () => {
    privateOrg = await createTestOrg(t, alice.user, { visibility: 2 });
    reader = await createTestUser(t);
    writer = await createTestUser(t);
    await memberOfTeam(t, privateOrg, alice, reader.user, {
      permission: 'read',
      units_map: { 'repo.code': 'write', 'repo.packages': 'read' },
    });
    await memberOfTeam(t, privateOrg, alice, writer.user, {
      permission: 'read',
      units_map: { 'repo.code': 'read', 'repo.packages': 'write' },
    });
    name = uniqueName('secret');
    await upload(t, alice.auth, privateOrg.name, name, '1', 'f').expect(201);
  });

  it("hides a private organization's packages from outsiders (404) and shows them to its members", async () => {
    await t.request().get(api(privateOrg.name)).set('Authorization', bob.auth).expect(404);
    await t
      .request()
      .get(api(privateOrg.name, `/generic/${name}/1`))
      .set('Authorization', bob.auth)
      .expect(404);
    await t
      .request()
      .get(api(privateOrg.name, `/generic/${name}/1/files`))
      .set('Authorization', bob.auth)
      .expect(404);
    await t
      .request()
      .delete(api(privateOrg.name, `/generic/${name}/1`))
      .set('Authorization', bob.auth)
      .expect(404);
    const listed = await t.request().get(api(privateOrg.name)).set('Authorization', reader.auth).expect(200);
    expect(listed.body.map((p: { name: string }) => p.name)).toEqual([name]);
    await t.request().get(api(privateOrg.name)).set('Authorization', admin.auth).expect(200);
  });

  it('lets a team with write on the packages unit delete, and not one with read', async () => {
    const other = uniqueName('teamdel');
    await upload(t, alice.auth, privateOrg.name, other, '1', 'f').expect(201);
    await t
      .request()
      .delete(api(privateOrg.name, `/generic/${other}/1`))
      .set('Authorization', reader.auth)
      .expect(403);
    await t
      .request()
      .delete(api(privateOrg.name, `/generic/${other}/1`))
      .set('Authorization', writer.auth)
      .expect(204);
  });

  it("follows a user's visibility: private is the user's own, limited any signed-in user's", async () => {
    const hidden = await createTestUser(t, { fields: { visibility: 2 } });
    const limited = await createTestUser(t, { fields: { visibility: 1 } });
    await upload(t, hidden.auth, hidden.user.name, 'p', '1', 'f').expect(201);
    await upload(t, limited.auth, limited.user.name, 'p', '1', 'f').expect(201);
    await t.request().get(api(hidden.user.name)).set('Authorization', bob.auth).expect(404);
    expect(
      (await t.request().get(api(hidden.user.name)).set('Authorization', hidden.auth).expect(200)).body,
    ).toHaveLength(1);
    expect(
      (await t.request().get(api(limited.user.name)).set('Authorization', bob.auth).expect(200)).body,
    ).toHaveLength(1);
    await t.request().get(`/api/packages/${limited.user.name}/generic/p/1/f`).expect(404);
  });

  it('asks for a sign-in on every call (401)', async () => {
    await t.request().get(api(alice.user.name)).expect(401);
  });
});

describe('token scopes', () => {
  it('reads with read:package, deletes with write:package, and refuses tokens without the package scope', async () => {
    const name = uniqueName('scope');
    await upload(t, alice.auth, alice.user.name, name, '1', 'f').expect(201);
    const read = `token ${await createToken(t, alice.user, 'read:package')}`;
    const write = `token ${await createToken(t, alice.user, 'write:package')}`;
    const other = `token ${await createToken(t, alice.user, 'write:repository,write:organization')}`;
    await t.request().get(api(alice.user.name)).set('Authorization', read).expect(200);
    await t
      .request()
      .get(api(alice.user.name, `/generic/${name}/1/files`))
      .set('Authorization', read)
      .expect(200);
    const refused = await t.request().get(api(alice.user.name)).set('Authorization', other).expect(403);
    expect(refused.body.message).toMatch(/read:package/);
    expect(
      (
        await t
          .request()
          .delete(api(alice.user.name, `/generic/${name}/1`))
          .set('Authorization', read)
          .expect(403)
      ).body.message,
    ).toMatch(/write:package/);
    await t
      .request()
      .delete(api(alice.user.name, `/generic/${name}/1`))
      .set('Authorization', write)
      .expect(204);
  });

  it('keeps public-only tokens to public owners', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 1 });
    const publicOnly = `token ${await createToken(t, alice.user, 'public-only,read:package')}`;
    await t.request().get(api(alice.user.name)).set('Authorization', publicOnly).expect(200);
    await t.request().get(api(org.name)).set('Authorization', publicOnly).expect(403);
  });
});

describe('deleting an owner of packages', () => {
  it('answers 422 without purge, and with purge removes the packages and their bytes', async () => {
    const packager = await createTestUser(t);
    const bytes = randomBytes(4096);
    const hash = digestsOf(bytes).sha256;
    await upload(t, packager.auth, packager.user.name, 'tool', '1', 'tool.bin', bytes).expect(201);
    const refused = await t
      .request()
      .delete(`/api/v1/admin/users/${packager.user.name}`)
      .set('Authorization', admin.auth)
      .expect(422);
    expect(refused.body.message).toMatch(/packages/);
    await t
      .request()
      .delete(`/api/v1/admin/users/${packager.user.name}?purge=true`)
      .set('Authorization', admin.auth)
      .expect(204);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: packager.user.id } })).toBe(0);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: hash } })).toBe(0);
    expect(blobFiles(t)).not.toContain(path.join(hash.slice(0, 2), hash.slice(2, 4), hash));
  });

  it('lets an organization go once its last package version is deleted', async () => {
    const org = await createTestOrg(t, alice.user);
    await upload(t, alice.auth, org.name, 'only', '1', 'f').expect(201);
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', alice.auth).expect(422);
    await t.request().delete(api(org.name, '/generic/only/1')).set('Authorization', alice.auth).expect(204);
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', alice.auth).expect(204);
  });
});
