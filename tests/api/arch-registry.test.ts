// The Arch registry under /api/packages/{owner}/arch: uploads in the three compressions, the signed databases the
// index job builds (the database and each package's signature verify with repository.key), downloads, delete,
// refused uploads keeping nothing (no archive, no .PKGINFO, a decompression bomb), quota, a private owner, scopes.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import * as openpgp from 'openpgp';
import tar from 'tar-stream';
import {
  basicAuth,
  createTestOrg,
  createTestUser,
  createToken,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { buildArchPackage } from '../helpers/arch.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/arch`;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function upload(owner: string, repository: string, auth: string | null, bytes: Buffer) {
  const request = t.request().put(`${registry(owner)}/${repository}`);
  if (auth) request.set('Authorization', auth);
  return request.set('Content-Type', 'application/octet-stream').send(bytes);
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

const rebuild = () => t.context.services.packageIndexes.runDue(10);

async function verify(data: Buffer, signature: Buffer, owner: string): Promise<boolean> {
  const key = (await get(`${registry(owner)}/repository.key`).expect(200)).body as Buffer;
  const verified = await openpgp.verify({
    message: await openpgp.createMessage({ binary: data }),
    signature: await openpgp.readSignature({ binarySignature: signature }),
    verificationKeys: await openpgp.readKey({ armoredKey: key.toString() }),
  });
  return verified.signatures[0]!.verified.then(
    () => true,
    () => false,
  );
}

/** The `desc` (or `files`) entries of a database, by directory. */
async function descs(db: Buffer, entry = 'desc'): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  const extract = tar.extract();
  extract.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      const suffix = `/${entry}`;
      if (header.name.endsWith(suffix))
        found.set(header.name.slice(0, -suffix.length), Buffer.concat(chunks).toString());
      next();
    });
  });
  const done = new Promise((resolve) => extract.on('finish', resolve));
  extract.end(gunzipSync(db));
  await done;
  return found;
}

describe('upload, databases and download', () => {
  it.each(['zst', 'xz', 'gz'] as const)('lists a %s package in a signed database, with its signature', async (kind) => {
    const name = uniqueName('hello').toLowerCase();
    const pkg = buildArchPackage({ name, version: '1.0.0-1', arch: 'x86_64', compression: kind, depends: ['glibc'] });
    await upload(alice.user.name, `core-${kind}`, alice.auth, pkg.bytes).expect(201);
    await rebuild();
    const base = `${registry(alice.user.name)}/core-${kind}/x86_64`;
    const db = (await get(`${base}/anything.db`).expect(200)).body as Buffer;
    const dbSig = (await get(`${base}/anything.db.sig`).expect(200)).body as Buffer;
    expect(await verify(db, dbSig, alice.user.name)).toBe(true);
    const desc = (await descs(db)).get(`${name}-1.0.0-1`)!;
    expect(desc).toContain(`%FILENAME%\n${pkg.fileName}\n`);
    expect(desc).toContain(`%SHA256SUM%\n${sha256(pkg.bytes)}\n`);
    expect(desc).toContain('%DEPENDS%\nglibc\n');
    const download = (await get(`${base}/${pkg.fileName}`).expect(200)).body as Buffer;
    expect(download.equals(pkg.bytes)).toBe(true);
    const signature = (await get(`${base}/${pkg.fileName}.sig`).expect(200)).body as Buffer;
    expect(await verify(pkg.bytes, signature, alice.user.name)).toBe(true);
    expect(desc).toContain(`%PGPSIG%\n${signature.toString('base64')}\n`);
    // The .files database: the same entries with the paths each package installs (not makepkg's .PKGINFO).
    const files = (await get(`${base}/anything.files`).expect(200)).body as Buffer;
    const filesSig = (await get(`${base}/anything.files.sig`).expect(200)).body as Buffer;
    expect(await verify(files, filesSig, alice.user.name)).toBe(true);
    expect((await descs(files)).get(`${name}-1.0.0-1`)).toBe(desc);
    expect((await descs(files, 'files')).get(`${name}-1.0.0-1`)).toBe(
      `%FILES%\nusr/\nusr/share/\nusr/share/${name}/\nusr/share/${name}/README\n\n`,
    );
    // A changed byte of the database no longer verifies.
    const changed = Buffer.from(db);
    changed[20] ^= 1;
    expect(await verify(changed, dbSig, alice.user.name)).toBe(false);
  });

  it('serves `any` packages in every architecture and refuses the same file twice (409)', async () => {
    const name = uniqueName('noarch').toLowerCase();
    const pkg = buildArchPackage({ name, version: '2.0-3' });
    await upload(alice.user.name, 'extra', alice.auth, pkg.bytes).expect(201);
    await upload(alice.user.name, 'extra', alice.auth, pkg.bytes).expect(409);
    await rebuild();
    for (const arch of ['x86_64', 'aarch64']) {
      const db = (await get(`${registry(alice.user.name)}/extra/${arch}/extra.db`).expect(200)).body as Buffer;
      expect([...(await descs(db)).keys()]).toEqual([`${name}-2.0-3`]);
    }
  });

  it('deletes a package: the next database drops it and an emptied repository has none', async () => {
    const name = uniqueName('gone').toLowerCase();
    await upload(alice.user.name, 'del', alice.auth, buildArchPackage({ name, version: '1-1' }).bytes).expect(201);
    await rebuild();
    const target = `${registry(alice.user.name)}/del/${name}/1-1/any`;
    await t.request().delete(target).set('Authorization', bob.auth).expect(403);
    await t.request().delete(target).set('Authorization', alice.auth).expect(204);
    await t.request().delete(target).set('Authorization', alice.auth).expect(404);
    await rebuild();
    await get(`${registry(alice.user.name)}/del/x86_64/del.db`).expect(404);
  });
});

