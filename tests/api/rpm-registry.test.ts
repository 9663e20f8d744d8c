// The RPM registry under /api/packages/{owner}/rpm: uploads into groups, the .repo file, the signed repodata the
// index job builds (repomd.xml naming primary/filelists/other with their checksums, repomd.xml.asc verifying with
// repository.key), downloads where primary.xml points, delete, refused uploads keeping nothing, access and scopes.
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import * as openpgp from 'openpgp';
import {
  basicAuth,
  createTestOrg,
  createTestUser,
  createToken,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { blobFiles } from '../helpers/packages.ts';
import { buildRpm } from '../helpers/rpm.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/rpm`;
const groupUrl = (owner: string, group: string) => (group ? `${registry(owner)}/${group}` : registry(owner));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ['data', 'package'].includes(name),
});

function upload(t2: TestApp, owner: string, group: string, auth: string | null, bytes: Buffer) {
  const request = t2.request().put(`${groupUrl(owner, group)}/upload`);
  if (auth) request.set('Authorization', auth);
  return request.set('Content-Type', 'application/x-rpm').send(bytes);
}

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

/** Runs the index rebuilds the changes asked for, as the background worker would. */
async function rebuild(): Promise<void> {
  await t.context.services.packageIndexes.runDue(10);
}

/** repomd.xml after its signature is checked against the served key, and the primary list it names. */
async function readRepository(owner: string, group: string, auth = alice.auth) {
  const base = groupUrl(owner, group);
  const repomd = (await get(`${base}/repodata/repomd.xml`, auth).expect(200)).body as Buffer;
  const asc = (await get(`${base}/repodata/repomd.xml.asc`, auth).expect(200)).body as Buffer;
  const key = (await get(`${registry(owner)}/repository.key`, auth).expect(200)).body as Buffer;
  const verified = await openpgp.verify({
    message: await openpgp.createMessage({ binary: repomd }),
    signature: await openpgp.readSignature({ armoredSignature: asc.toString() }),
    verificationKeys: await openpgp.readKey({ armoredKey: key.toString() }),
  });
  await expect(verified.signatures[0]!.verified).resolves.toBe(true);
  const data = parser.parse(repomd.toString()).repomd.data as Record<string, any>[];
  const lists: Record<string, any> = {};
  for (const entry of data) {
    const gz = (await get(`${base}/${entry.location.href}`, auth).expect(200)).body as Buffer;
    expect(sha256(gz)).toBe(entry.checksum['#text']);
    expect(gz.length).toBe(Number(entry.size));
    lists[entry.type] = parser.parse(gunzipSync(gz).toString());
  }
  return { repomd, asc, key, primary: lists.primary.metadata, filelists: lists.filelists.filelists };
}

