// The ALT registry under /api/packages/{owner}/alt (apt-rpm's layout): uploads into groups, the .repo file, the
// index the job builds ({group}.repo/{arch}/base/ release, release.classic, pkglist.classic and .xz), release's
// digests matching the pkglist bytes, release.gpg verifying with repository.key, the pkglist read by librpm with the
// tags apt-rpm downloads by, downloads, delete, refused uploads keeping nothing, access and scopes.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as openpgp from 'openpgp';
import { readPkglist } from '../helpers/alt.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/alt`;
/** A group's repository root as apt-rpm's sources.list names it; the ungrouped repository is "alt". */
const repoUrl = (owner: string, group: string) => `${registry(owner)}/${group || 'alt'}.repo`;
const digest = (algorithm: string, bytes: Buffer) => createHash(algorithm).update(bytes).digest('hex');

function upload(app: TestApp, owner: string, group: string, auth: string | null, bytes: Buffer) {
  const request = app.request().put(group ? `${registry(owner)}/${group}/upload` : `${registry(owner)}/upload`);
  if (auth) request.set('Authorization', auth);
  return request.set('Content-Type', 'application/x-rpm').send(bytes);
}

function get(url: string, auth: string | null = alice.auth, app: TestApp = t) {
  const request = app
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

interface Named {
  hash: string;
  size: number;
  file: string;
}

/** The MD5Sum and BLAKE2b lists of a release. */
function releaseSums(text: string): { md5: Named[]; blake2b: Named[] } {
  const sums: { md5: Named[]; blake2b: Named[] } = { md5: [], blake2b: [] };
  let list: Named[] | null = null;
  for (const line of text.split('\n')) {
    if (line === 'MD5Sum:') list = sums.md5;
    else if (line === 'BLAKE2b:') list = sums.blake2b;
    else if (list && line.startsWith(' ')) {
      const [hash, size, file] = line.trim().split(/\s+/);
      list.push({ hash: hash!, size: Number(size), file: file! });
    } else list = null;
  }
  return sums;
}

async function verifies(data: Buffer, signature: Buffer, key: Buffer): Promise<boolean> {
  const verified = await openpgp.verify({
    message: await openpgp.createMessage({ binary: data }),
    signature: await openpgp.readSignature({ armoredSignature: signature.toString() }),
    verificationKeys: await openpgp.readKey({ armoredKey: key.toString() }),
  });
  return verified.signatures[0]!.verified.then(
    () => true,
    () => false,
  );
}

/** release after its signature is checked with the served key, each file it names checked by its digests. */
async function readRepository(owner: string, group: string, arch: string, auth = alice.auth) {
  const base = `${repoUrl(owner, group)}/${arch}/base`;
  const release = (await get(`${base}/release`, auth).expect(200)).body as Buffer;
  const signature = (await get(`${base}/release.gpg`, auth).expect(200)).body as Buffer;
  const key = (await get(`${registry(owner)}/repository.key`, auth).expect(200)).body as Buffer;
  expect(await verifies(release, signature, key)).toBe(true);
  const sums = releaseSums(release.toString());
  expect(sums.md5.map((entry) => entry.file)).toEqual([
    'base/pkglist.classic',
    'base/pkglist.classic.xz',
    'base/release.classic',
  ]);
  const files: Record<string, Buffer> = {};
  for (const [i, entry] of sums.md5.entries()) {
    const bytes = (await get(`${repoUrl(owner, group)}/${arch}/${entry.file}`, auth).expect(200)).body as Buffer;
    expect(bytes.length).toBe(entry.size);
    expect(digest('md5', bytes)).toBe(entry.hash);
    expect(digest('blake2b512', bytes)).toBe(sums.blake2b[i]!.hash);
    files[entry.file.slice('base/'.length)] = bytes;
  }
  const pkglist = files['pkglist.classic']!;
  expect(execFileSync('xz', ['-dc'], { input: files['pkglist.classic.xz'] }).equals(pkglist)).toBe(true);
  return { release, signature, key, pkglist, packages: readPkglist(pkglist), classic: files['release.classic']! };
}

describe('upload, index and download', () => {
  it('lists an uploaded package in a signed index apt-rpm reads and serves its bytes where the pkglist points', async () => {
    const name = uniqueName('hello');
    const rpm = buildRpm({ name, version: '1.0', requires: ['bash'] });
    await upload(t, alice.user.name, '', alice.auth, rpm.bytes).expect(201);
    await rebuild();
    const { packages, classic, release } = await readRepository(alice.user.name, '', 'noarch');
    expect(packages).toHaveLength(1);
    const [listed] = packages;
    expect(listed).toMatchObject({
      name,
      version: '1.0',
      release: '1',
      arch: 'noarch',
      fileName: `${name}-1.0-1.noarch.rpm`,
      fileSize: rpm.bytes.length,
      md5: digest('md5', rpm.bytes),
      blake2b: digest('blake2b512', rpm.bytes),
      directory: 'RPMS.classic',
    });
    expect(listed!.requires).toContain('bash');
    expect(classic.toString()).toMatch(/^Component: classic$/m);
    expect(classic.toString()).toMatch(/^Architecture: noarch$/m);
    expect(release.toString()).toMatch(/^Architectures: noarch$/m);
    // apt-rpm downloads {repo}/{arch}/{directory}/{fileName}: the upload, as it came.
    const url = `${repoUrl(alice.user.name, '')}/noarch/${listed!.directory}/${listed!.fileName}`;
    const download = (await get(url).expect(200)).body as Buffer;
    expect(download.equals(rpm.bytes)).toBe(true);
    await t.request().head(url).set('Authorization', alice.auth).expect(200);
    await get(`${repoUrl(alice.user.name, '')}/x86_64/RPMS.classic/${listed!.fileName}`).expect(404);
    await get(`${repoUrl(alice.user.name, '')}/noarch/base/dummy.xml`).expect(404);
    // The API's package list knows the type.
    const found = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=alt&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(found.body.map((entry: { name: string; version: string }) => [entry.name, entry.version])).toEqual([
      [name, '1.0-1'],
    ]);
  });

  it('keeps groups and architectures apart, with the .repo file Forgejo writes for each', async () => {
    const owner = alice;
    const name = uniqueName('grouped');
    const noarch = buildRpm({ name, version: '2.0' });
    const x86 = buildRpm({ name: `${name}-bin`, version: '2.0', arch: 'x86_64' });
    await upload(t, owner.user.name, 'el9/stable', owner.auth, noarch.bytes).expect(201);
    await upload(t, owner.user.name, 'el9/stable', owner.auth, x86.bytes).expect(201);
    await rebuild();
    const { packages } = await readRepository(owner.user.name, 'el9/stable', 'noarch', owner.auth);
    expect(packages.map((entry) => entry.name)).toEqual([name]);
    const other = await readRepository(owner.user.name, 'el9/stable', 'x86_64', owner.auth);
    expect(other.packages.map((entry) => entry.name)).toEqual([`${name}-bin`]);
    // A group without packages has no index; the ungrouped repository does not show the group's packages.
    await get(`${repoUrl(owner.user.name, 'el8')}/noarch/base/release`, owner.auth).expect(404);
    const file = `${name}-2.0-1.noarch.rpm`;
    await get(`${repoUrl(owner.user.name, 'el9/stable')}/noarch/RPMS.classic/${file}`, owner.auth).expect(200);
    await get(`${repoUrl(owner.user.name, '')}/noarch/RPMS.classic/${file}`, owner.auth).expect(404);

    const root = `${t.context.settings.server.ROOT_URL}api/packages/${owner.user.name}/alt`;
    const appName = t.context.settings[''].APP_NAME;
    const config = await t
      .request()
      .get(`${registry(owner.user.name)}/el9/stable.repo`)
      .set('Authorization', owner.auth);
    expect(config.status).toBe(200);
    expect(config.text).toBe(
      [
        `[gitea-${owner.user.name.toLowerCase()}-el9-stable]`,
        `name=${owner.user.name} - ${appName} - el9 - stable`,
        `baseurl=${root}/el9/stable`,
        'enabled=1',
      ].join('\n'),
    );
    const ungrouped = await t
      .request()
      .get(`${registry(owner.user.name)}/alt.repo`)
      .set('Authorization', owner.auth);
    expect(ungrouped.text).toContain(`baseurl=${root}/alt\n`);
  });

  it('refuses the same file twice in a group (409) and takes it in another group', async () => {
    const rpm = buildRpm({ name: uniqueName('twice'), version: '1.0' });
    await upload(t, alice.user.name, 'dup', alice.auth, rpm.bytes).expect(201);
    const again = await upload(t, alice.user.name, 'dup', alice.auth, rpm.bytes).expect(409);
    expect(again.headers['content-type']).toMatch(/^text\/plain/);
    await upload(t, alice.user.name, 'other', alice.auth, rpm.bytes).expect(201);
  });

  it('a changed byte of release no longer verifies, and a changed pkglist byte no longer matches release', async () => {
    const rpm = buildRpm({ name: uniqueName('t'), version: '1' });
    await upload(t, alice.user.name, 'tamper', alice.auth, rpm.bytes).expect(201);
    await rebuild();
    const { release, signature, key, pkglist } = await readRepository(alice.user.name, 'tamper', 'noarch');
    const changed = Buffer.from(release);
    changed[changed.indexOf('Codename: ') + 10] ^= 1;
    expect(await verifies(changed, signature, key)).toBe(false);
    const listed = releaseSums(release.toString()).md5.find((entry) => entry.file === 'base/pkglist.classic')!;
    const badList = Buffer.from(pkglist);
    badList[badList.length - 2] ^= 1;
    expect(digest('md5', badList)).not.toBe(listed.hash);
  });
});

describe('delete', () => {
  it('deletes a package; the index drops it and the emptied group has no index', async () => {
    const owner = alice;
    const keepName = uniqueName('keep');
    const dropName = uniqueName('drop');
    await upload(t, owner.user.name, 'del', owner.auth, buildRpm({ name: keepName, version: '1.0' }).bytes).expect(201);
    const drop = buildRpm({ name: dropName, version: '3.1', release: '2' });
    await upload(t, owner.user.name, 'del', owner.auth, drop.bytes).expect(201);
    await rebuild();
    expect((await readRepository(owner.user.name, 'del', 'noarch', owner.auth)).packages).toHaveLength(2);
    const target = `${repoUrl(owner.user.name, 'del')}/noarch/RPMS.classic/${dropName}-3.1-2.noarch.rpm`;
    await t.request().delete(target).set('Authorization', bob.auth).expect(403);
    await t.request().delete(target).set('Authorization', owner.auth).expect(204);
    await t.request().delete(target).set('Authorization', owner.auth).expect(404);
    await rebuild();
    const { packages } = await readRepository(owner.user.name, 'del', 'noarch', owner.auth);
    expect(packages.map((entry) => entry.name)).toEqual([keepName]);
    await get(target, owner.auth).expect(404);
    await t
      .request()
      .delete(`${repoUrl(owner.user.name, 'del')}/noarch/RPMS.classic/${keepName}-1.0-1.noarch.rpm`)
      .set('Authorization', owner.auth)
      .expect(204);
    await rebuild();
    await get(`${repoUrl(owner.user.name, 'del')}/noarch/base/release`, owner.auth).expect(404);
    await get(`${repoUrl(owner.user.name, 'del')}/noarch/base/pkglist.classic`, owner.auth).expect(404);
  });
});

describe('refused uploads keep nothing', () => {
  const noRows = async (owner: TestUser) =>
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id, type: 'alt' } })).toBe(0);

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
  });

  it('refuses a package past [packages] LIMIT_SIZE_ALT (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_ALT: '1000' });
    try {
      const owner = await createTestUser(limited);
      const rpm = buildRpm({ name: uniqueName('limited'), version: '1' });
      expect(rpm.bytes.length).toBeGreaterThan(1000);
      await upload(limited, owner.user.name, '', owner.auth, rpm.bytes).expect(413);
      expect(await limited.context.db.prisma.package.count({ where: { ownerId: owner.user.id, type: 'alt' } })).toBe(0);
    } finally {
      await limited.close();
    }
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
    const name = uniqueName('secret');
    await upload(t, org.name, '', alice.auth, buildRpm({ name, version: '1' }).bytes).expect(201);
    await rebuild();
    const release = `${repoUrl(org.name, '')}/noarch/base/release`;
    await get(release, bob.auth).expect(404);
    await get(`${registry(org.name)}/repository.key`, bob.auth).expect(404);
    await get(`${registry(org.name)}/alt.repo`, bob.auth).expect(404);
    await get(`${repoUrl(org.name, '')}/noarch/RPMS.classic/${name}-1-1.noarch.rpm`, bob.auth).expect(404);
    await upload(t, org.name, '', bob.auth, buildRpm({ name: uniqueName('x'), version: '1' }).bytes).expect(404);
    await get(release, alice.auth).expect(200);
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
    const release = `${repoUrl(alice.user.name, 'scoped')}/noarch/base/release`;
    await get(release, `token ${reader}`).expect(200);
    await get(release, `token ${other}`).expect(403);
  });
});