describe('refused uploads keep nothing', () => {
  async function refused(bytes: Buffer) {
    const owner = await createTestUser(t);
    const before = blobFiles(t);
    const res = await upload(owner.user.name, 'core', owner.auth, bytes).expect(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  }

  it('refuses what is no compressed archive', () => refused(Buffer.from('plain text, no package '.repeat(20))));

  it('refuses an archive without .PKGINFO', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'usr/share/x' }, 'x');
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const chunk of pack) chunks.push(chunk as Buffer);
    await refused(gzipSync(Buffer.concat(chunks)));
  });

  it('refuses a decompression bomb before reading past its bound', async () => {
    // 200 MiB of zeros in a file ahead of .PKGINFO: a small upload that would decompress far past the bound.
    const header = Buffer.alloc(512);
    header.write('bomb', 0);
    header.write('00000000644\0', 100);
    header.write((200 * 1024 * 1024).toString(8).padStart(11, '0') + '\0', 124);
    header.write('0', 156);
    header.write('ustar\u000000', 257);
    header.fill(' ', 148, 156);
    let sum = 0;
    for (const byte of header) sum += byte;
    header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148);
    const bomb = gzipSync(Buffer.concat([header, Buffer.alloc(200 * 1024 * 1024)]));
    expect(bomb.length).toBeLessThan(1024 * 1024);
    await refused(bomb);
  });

  it.each([
    ['a name pacman refuses', 'pkgname = -bad'],
    ['no version', 'pkgver = '],
  ])('refuses %s', async (_label, line) => {
    const pkg = buildArchPackage({ name: 'valid', version: '1-1', compression: 'gz' });
    const text = gunzipSync(pkg.bytes).toString('latin1');
    const key = line.split(' = ')[0]!;
    const replaced = text.replace(
      new RegExp(`${key} = [^\\n]*`),
      line.padEnd(`${key} = ${key === 'pkgname' ? 'valid' : '1-1'}`.length, ' '),
    );
    await refused(gzipSync(Buffer.from(replaced, 'latin1')));
  });

  it("refuses an upload once the owner's package quota is used up (413)", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    await t
      .request()
      .put(`/api/packages/${owner.user.name}/generic/filler/1/filler.bin`)
      .set('Authorization', owner.auth)
      .send(Buffer.alloc(100, 1))
      .expect(201);
    await upload(owner.user.name, 'core', owner.auth, buildArchPackage({ name: 'big', version: '1-1' }).bytes).expect(
      413,
    );
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id, type: 'arch' } })).toBe(0);
  });
});

describe('access', () => {
  it('hides a private owner from an outsider (404), asks anonymous uploaders to sign in (401)', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const pkg = buildArchPackage({ name: 'secret', version: '1-1' });
    await upload(alice.user.name, 'core', null, pkg.bytes).expect(401);
    await upload(org.name, 'core', null, pkg.bytes).expect(404);
    await upload(org.name, 'core', alice.auth, pkg.bytes).expect(201);
    await upload(org.name, 'core', bob.auth, pkg.bytes).expect(404);
    await get(`${registry(org.name)}/core/x86_64/${pkg.fileName}`, bob.auth).expect(404);
    await get(`${registry(org.name)}/repository.key`, bob.auth).expect(404);
    await get(`${registry(org.name)}/core/x86_64/${pkg.fileName}`, alice.auth).expect(200);
  });

  it('honours token scopes: read:package reads, write:package uploads', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const pkg = buildArchPackage({ name: uniqueName('scoped').toLowerCase(), version: '1-1' });
    await upload(alice.user.name, 'scoped', basicAuth(alice.user.name, reader), pkg.bytes).expect(403);
    await upload(alice.user.name, 'scoped', basicAuth(alice.user.name, writer), pkg.bytes).expect(201);
    await get(`${registry(alice.user.name)}/scoped/any/${pkg.fileName}`, `token ${reader}`).expect(200);
  });
});
