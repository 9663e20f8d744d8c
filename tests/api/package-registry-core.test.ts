// The package core as every registry gets it, shown through the npm registry: the credential forms clients send,
// owner visibility (404 first), package token scopes and team units, npm's error form, and the publish helper —
// client digests checked, size limit and quota while streaming, one success of two concurrent publishes.
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { User } from '../../src/db/prisma.ts';
import {
  basicAuth,
  createTestOrg,
  createTestUser,
  createToken,
  memberOfTeam,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { npmPath, npmRegistry, npmTarball, publish, publishBody } from '../helpers/npm.ts';
import { blobFiles } from '../helpers/packages.ts';
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

const packument = (owner: string, name: string, auth?: string) => {
  const request = t.request().get(`${npmRegistry(owner)}/${npmPath(name)}`);
  if (auth) request.set('Authorization', auth);
  return request;
};

describe('credentials', () => {
  it('accepts a password, a token as password, a token as user name, `token …` and `Bearer …`', async () => {
    const owner = alice.user.name;
    const forms = [
      basicAuth(owner, alice.password),
      basicAuth(owner, alice.token),
      basicAuth(alice.token, ''),
      `token ${alice.token}`,
      `Bearer ${alice.token}`,
    ];
    for (const [index, auth] of forms.entries()) {
      const name = uniqueName(`cred${index}`);
      await publish(t, auth, owner, name, '1.0.0').expect(201);
      await packument(owner, name, auth).expect(200);
    }
  });

  it("challenges an anonymous publish (401 with Basic), and refuses a wrong credential (401) in npm's form", async () => {
    const res = await publish(t, null, alice.user.name, uniqueName('anon'), '1.0.0').expect(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Anvil"');
    expect(res.body).toEqual({ error: expect.any(String) });
    const wrong = await packument(alice.user.name, 'x', 'Bearer 0123456789abcdef0123456789abcdef01234567').expect(401);
    expect(wrong.body).toEqual({ error: expect.any(String) });
  });
});

describe('who may see and change packages', () => {
  let privateOrg: User;
  let privateUser: TestUser;

  beforeAll(async () => {
    privateOrg = await createTestOrg(t, alice.user, { visibility: 2 });
    privateUser = await createTestUser(t, { fields: { visibility: 2 } });
  });

  it('hides a private owner from outsiders and anonymous callers (404), before any other check', async () => {
    const name = uniqueName('secret');
    await publish(t, alice.auth, privateOrg.name, name, '1.0.0').expect(201);
    await publish(t, privateUser.auth, privateUser.user.name, name, '1.0.0').expect(201);
    for (const owner of [privateOrg.name, privateUser.user.name]) {
      await packument(owner, name, bob.auth).expect(404);
      await packument(owner, name).expect(404);
      await publish(t, bob.auth, owner, uniqueName('p'), '1.0.0').expect(404);
      await packument(owner, name, admin.auth).expect(200);
    }
    await packument(privateOrg.name, name, alice.auth).expect(200);
    await t
      .request()
      .get(`${npmRegistry('no-such-owner')}/${name}`)
      .expect(404);
  });

  it("refuses a publish into another user's namespace (403); anyone reads a public owner's packages", async () => {
    const name = uniqueName('pub');
    await publish(t, alice.auth, alice.user.name, name, '1.0.0').expect(201);
    const res = await publish(t, bob.auth, alice.user.name, uniqueName('x'), '1.0.0').expect(403);
    expect(res.body).toEqual({ error: expect.any(String) });
    await packument(alice.user.name, name).expect(200);
    await packument(alice.user.name, name, bob.auth).expect(200);
  });

  it('lets teams with write on the packages unit publish; read-only teams install only', async () => {
    const writer = await createTestUser(t);
    const reader = await createTestUser(t);
    await memberOfTeam(t, privateOrg, alice, writer.user, {
      permission: 'read',
      units_map: { 'repo.packages': 'write' },
    });
    await memberOfTeam(t, privateOrg, alice, reader.user, {
      permission: 'read',
      units_map: { 'repo.packages': 'read' },
    });
    const name = uniqueName('team');
    await publish(t, writer.auth, privateOrg.name, name, '1.0.0').expect(201);
    await publish(t, reader.auth, privateOrg.name, name, '1.0.1').expect(403);
    await packument(privateOrg.name, name, reader.auth).expect(200);
  });

  it('honours token scopes: write:package publishes, read:package installs only, other scopes neither', async () => {
    const owner = alice.user.name;
    const name = uniqueName('scoped');
    const writeToken = await createToken(t, alice.user, 'write:package');
    const readToken = await createToken(t, alice.user, 'read:package');
    const otherToken = await createToken(t, alice.user, 'write:repository');
    await publish(t, `Bearer ${writeToken}`, owner, name, '1.0.0').expect(201);
    await packument(owner, name, `Bearer ${readToken}`).expect(200);
    const refused = await publish(t, `Bearer ${readToken}`, owner, name, '1.0.1').expect(403);
    expect(refused.body.error).toMatch(/write:package/);
    await packument(owner, name, `Bearer ${otherToken}`).expect(403);
    await publish(t, `Bearer ${otherToken}`, owner, name, '1.0.2').expect(403);
    // A public-only token does not reach a private owner's packages.
    const publicOnly = await createToken(t, privateUser.user, 'public-only,write:package');
    await publish(t, `Bearer ${publicOnly}`, privateUser.user.name, uniqueName('po'), '1.0.0').expect(403);
  });
});

describe('publish', () => {
  it('refuses bytes that do not match the integrity or shasum the client sent (400), keeping nothing', async () => {
    const before = blobFiles(t).length;
    const name = uniqueName('corrupt');
    const tarball = await npmTarball(name, '1.0.0');
    const other = await npmTarball(name, '1.0.0', 5);
    const wrongIntegrity = `sha512-${Buffer.alloc(64).toString('base64')}`;
    const res = await publish(t, alice.auth, alice.user.name, name, '1.0.0', {
      tarball,
      dist: { integrity: wrongIntegrity },
    }).expect(400);
    expect(res.body.error).toMatch(/sha512/);
    await publish(t, alice.auth, alice.user.name, name, '1.0.0', {
      tarball: other,
      dist: { shasum: '0'.repeat(40) },
    }).expect(400);
    expect(blobFiles(t)).toHaveLength(before);
    await packument(alice.user.name, name).expect(404);
  });

  it('gives one of two concurrent publishes of one version 201 and the other 409', async () => {
    const name = uniqueName('race');
    const [a, b] = await Promise.all([npmTarball(name, '1.0.0', 100_000), npmTarball(name, '1.0.0', 100_001)]);
    const send = (tarball: Buffer) =>
      t
        .request()
        .put(`${npmRegistry(alice.user.name)}/${name}`)
        .set('Authorization', alice.auth)
        .set('Content-Type', 'application/json')
        .send(publishBody(name, '1.0.0', tarball));
    const statuses = (await Promise.all([send(a), send(b)])).map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409]);
    const files = await t.context.db.prisma.packageFile.count({ where: { version: { package: { name } } } });
    expect(files).toBe(1);
  });

  it("refuses a tarball past the owner's package quota while streaming (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 200_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const name = uniqueName('big');
    const before = blobFiles(t).length;
    const res = await publish(t, owner.auth, owner.user.name, name, '1.0.0', {
      tarball: await npmTarball(name, '1.0.0', 0).then(() => Buffer.alloc(300_000, 1)),
      dist: { integrity: '', shasum: '' },
    }).expect(413);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(blobFiles(t)).toHaveLength(before);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
    await packument(owner.user.name, name, owner.auth).expect(404);
  });

  it('refuses a tarball past [packages] LIMIT_SIZE_NPM (413) over a real connection, keeping nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_NPM: '100k' });
    const server = limited.app.listen(0, '127.0.0.1');
    try {
      await once(server, 'listening');
      const user = await createTestUser(limited);
      const { port } = server.address() as AddressInfo;
      const name = uniqueName('huge');
      const body = publishBody(name, '1.0.0', Buffer.alloc(400_000, 3), { dist: { integrity: '', shasum: '' } });
      const res = await fetch(`http://127.0.0.1:${port}${npmRegistry(user.user.name)}/${name}`, {
        method: 'PUT',
        headers: { Authorization: user.auth, 'Content-Type': 'application/json' },
        body,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ error: expect.any(String) });
      expect(blobFiles(limited)).toHaveLength(0);
      expect(await limited.context.db.prisma.package.count()).toBe(0);
    } finally {
      server.close();
      await limited.close();
    }
  });
});
