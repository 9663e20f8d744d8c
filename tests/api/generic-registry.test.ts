// The generic package registry: PUT, GET and DELETE under /api/packages/{owner}/generic, streamed into the
// content-addressed blob store.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
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
import { blobFiles, filesUnder, genericUrl, sha256, storeDir, upload } from '../helpers/packages.ts';
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

/** The raw bytes of a download (supertest would parse text). */
function download(url: string, headers: Record<string, string> = {}) {
  const request = t
    .request()
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  return request;
}

describe('upload and download', () => {
  it('stores a file (201) and serves the same bytes with length, type, ETag and disposition', async () => {
    const bytes = randomBytes(300 * 1024);
    const name = uniqueName('tool');
    await upload(t, alice.auth, alice.user.name, name, '1.0.0', 'tool.bin', bytes).expect(201);
    const res = await download(genericUrl(alice.user.name, name, '1.0.0', 'tool.bin'), {
      Authorization: alice.auth,
    }).expect(200);
    expect(Buffer.compare(res.body, bytes)).toBe(0);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers.etag).toBe(`"${sha256(bytes)}"`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="tool.bin"; filename*=UTF-8''tool.bin`);
    expect(Date.parse(res.headers['last-modified'])).not.toBeNaN();
  });

  it('serves text as plain text and never as HTML', async () => {
    const name = uniqueName('page');
    await upload(
      t,
      alice.auth,
      alice.user.name,
      name,
      '1',
      'index.html',
      Buffer.from('<script>alert(1)</script>'),
    ).expect(201);
    const res = await download(genericUrl(alice.user.name, name, '1', 'index.html')).expect(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('lets anyone download what a public owner publishes, and counts downloads', async () => {
    const name = uniqueName('pub');
    const bytes = Buffer.from('public bytes');
    await upload(t, alice.auth, alice.user.name, name, '2.0', 'a.txt', bytes).expect(201);
    const res = await download(genericUrl(alice.user.name, name, '2.0', 'a.txt')).expect(200);
    expect(res.body.toString()).toBe('public bytes');
    await t.context.repos.packages.flushDownloads();
    const version = await t.context.db.prisma.packageVersion.findFirstOrThrow({
      where: { package: { ownerId: alice.user.id, lowerName: name } },
    });
    expect(version.downloadCount).toBe(1);
  });

  it('honours one byte range (206), a suffix range, an open range, 416 past the end and If-None-Match', async () => {
    const bytes = randomBytes(10_000);
    const name = uniqueName('ranged');
    await upload(t, alice.auth, alice.user.name, name, '1.0', 'r.bin', bytes).expect(201);
    const url = genericUrl(alice.user.name, name, '1.0', 'r.bin');

    const middle = await download(url, { Range: 'bytes=100-199' }).expect(206);
    expect(Buffer.compare(middle.body, bytes.subarray(100, 200))).toBe(0);
    expect(middle.headers['content-range']).toBe('bytes 100-199/10000');
    expect(middle.headers['content-length']).toBe('100');

    const tail = await download(url, { Range: 'bytes=-10' }).expect(206);
    expect(Buffer.compare(tail.body, bytes.subarray(9990))).toBe(0);
    const open = await download(url, { Range: 'bytes=9000-' }).expect(206);
    expect(Buffer.compare(open.body, bytes.subarray(9000))).toBe(0);
    const clipped = await download(url, { Range: 'bytes=9990-20000' }).expect(206);
    expect(clipped.headers['content-range']).toBe('bytes 9990-9999/10000');

    const beyond = await download(url, { Range: 'bytes=10000-' }).expect(416);
    expect(beyond.headers['content-range']).toBe('bytes */10000');
    // Several ranges or a stale If-Range: the whole file.
    expect((await download(url, { Range: 'bytes=0-1,5-6' }).expect(200)).body.length).toBe(10_000);
    expect((await download(url, { Range: 'bytes=0-1', 'If-Range': '"stale"' }).expect(200)).body.length).toBe(10_000);

    const etag = `"${sha256(bytes)}"`;
    await download(url, { 'If-None-Match': etag }).expect(304);
    expect((await download(url, { Range: 'bytes=0-0', 'If-Range': etag }).expect(206)).body.length).toBe(1);
  });

  it('stores an empty file', async () => {
    const name = uniqueName('empty');
    await upload(t, alice.auth, alice.user.name, name, '1', 'empty', Buffer.alloc(0)).expect(201);
    const res = await download(genericUrl(alice.user.name, name, '1', 'empty')).expect(200);
    expect(res.body.length).toBe(0);
  });

  it('answers 409 for a file of that name in the version (any case), keeps the first, and adds other files', async () => {
    const name = uniqueName('dup');
    const first = Buffer.from('first');
    await upload(t, alice.auth, alice.user.name, name, '1.0', 'file.txt', first).expect(201);
    const again = await upload(t, alice.auth, alice.user.name, name, '1.0', 'FILE.txt', Buffer.from('second')).expect(
      409,
    );
    expect(again.body.message).toBe('package file already exists');
    await upload(t, alice.auth, alice.user.name, name, '1.0', 'other.txt').expect(201);
    await upload(t, alice.auth, alice.user.name, name, '1.1', 'file.txt').expect(201);
    const res = await download(genericUrl(alice.user.name, name, '1.0', 'file.txt')).expect(200);
    expect(res.body.toString()).toBe('first');
  });

  it('answers 404 for a missing package, version or file', async () => {
    const name = uniqueName('miss');
    await upload(t, alice.auth, alice.user.name, name, '1.0', 'here.txt').expect(201);
    await download(genericUrl(alice.user.name, uniqueName('none'), '1.0', 'here.txt')).expect(404);
    await download(genericUrl(alice.user.name, name, '9.9', 'here.txt')).expect(404);
    await download(genericUrl(alice.user.name, name, '1.0', 'gone.txt')).expect(404);
    await download(genericUrl(uniqueName('nobody'), name, '1.0', 'here.txt')).expect(404);
  });
});

describe('names', () => {
  const badCases: Array<[string, string, string, string]> = [
    ['name ..', '%2E%2E', '1.0', 'f.bin'],
    ['name with %2F', 'a%2Fb', '1.0', 'f.bin'],
    ['one-character name that is no letter or digit', '-', '1.0', 'f.bin'],
    ['name with a space', 'a%20b', '1.0', 'f.bin'],
    ['name with unicode', '%E2%9C%93', '1.0', 'f.bin'],
    ['version ..', 'pkg', '%2E%2E', 'f.bin'],
    ['version .', 'pkg', '%2E', 'f.bin'],
    ['version with %2F', 'pkg', '1%2F0', 'f.bin'],
    ['version with a backslash', 'pkg', '1%5C0', 'f.bin'],
    ['version with surrounding space', 'pkg', '%201.0', 'f.bin'],
    ['file name ..', 'pkg', '1.0', '%2E%2E'],
    ['file name .', 'pkg', '1.0', '%2E'],
    ['file name with %2F', 'pkg', '1.0', '..%2F..%2Fescape'],
    ['file name with a backslash', 'pkg', '1.0', '..%5Cescape'],
    ['file name with a trailing space', 'pkg', '1.0', 'f.bin%20'],
    ['file name with a NUL', 'pkg', '1.0', 'f%00.bin'],
    ['file name with a newline', 'pkg', '1.0', 'f%0A.bin'],
  ];

  it.each(badCases)('refuses a %s (400) and writes nothing anywhere', async (_label, name, version, fileName) => {
    const dataDir = t.dataDir;
    const isDatabase = (file: string) => /^anvil\.db/.test(file);
    const before = [...filesUnder(dataDir)].filter(([file]) => !isDatabase(file));
    const res = await t
      .request()
      .put(`/api/packages/${alice.user.name}/generic/${name}/${version}/${fileName}`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(randomBytes(4096));
    // A NUL never reaches a handler (the request hygiene answers 404); everything else is the registry's 400.
    expect(res.status).toBe(fileName.includes('%00') ? 404 : 400);
    const after = [...filesUnder(dataDir)].filter(([file]) => !isDatabase(file));
    expect(after).toEqual(before);
    expect(
      await t.context.db.prisma.package.count({
        where: { ownerId: alice.user.id, lowerName: { in: ['pkg', '..', 'a/b'] } },
      }),
    ).toBe(0);
  });

  it.each([
    ['pkg', '1.0', '..'],
    ['..', '1.0', 'f.bin'],
    ['pkg', '..', 'f.bin'],
    ['..', '..', '..'],
  ])('answers a raw dot segment (%s/%s/%s) with a 4xx and writes nothing', async (name, version, fileName) => {
    const before = blobFiles(t);
    const res = await t
      .request()
      .put(`/api/packages/${alice.user.name}/generic/${name}/${version}/${fileName}`)
      .set('Authorization', alice.auth)
      .send(randomBytes(512));
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(blobFiles(t)).toEqual(before);
    expect([...filesUnder(path.join(storeDir(t), 'tmp')).keys()]).toEqual([]);
  });

  it('accepts what Forgejo accepts', async () => {
    const name = `A-b_c+d.${uniqueName('e')}`;
    await upload(
      t,
      alice.auth,
      alice.user.name,
      name,
      'v1.0.0-rc.1+build.5',
      'file name=(1)[2]{3}~!@#$^&.tar.gz',
    ).expect(201);
    await upload(t, alice.auth, alice.user.name, 'x', '1', 'f').expect(201);
  });

  it('writes only inside the store: a good upload adds one blob file there and nothing elsewhere', async () => {
    const dataDir = t.dataDir;
    const store = path.relative(dataDir, storeDir(t));
    const isDatabase = (file: string) => /^anvil\.db/.test(file);
    const outsideStore = () =>
      [...filesUnder(dataDir)].filter(([file]) => !isDatabase(file) && !file.startsWith(`${store}${path.sep}`));
    const before = outsideStore();
    const bytes = randomBytes(2048);
    await upload(t, alice.auth, alice.user.name, uniqueName('inside'), '1', 'f.bin', bytes).expect(201);
    expect(outsideStore()).toEqual(before);
    const hash = sha256(bytes);
    expect(blobFiles(t)).toContain(path.join(hash.slice(0, 2), hash.slice(2, 4), hash));
    expect([...filesUnder(path.join(storeDir(t), 'tmp')).keys()]).toEqual([]);
  });
});

describe('who may upload', () => {
  let org: User;
  let privateOrg: User;

  beforeAll(async () => {
    org = await createTestOrg(t, alice.user);
    privateOrg = await createTestOrg(t, alice.user, { visibility: 2 });
  });

  it('accepts basic auth with the password, with a token as password and with a token as user name', async () => {
    const name = uniqueName('basic');
    await upload(t, basicAuth(alice.user.name, alice.password), alice.user.name, name, '1', 'a').expect(201);
    await upload(t, basicAuth(alice.user.name, alice.token), alice.user.name, name, '1', 'b').expect(201);
    await upload(t, basicAuth(alice.token, ''), alice.user.name, name, '1', 'c').expect(201);
    await upload(t, `token ${alice.token}`, alice.user.name, name, '1', 'd').expect(201);
  });

  it('challenges anonymous uploads (401 with WWW-Authenticate)', async () => {
    const res = await t
      .request()
      .put(genericUrl(alice.user.name, uniqueName('anon'), '1', 'a'))
      .send(Buffer.from('x'))
      .expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it('takes a body of any media type, or none named, as package clients send it', async () => {
    const name = uniqueName('types');
    const put = (fileName: string) =>
      t
        .request()
        .put(genericUrl(alice.user.name, name, '1', fileName))
        .set('Authorization', alice.auth);
    await put('none').send(Buffer.from('no type')).expect(201);
    await put('form').set('Content-Type', 'application/x-www-form-urlencoded').send('a=b&c=d').expect(201);
    await put('json').set('Content-Type', 'application/json').send('{"not": "parsed"}').expect(201);
    const res = await download(genericUrl(alice.user.name, name, '1', 'json')).expect(200);
    expect(res.body.toString()).toBe('{"not": "parsed"}');
  });

  it("refuses another user's namespace (403), an org without write (403) and an org the caller cannot see (404)", async () => {
    const blobsBefore = blobFiles(t);
    await upload(t, bob.auth, alice.user.name, uniqueName('p'), '1', 'a').expect(403);
    await upload(t, bob.auth, org.name, uniqueName('p'), '1', 'a').expect(403);
    await upload(t, bob.auth, privateOrg.name, uniqueName('p'), '1', 'a').expect(404);
    await upload(t, bob.auth, uniqueName('nobody'), uniqueName('p'), '1', 'a').expect(404);
    expect(blobFiles(t)).toEqual(blobsBefore);
  });

  it('lets org owners, teams with write on the packages unit and site admins upload; read-only teams download', async () => {
    const writer = await createTestUser(t);
    const reader = await createTestUser(t);
    await memberOfTeam(t, privateOrg, alice, writer.user, {
      permission: 'read',
      units_map: { 'repo.code': 'read', 'repo.packages': 'write' },
    });
    await memberOfTeam(t, privateOrg, alice, reader.user, {
      permission: 'read',
      units_map: { 'repo.code': 'write', 'repo.packages': 'read' },
    });
    const name = uniqueName('team');
    await upload(t, alice.auth, privateOrg.name, name, '1', 'owner.bin').expect(201);
    await upload(t, writer.auth, privateOrg.name, name, '1', 'writer.bin').expect(201);
    await upload(t, admin.auth, privateOrg.name, name, '1', 'admin.bin').expect(201);
    await upload(t, reader.auth, privateOrg.name, name, '1', 'reader.bin').expect(403);
    await download(genericUrl(privateOrg.name, name, '1', 'owner.bin'), { Authorization: reader.auth }).expect(200);
    await t
      .request()
      .delete(genericUrl(privateOrg.name, name, '1', 'owner.bin'))
      .set('Authorization', reader.auth)
      .expect(403);
    // Outsiders and anonymous callers do not see a private organization.
    await download(genericUrl(privateOrg.name, name, '1', 'owner.bin'), { Authorization: bob.auth }).expect(404);
    await download(genericUrl(privateOrg.name, name, '1', 'owner.bin')).expect(404);
  });

  it('gives a team of write level write on packages, as Forgejo does', async () => {
    const member = await createTestUser(t);
    await memberOfTeam(t, org, alice, member.user, { permission: 'write', units: ['repo.code'] });
    await upload(t, member.auth, org.name, uniqueName('lvl'), '1', 'a').expect(201);
  });

  it('checks token scopes: write:package uploads, read:package only downloads, other scopes neither', async () => {
    const name = uniqueName('scoped');
    await upload(t, alice.auth, alice.user.name, name, '1', 'a').expect(201);
    const writeToken = `token ${await createToken(t, alice.user, 'write:package')}`;
    const readToken = `token ${await createToken(t, alice.user, 'read:package')}`;
    const otherToken = `token ${await createToken(t, alice.user, 'write:repository,write:user')}`;
    await upload(t, writeToken, alice.user.name, name, '1', 'b').expect(201);
    const refused = await upload(t, readToken, alice.user.name, name, '1', 'c').expect(403);
    expect(refused.body.message).toMatch(/write:package/);
    await upload(t, otherToken, alice.user.name, name, '1', 'c').expect(403);
    await download(genericUrl(alice.user.name, name, '1', 'a'), { Authorization: readToken }).expect(200);
    await download(genericUrl(alice.user.name, name, '1', 'a'), { Authorization: otherToken }).expect(403);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1', 'a'))
      .set('Authorization', readToken)
      .expect(403);
  });
});

describe('delete', () => {
  it('deletes one file (204), and the version with its last file', async () => {
    const name = uniqueName('del');
    await upload(t, alice.auth, alice.user.name, name, '1', 'a').expect(201);
    await upload(t, alice.auth, alice.user.name, name, '1', 'b').expect(201);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1', 'a'))
      .set('Authorization', alice.auth)
      .expect(204);
    await download(genericUrl(alice.user.name, name, '1', 'a')).expect(404);
    await download(genericUrl(alice.user.name, name, '1', 'b')).expect(200);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1', 'a'))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1', 'b'))
      .set('Authorization', alice.auth)
      .expect(204);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: alice.user.id, lowerName: name } })).toBe(0);
  });

  it('deletes a version with its files (204), then 404', async () => {
    const name = uniqueName('delv');
    await upload(t, alice.auth, alice.user.name, name, '1', 'a').expect(201);
    await upload(t, alice.auth, alice.user.name, name, '2', 'a').expect(201);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1'))
      .set('Authorization', alice.auth)
      .expect(204);
    await download(genericUrl(alice.user.name, name, '1', 'a')).expect(404);
    await download(genericUrl(alice.user.name, name, '2', 'a')).expect(200);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1'))
      .set('Authorization', alice.auth)
      .expect(404);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '2'))
      .set('Authorization', bob.auth)
      .expect(403);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '2'))
      .expect(401);
  });
});

describe('deduplication', () => {
  it('stores the same bytes of two owners once, and removes them with the last file that refers to them', async () => {
    const bytes = randomBytes(64 * 1024);
    const hash = sha256(bytes);
    const blobPath = path.join(hash.slice(0, 2), hash.slice(2, 4), hash);
    await upload(t, alice.auth, alice.user.name, uniqueName('same'), '1', 'x.bin', bytes).expect(201);
    const bobName = uniqueName('same');
    await upload(t, bob.auth, bob.user.name, bobName, '1', 'y.bin', bytes).expect(201);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: hash } })).toBe(1);
    expect(blobFiles(t).filter((file) => file.endsWith(hash))).toEqual([blobPath]);

    const aliceVersion = await t.context.db.prisma.packageFile.findFirstOrThrow({
      where: { blob: { hashSha256: hash }, version: { package: { ownerId: alice.user.id } } },
      include: { version: { include: { package: true } } },
    });
    await t
      .request()
      .delete(genericUrl(alice.user.name, aliceVersion.version.package.name, '1'))
      .set('Authorization', alice.auth)
      .expect(204);
    expect(blobFiles(t)).toContain(blobPath);
    expect((await download(genericUrl(bob.user.name, bobName, '1', 'y.bin')).expect(200)).body.length).toBe(
      bytes.length,
    );

    await t
      .request()
      .delete(genericUrl(bob.user.name, bobName, '1'))
      .set('Authorization', bob.auth)
      .expect(204);
    expect(blobFiles(t)).not.toContain(blobPath);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: hash } })).toBe(0);
  });
});

describe('a blob shared by two owners, uploaded by one while the other deletes it', () => {
  it('keeps the bytes of the upload that refers to them again while the delete is removing them', async () => {
    const bytes = randomBytes(48 * 1024);
    const hash = sha256(bytes);
    const aliceName = uniqueName('shared');
    await upload(t, alice.auth, alice.user.name, aliceName, '1', 'a.bin', bytes).expect(201);

    // Alice's delete is held just as it removes the bytes (its rows are gone, nothing refers to the blob), and
    // Bob uploads the same bytes meanwhile: either his upload waits for the removal and stores the bytes again,
    // or the removal sees his row and keeps them.
    const store = t.context.packageBlobs;
    const remove = store.delete.bind(store);
    let removalStarted!: () => void;
    const removing = new Promise<void>((resolve) => (removalStarted = resolve));
    let letRemovalGo!: () => void;
    const removalMayGo = new Promise<void>((resolve) => (letRemovalGo = resolve));
    store.delete = async (key) => {
      if (key === hash) {
        removalStarted();
        await removalMayGo;
      }
      return remove(key);
    };
    try {
      const deleted = t
        .request()
        .delete(genericUrl(alice.user.name, aliceName, '1'))
        .set('Authorization', alice.auth)
        .then((res) => res);
      await removing;
      const bobName = uniqueName('shared');
      const uploaded = upload(t, bob.auth, bob.user.name, bobName, '1', 'b.bin', bytes).then((res) => res);
      // Bob's upload may finish now (no guard) or wait for the removal (guarded); either way it goes on after.
      await Promise.race([uploaded, new Promise((resolve) => setTimeout(resolve, 500))]);
      letRemovalGo();
      expect((await deleted).status).toBe(204);
      expect((await uploaded).status).toBe(201);
      const served = await download(genericUrl(bob.user.name, bobName, '1', 'b.bin'));
      expect(served.status).toBe(200);
      expect(sha256(served.body as Buffer)).toBe(hash);
    } finally {
      letRemovalGo();
      store.delete = remove;
    }
  });
});

describe('streamed bodies within [packages] LIMIT_SIZE_GENERIC', () => {
  let limited: TestApp;
  let carol: TestUser;
  beforeAll(async () => {
    limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_GENERIC: '64k' });
    carol = await createTestUser(limited);
  });
  afterAll(() => limited.close());

  it('accepts a file up to the limit', async () => {
    await upload(limited, carol.auth, carol.user.name, 'fits', '1', 'f', randomBytes(64 * 1024)).expect(201);
  });

  it('refuses a larger announced length with 413 before reading, and a larger chunked body while reading', async () => {
    const announced = await upload(
      limited,
      carol.auth,
      carol.user.name,
      'big',
      '1',
      'f',
      randomBytes(64 * 1024 + 1),
    ).expect(413);
    expect(announced.headers.connection).toBe('close');

    // Chunked: no length is announced, the stream is cut when it passes the limit.
    const server = http.createServer(limited.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: (server.address() as AddressInfo).port,
            method: 'PUT',
            path: genericUrl(carol.user.name, 'big', '1', 'chunked'),
            headers: {
              Authorization: carol.auth,
              'Content-Type': 'application/octet-stream',
              'Transfer-Encoding': 'chunked',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        let sent = 0;
        const pump = () => {
          while (sent < 1024 * 1024) {
            sent += 16 * 1024;
            if (!req.write(randomBytes(16 * 1024))) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
      expect(status).toBe(413);
    } finally {
      server.close();
    }
    expect(await limited.context.db.prisma.package.count({ where: { lowerName: 'big' } })).toBe(0);
    expect(blobFiles(limited).length).toBe(1);
    expect([...filesUnder(path.join(storeDir(limited), 'tmp')).keys()]).toEqual([]);
  });

  it('keeps nothing of an upload whose client goes away mid-body', async () => {
    const server = http.createServer(limited.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const req = http.request({
        host: '127.0.0.1',
        port: (server.address() as AddressInfo).port,
        method: 'PUT',
        path: genericUrl(carol.user.name, 'cut', '1', 'f'),
        headers: {
          Authorization: carol.auth,
          'Content-Type': 'application/octet-stream',
          'Content-Length': String(60 * 1024),
        },
      });
      req.on('error', () => undefined);
      req.write(randomBytes(20 * 1024));
      // Once the server has started the temporary file, the client disappears.
      const tmp = path.join(storeDir(limited), 'tmp');
      for (const deadline = Date.now() + 30_000; filesUnder(tmp).size === 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect(filesUnder(tmp).size).toBe(1);
      req.destroy();
      for (const deadline = Date.now() + 30_000; filesUnder(tmp).size > 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 10));
      expect([...filesUnder(tmp).keys()]).toEqual([]);
    } finally {
      server.close();
    }
    expect(await limited.context.db.prisma.package.count({ where: { lowerName: 'cut' } })).toBe(0);
    expect(blobFiles(limited).length).toBe(1);
  });
});
