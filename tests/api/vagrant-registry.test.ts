// The Vagrant registry under /api/packages/{owner}/vagrant through the whole app: box upload per version and
// provider, the metadata document `vagrant box add` reads, downloads, /authenticate; hostile boxes (400, nothing
// kept), size and quota (413); access and token scopes; the package API's view and its delete.
import { createHash } from 'node:crypto';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { claimedSizeArchive } from '../helpers/cargo.ts';
import { blobFiles } from '../helpers/packages.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import { boxArchive, vagrantRegistry } from '../helpers/vagrant.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
});
afterAll(() => t.close());

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function putBox(app: TestApp, owner: string, auth: string | null, path: string, box: Buffer) {
  const request = app.request().put(`${vagrantRegistry(owner)}/${path}`);
  if (auth) request.set('Authorization', auth);
  return request.set('Content-Type', 'application/octet-stream').send(box);
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

describe('upload and the metadata document', () => {
  it('takes boxes per version and provider and lists them, oldest version first, with checksums', async () => {
    const name = uniqueName('box');
    const vbox = await boxArchive('virtualbox', { description: 'old' });
    const libvirt = await boxArchive('libvirt', { description: 'old' });
    const newer = await boxArchive('virtualbox', { description: 'the newest', author: 'Alice' }, [], false);
    await putBox(t, alice.user.name, alice.auth, `${name}/1.10.0/virtualbox.box`, newer).expect(201);
    await putBox(t, alice.user.name, alice.auth, `${name}/1.2.0/virtualbox.box`, vbox).expect(201);
    await putBox(t, alice.user.name, alice.auth, `${name}/1.2.0/libvirt.box`, libvirt).expect(201);

    const base = `http://localhost:3000${vagrantRegistry(alice.user.name)}/${name}`;
    const head = await t
      .request()
      .head(`${vagrantRegistry(alice.user.name)}/${name}`)
      .expect(200);
    expect(head.headers['content-type']).toMatch(/^application\/json/);
    const res = await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/${name}`)
      .expect(200);
    expect(res.body).toEqual({
      name,
      description: 'the newest',
      versions: [
        {
          version: '1.2.0',
          status: 'active',
          providers: [
            {
              name: 'virtualbox',
              url: `${base}/1.2.0/virtualbox.box`,
              checksum: sha256(vbox),
              checksum_type: 'sha256',
            },
            { name: 'libvirt', url: `${base}/1.2.0/libvirt.box`, checksum: sha256(libvirt), checksum_type: 'sha256' },
          ],
        },
        {
          version: '1.10.0',
          status: 'active',
          providers: [
            {
              name: 'virtualbox',
              url: `${base}/1.10.0/virtualbox.box`,
              checksum: sha256(newer),
              checksum_type: 'sha256',
            },
          ],
        },
      ],
    });
    const file = await raw(`${vagrantRegistry(alice.user.name)}/${name}/1.2.0/libvirt.box`).expect(200);
    expect(Buffer.compare(file.body as Buffer, libvirt)).toBe(0);
  });

  it('answers 404 in its error form for a box or file that is not there, 409 for a provider the version has', async () => {
    const name = uniqueName('there');
    const box = await boxArchive();
    await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, box).expect(201);
    const again = await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, box).expect(409);
    expect(again.body).toEqual({ errors: [expect.any(String)] });
    const missing = await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/${uniqueName('nope')}`)
      .expect(404);
    expect(missing.body).toEqual({ errors: [expect.any(String)] });
    await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/${name}/1.0.0/libvirt.box`)
      .expect(404);
  });

  it('answers /authenticate 200 with a token and 401 without', async () => {
    await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/authenticate`)
      .expect(401);
    await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/authenticate`)
      .set('Authorization', `Bearer ${alice.token}`)
      .expect(200);
  });
});

describe('refusals', () => {
  it.each([
    ['a bad version', 'box/not-a-version/virtualbox.box'],
    ['a file not named <provider>.box', 'box/1.0.0/virtualbox.zip'],
    ['a bad name', '-box/1.0.0/virtualbox.box'],
  ])('refuses %s (400)', async (_label, path) => {
    await putBox(t, alice.user.name, alice.auth, path, await boxArchive()).expect(400);
  });

  it.each([
    ['path traversal', [{ name: '../../etc/cron.d/evil', body: 'x' }]],
    ['an absolute path', [{ name: '/etc/passwd', body: 'x' }]],
    ['a link out of the box', [{ name: './escape', type: 'symlink' as const, linkname: '/etc/shadow' }]],
    ['10 MB of info.json', [{ name: 'info.json', body: `{"description":"${'x'.repeat(10 * 1024 * 1024)}"}` }]],
  ])('refuses a box with %s (400) and keeps nothing', async (_label, extra) => {
    const before = blobFiles(t);
    const name = uniqueName('bad');
    const box = await boxArchive('virtualbox', {}, extra);
    const res = await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, box).expect(400);
    expect(res.body).toEqual({ errors: [expect.stringMatching(/^invalid box/)] });
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: name.toLowerCase() } })).toBe(0);
  });

  it('refuses a bomb (an entry claiming 2 GiB in a few KiB) and a body that is no archive (400)', async () => {
    const before = blobFiles(t);
    const name = uniqueName('bomb');
    const bomb = claimedSizeArchive('box-disk001.vmdk', 2 * 1024 * 1024 * 1024);
    const res = await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, bomb).expect(400);
    expect(res.body.errors[0]).toMatch(/size limit/);
    const text = Buffer.alloc(2048, 'x');
    await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, text).expect(400);
    expect(blobFiles(t)).toEqual(before);
  });

  it('refuses a box past [packages] LIMIT_SIZE_VAGRANT (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_VAGRANT: '100' });
    try {
      const carol = await createTestUser(limited);
      const name = uniqueName('big');
      await putBox(limited, carol.user.name, carol.auth, `${name}/1.0.0/virtualbox.box`, await boxArchive()).expect(
        413,
      );
      expect(await limited.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it("refuses a box past the owner's package quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t);
    const name = uniqueName('quota');
    const res = await putBox(t, owner.user.name, owner.auth, `${name}/1.0.0/virtualbox.box`, await boxArchive());
    expect(res.status).toBe(413);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.quotaReservation.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});

describe('access', () => {
  it('hides a private owner from an outsider (404) and anonymous callers, serves its members', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const name = uniqueName('secret');
    await putBox(t, org.name, alice.auth, `${name}/1.0.0/virtualbox.box`, await boxArchive()).expect(201);
    const url = `${vagrantRegistry(org.name)}/${name}`;
    await t.request().get(url).set('Authorization', bob.auth).expect(404);
    await t.request().get(url).expect(404);
    await putBox(t, org.name, bob.auth, `${name}/2.0.0/virtualbox.box`, await boxArchive()).expect(404);
    await t.request().get(url).set('Authorization', `Bearer ${alice.token}`).expect(200);
  });

  it('honours token scopes: read:package reads, write:package uploads, others neither; 403 on another owner', async () => {
    const name = uniqueName('scoped');
    await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, await boxArchive()).expect(201);
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const url = `${vagrantRegistry(alice.user.name)}/${name}`;
    await t.request().get(url).set('Authorization', `Bearer ${reader}`).expect(200);
    await t.request().get(url).set('Authorization', `Bearer ${other}`).expect(403);
    const box = await boxArchive();
    await putBox(t, alice.user.name, `Bearer ${reader}`, `${name}/2.0.0/virtualbox.box`, box).expect(403);
    await putBox(t, alice.user.name, `Bearer ${other}`, `${name}/2.0.0/virtualbox.box`, box).expect(403);
    await putBox(t, alice.user.name, `Bearer ${writer}`, `${name}/2.0.0/virtualbox.box`, box).expect(201);
    await putBox(t, alice.user.name, bob.auth, `${name}/3.0.0/virtualbox.box`, box).expect(403);
    await putBox(t, alice.user.name, null, `${name}/3.0.0/virtualbox.box`, box).expect(401);
  });
});

describe('the package API', () => {
  it('lists the versions with type vagrant; a deleted version leaves the metadata document', async () => {
    const name = uniqueName('listed');
    await putBox(t, alice.user.name, alice.auth, `${name}/1.0.0/virtualbox.box`, await boxArchive()).expect(201);
    await putBox(t, alice.user.name, alice.auth, `${name}/2.0.0/virtualbox.box`, await boxArchive()).expect(201);
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=vagrant&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((item: { version: string }) => item.version).sort()).toEqual(['1.0.0', '2.0.0']);
    expect(list.body[0]).toMatchObject({ type: 'vagrant', name });
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/vagrant/${name}/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const doc = await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/${name}`)
      .expect(200);
    expect(doc.body.versions.map((version: { version: string }) => version.version)).toEqual(['2.0.0']);
    await t
      .request()
      .get(`${vagrantRegistry(alice.user.name)}/${name}/1.0.0/virtualbox.box`)
      .expect(404);
  });
});