describe('upload, index and download', () => {
  it('lists an uploaded package in signed repodata and serves its bytes where primary.xml points', async () => {
    const name = uniqueName('hello');
    const rpm = buildRpm({ name, version: '1.0', requires: ['bash'] });
    await upload(t, alice.user.name, '', alice.auth, rpm.bytes).expect(201);
    await rebuild();
    const { primary, filelists } = await readRepository(alice.user.name, '');
    const listed = (primary.package as any[]).find((entry) => entry.name === name);
    expect(listed).toMatchObject({
      arch: 'noarch',
      version: { epoch: '0', ver: '1.0', rel: '1' },
      checksum: { type: 'sha256' },
    });
    expect(listed.location.href).toBe(`package/${name}/1.0-1/noarch/${name}-1.0-1.noarch.rpm`);
    expect((filelists.package as any[]).some((entry) => entry.name === name)).toBe(true);
    const download = (await get(`${registry(alice.user.name)}/${listed.location.href}`).expect(200)).body as Buffer;
    expect(sha256(download)).toBe(listed.checksum['#text']);
    expect(download.length).toBe(Number(listed.size.package));
    // The stored package is the upload with a signed header: the main header and the payload are the same bytes.
    const mainHeader = Number(listed.format['rpm:header-range'].start);
    const tail = rpm.bytes.length - (download.length - mainHeader);
    expect(download.subarray(mainHeader).equals(rpm.bytes.subarray(tail))).toBe(true);
    // The short form without a file name, and HEAD.
    await get(`${registry(alice.user.name)}/package/${name}/1.0-1/noarch`).expect(200);
    await t
      .request()
      .head(`${registry(alice.user.name)}/package/${name}/1.0-1/noarch`)
      .set('Authorization', alice.auth)
      .expect(200);
  });

  it('keeps groups apart, with a .repo file for each and one for the ungrouped repository', async () => {
    const owner = alice;
    const name = uniqueName('grouped');
    await upload(t, owner.user.name, 'el/9', owner.auth, buildRpm({ name, version: '2.0' }).bytes).expect(201);
    await rebuild();
    const { primary } = await readRepository(owner.user.name, 'el/9', owner.auth);
    expect(primary.package.map((entry: any) => entry.name)).toEqual([name]);
    // A group without packages has no repodata.
    await get(`${registry(owner.user.name)}/el/8/repodata/repomd.xml`, owner.auth).expect(404);
    await get(`${registry(owner.user.name)}/el/9/package/${name}/2.0-1/noarch`, owner.auth).expect(200);
    await get(`${registry(owner.user.name)}/package/${name}/2.0-1/noarch`, owner.auth).expect(404);

    const config = await t
      .request()
      .get(`${registry(owner.user.name)}/el/9.repo`)
      .set('Authorization', owner.auth)
      .expect(200);
    const root = t.context.settings.server.ROOT_URL;
    expect(config.text).toContain(`baseurl=${root}api/packages/${owner.user.name}/rpm/el/9\n`);
    expect(config.text).toContain(`gpgkey=${root}api/packages/${owner.user.name}/rpm/repository.key\n`);
    expect(config.text).toMatch(/^gpgcheck=1$/m);
    expect(config.text).toMatch(/^repo_gpgcheck=1$/m);
    const ungrouped = await t
      .request()
      .get(`/api/packages/${owner.user.name}/rpm.repo`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(ungrouped.text).toContain(`baseurl=${root}api/packages/${owner.user.name}/rpm\n`);
  });

  it('refuses the same file twice in a group (409) and takes it in another group', async () => {
    const rpm = buildRpm({ name: uniqueName('twice'), version: '1.0' });
    await upload(t, alice.user.name, 'dup', alice.auth, rpm.bytes).expect(201);
    const again = await upload(t, alice.user.name, 'dup', alice.auth, rpm.bytes).expect(409);
    expect(again.headers['content-type']).toMatch(/^text\/plain/);
    await upload(t, alice.user.name, 'other', alice.auth, rpm.bytes).expect(201);
  });

  it('a changed byte of repomd.xml no longer verifies with the served key', async () => {
    await upload(
      t,
      alice.user.name,
      'tamper',
      alice.auth,
      buildRpm({ name: uniqueName('t'), version: '1' }).bytes,
    ).expect(201);
    await rebuild();
    const { repomd, asc, key } = await readRepository(alice.user.name, 'tamper');
    const changed = Buffer.from(repomd);
    changed[changed.indexOf('<revision>') + 10] ^= 1;
    const verified = await openpgp.verify({
      message: await openpgp.createMessage({ binary: changed }),
      signature: await openpgp.readSignature({ armoredSignature: asc.toString() }),
      verificationKeys: await openpgp.readKey({ armoredKey: key.toString() }),
    });
    await expect(verified.signatures[0]!.verified).rejects.toThrow();
  });
});

describe('delete', () => {
  it('deletes a package; the index drops it and the emptied group has no repodata', async () => {
    const owner = alice;
    const keepName = uniqueName('keep');
    const dropName = uniqueName('drop');
    await upload(t, owner.user.name, 'del', owner.auth, buildRpm({ name: keepName, version: '1.0' }).bytes).expect(201);
    const drop = buildRpm({ name: dropName, version: '3.1', release: '2' });
    await upload(t, owner.user.name, 'del', owner.auth, drop.bytes).expect(201);
    await rebuild();
    expect((await readRepository(owner.user.name, 'del', owner.auth)).primary.package).toHaveLength(2);
    const target = `${registry(owner.user.name)}/del/package/${dropName}/3.1-2/noarch`;
    await t.request().delete(target).set('Authorization', bob.auth).expect(403);
    await t.request().delete(target).set('Authorization', owner.auth).expect(204);
    await t.request().delete(target).set('Authorization', owner.auth).expect(404);
    await rebuild();
    const { primary } = await readRepository(owner.user.name, 'del', owner.auth);
    expect(primary.package.map((entry: any) => entry.name)).toEqual([keepName]);
    await get(target, owner.auth).expect(404);
    await t
      .request()
      .delete(`${registry(owner.user.name)}/del/package/${keepName}/1.0-1/noarch`)
      .set('Authorization', owner.auth)
      .expect(204);
    await rebuild();
    await get(`${registry(owner.user.name)}/del/repodata/repomd.xml`, owner.auth).expect(404);
  });
});

describe('refused uploads keep nothing', () => {
  const noRows = async (owner: TestUser) =>
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id, type: 'rpm' } })).toBe(0);

  it.each([
    ['bytes that are no rpm', Buffer.from('definitely not an rpm package, just some text '.repeat(10))],
    ['an rpm cut inside its headers', buildRpm({ name: 'cut', version: '1' }).bytes.subarray(0, 1500)],
  ])('refuses %s with 400 in plain text', async (_label, bytes) => {
    const owner = await createTestUser(t);
    const before = blobFiles(t);
    const res = await upload(t, owner.user.name, '', owner.auth, bytes).expect(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(blobFiles(t)).toEqual(before);
    await noRows(owner);
  });

  it('refuses a header that claims huge metadata (400) before reading it', async () => {
    const owner = await createTestUser(t);
    const bytes = Buffer.from(buildRpm({ name: 'huge', version: '1' }).bytes);
    // The signature header's store size: 200 MiB of metadata announced.
    bytes.writeUInt32BE(200 * 1024 * 1024, 96 + 12);
    await upload(t, owner.user.name, '', owner.auth, bytes).expect(400);
    await noRows(owner);
  });

  it("refuses an upload once the owner's package quota is used up (413)", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    await upload(t, owner.user.name, '', owner.auth, Buffer.alloc(0)).expect(400);
    await t
      .request()
      .put(`/api/packages/${owner.user.name}/generic/filler/1/filler.bin`)
      .set('Authorization', owner.auth)
      .send(Buffer.alloc(100, 1))
      .expect(201);
    const rpm = buildRpm({ name: uniqueName('big'), version: '1' });
    const res = await upload(t, owner.user.name, '', owner.auth, rpm.bytes).expect(413);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    await noRows(owner);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });

  it('refuses a group path that is no group (404)', async () => {
    const rpm = buildRpm({ name: uniqueName('g'), version: '1' });
    await upload(t, alice.user.name, '.hidden/x', alice.auth, rpm.bytes).expect(404);
  });
});

