// The pub registry under /api/packages/{owner}/pub, followed as `dart pub publish` and `dart pub get` use the
// hosted-repository API v2 (no dart runs here): the three-step upload, the package document with every field pub
// reads (versions, latest, archive_url, archive_sha256, pubspec), a version, the archive; access, scopes, quota,
// hostile archives.
import { createHash, randomBytes } from 'node:crypto';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
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

const PUB_JSON = 'application/vnd.pub.v2+json';
const hosted = (owner: string) => `/api/packages/${owner}/pub`;
const pathOf = (url: string) => new URL(url).pathname;

function pubspec(name: string, version: string, extra = ''): string {
  return `name: ${name}\nversion: ${version}\ndescription: A test package\nhomepage: https://example.com\nenvironment:\n  sdk: ">=3.0.0 <4.0.0"\n${extra}`;
}

function archive(name: string, version: string, extra = ''): Promise<Buffer> {
  return tarGz({
    'pubspec.yaml': pubspec(name, version, extra),
    'lib/main.dart': 'void main() {}\n',
    'README.md': '# x\n',
  });
}

/** `dart pub publish`: ask where to upload, post the archive there, follow the Location to finalize. */
async function publish(owner: string, token: string, bytes: Buffer) {
  const target = await t
    .request()
    .get(`${hosted(owner)}/api/packages/versions/new`)
    .set('Accept', PUB_JSON)
    .set('Authorization', `Bearer ${token}`);
  if (target.status !== 200) return target;
  const body = JSON.parse(target.text) as { url: string; fields: Record<string, string> };
  const request = t.request().post(pathOf(body.url)).set('Authorization', `Bearer ${token}`);
  for (const [name, value] of Object.entries(body.fields)) request.field(name, value);
  const uploaded = await request.attach('file', bytes, {
    filename: 'package.tar.gz',
    contentType: 'application/octet-stream',
  });
  if (uploaded.status !== 204) return uploaded;
  return t
    .request()
    .get(pathOf(uploaded.headers.location))
    .set('Accept', PUB_JSON)
    .set('Authorization', `Bearer ${token}`);
}

const getJson = (url: string, token: string = alice.token) =>
  t.request().get(url).set('Accept', PUB_JSON).set('Authorization', `Bearer ${token}`);