describe('access', () => {
  it('asks an anonymous uploader to sign in (401) and refuses another user (403)', async () => {
    const rpm = buildRpm({ name: uniqueName('anon'), version: '1' });
    const res = await upload(t, alice.user.name, '', null, rpm.bytes).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
    await upload(t, alice.user.name, '', bob.auth, rpm.bytes).expect(403);
  });

  it('hides a private owner from an outsider (404) and serves its members', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    await upload(t, org.name, '', alice.auth, buildRpm({ name: uniqueName('secret'), version: '1' }).bytes).expect(201);
    await rebuild();
    await get(`${registry(org.name)}/repodata/repomd.xml`, bob.auth).expect(404);
    await get(`${registry(org.name)}/repository.key`, bob.auth).expect(404);
    await get(`/api/packages/${org.name}/rpm.repo`, bob.auth).expect(404);
    await upload(t, org.name, '', bob.auth, buildRpm({ name: uniqueName('x'), version: '1' }).bytes).expect(404);
    await get(`${registry(org.name)}/repodata/repomd.xml`, alice.auth).expect(200);
  });

  it('honours token scopes: read:package reads, write:package uploads', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const rpm = buildRpm({ name: uniqueName('scoped'), version: '1' });
    await upload(t, alice.user.name, 'scoped', basicAuth(alice.user.name, reader), rpm.bytes).expect(403);
    await upload(t, alice.user.name, 'scoped', basicAuth(alice.user.name, other), rpm.bytes).expect(403);
    await upload(t, alice.user.name, 'scoped', basicAuth(alice.user.name, writer), rpm.bytes).expect(201);
    await rebuild();
    await get(`${registry(alice.user.name)}/scoped/repodata/repomd.xml`, `token ${reader}`).expect(200);
    await get(`${registry(alice.user.name)}/scoped/repodata/repomd.xml`, `token ${other}`).expect(403);
  });
});