describe('pub', () => {
  const name = uniqueName('pkg').replace(/-/g, '_');
  const base = () => `${t.context.settings.server.ROOT_URL}api/packages/${alice.user.name}/pub`;

  it('publishes through the three steps, refuses the same version again (409)', async () => {
    const target = await getJson(`${hosted(alice.user.name)}/api/packages/versions/new`).expect(200);
    expect(target.headers['content-type']).toMatch(/^application\/vnd\.pub\.v2\+json/);
    expect(JSON.parse(target.text)).toEqual({ url: `${base()}/api/packages/versions/new/upload`, fields: {} });
    const done = await publish(alice.user.name, alice.token, await archive(name, '1.0.0'));
    expect(done.status).toBe(200);
    expect(JSON.parse(done.text)).toEqual({ success: { message: expect.any(String) } });
    expect((await publish(alice.user.name, alice.token, await archive(name, '1.1.0-dev.1'))).status).toBe(200);
    expect((await publish(alice.user.name, alice.token, await archive(name, '0.9.0'))).status).toBe(200);
    const again = await publish(alice.user.name, alice.token, await archive(name, '1.0.0'));
    expect(again.status).toBe(409);
    expect(JSON.parse(again.text)).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it('answers the package document with the latest release and every version, and the archive it names', async () => {
    const res = await getJson(`${hosted(alice.user.name)}/api/packages/${name}`).expect(200);
    const document = JSON.parse(res.text);
    expect(document.name).toBe(name);
    expect(document.versions.map((v: { version: string }) => v.version)).toEqual(['0.9.0', '1.0.0', '1.1.0-dev.1']);
    expect(document.latest.version).toBe('1.0.0');
    expect(document.latest).toEqual({
      version: '1.0.0',
      archive_url: `${base()}/api/packages/${name}/files/1.0.0.tar.gz`,
      archive_sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      published: expect.any(String),
      pubspec: expect.objectContaining({
        name,
        version: '1.0.0',
        description: 'A test package',
        environment: { sdk: '>=3.0.0 <4.0.0' },
      }),
    });
    const file = await t
      .request()
      .get(pathOf(document.latest.archive_url))
      .set('Authorization', `Bearer ${alice.token}`)
      .responseType('blob')
      .expect(200);
    expect(
      createHash('sha256')
        .update(file.body as Buffer)
        .digest('hex'),
    ).toBe(document.latest.archive_sha256);
    const version = await getJson(`${hosted(alice.user.name)}/api/packages/${name}/versions/0.9.0`).expect(200);
    expect(JSON.parse(version.text)).toMatchObject({
      version: '0.9.0',
      archive_url: `${base()}/api/packages/${name}/files/0.9.0.tar.gz`,
    });
    await getJson(`${hosted(alice.user.name)}/api/packages/${name}/versions/5.0.0`).expect(404);
    const missing = await getJson(`${hosted(alice.user.name)}/api/packages/nosuch`).expect(404);
    expect(JSON.parse(missing.text)).toEqual({ error: { code: 'NotFound', message: expect.any(String) } });
  });

  it('lists pub versions in the package API, and one deleted through it leaves the document', async () => {
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=pub&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((p: { version: string }) => p.version).sort()).toEqual(['0.9.0', '1.0.0', '1.1.0-dev.1']);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/pub/${name}/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const document = JSON.parse((await getJson(`${hosted(alice.user.name)}/api/packages/${name}`).expect(200)).text);
    expect(document.versions.map((v: { version: string }) => v.version)).toEqual(['0.9.0', '1.1.0-dev.1']);
    expect(document.latest.version).toBe('0.9.0');
    await t
      .request()
      .get(`${hosted(alice.user.name)}/api/packages/${name}/files/1.0.0.tar.gz`)
      .set('Authorization', alice.auth)
      .expect(404);
  });
});

describe('access', () => {
  it('hides a private owner (404), refuses a stranger (403) and an anonymous publish (401)', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    expect((await publish(org.name, alice.token, await archive('secret', '1.0.0'))).status).toBe(200);
    await t
      .request()
      .get(`${hosted(org.name)}/api/packages/secret`)
      .expect(404);
    await getJson(`${hosted(org.name)}/api/packages/secret`, bob.token).expect(404);
    expect((await publish(org.name, bob.token, await archive('secret', '2.0.0'))).status).toBe(404);
    expect((await publish(alice.user.name, bob.token, await archive('theirs', '1.0.0'))).status).toBe(403);
    await t
      .request()
      .get(`${hosted(alice.user.name)}/api/packages/versions/new`)
      .expect(401);
    await getJson(`${hosted(org.name)}/api/packages/secret`).expect(200);
  });

  it('honours token scopes: read:package reads, write:package publishes', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    expect((await publish(alice.user.name, reader, await archive('scoped', '1.0.0'))).status).toBe(403);
    expect((await publish(alice.user.name, writer, await archive('scoped', '1.0.0'))).status).toBe(200);
    await getJson(`${hosted(alice.user.name)}/api/packages/scoped`, reader).expect(200);
    await getJson(`${hosted(alice.user.name)}/api/packages/scoped`, other).expect(403);
  });
});

describe('refusals', () => {
  it("refuses an archive past the owner's quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t).length;
    const big = await tarGz({ 'pubspec.yaml': pubspec('big', '1.0.0'), 'lib/blob.bin': randomBytes(200_000) });
    const res = await publish(owner.user.name, owner.token, big);
    expect(res.status).toBe(413);
    expect(blobFiles(t)).toHaveLength(before);
  });

  it('refuses hostile and malformed archives (400) and keeps nothing', async () => {
    const owner = await createTestUser(t);
    const before = blobFiles(t).length;
    const cases: [string, Buffer][] = [
      ['path traversal', await tarGz({ '../pubspec.yaml': pubspec('evil', '1.0.0') })],
      [
        '10 MB of metadata',
        await tarGz({ 'pubspec.yaml': pubspec('huge', '1.0.0', `x: ${'y'.repeat(10 * 1024 * 1024)}\n`) }),
      ],
      ['not gzip', randomBytes(1000)],
      ['no pubspec', await tarGz({ 'lib/main.dart': 'x' })],
      ['a bad name', await tarGz({ 'pubspec.yaml': pubspec('bad-name', '1.0.0') })],
      ['a bad version', await tarGz({ 'pubspec.yaml': pubspec('good', 'one') })],
    ];
    for (const [what, bytes] of cases) {
      const res = await publish(owner.user.name, owner.token, bytes);
      expect([what, res.status]).toEqual([what, 400]);
    }
    expect(blobFiles(t)).toHaveLength(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});
