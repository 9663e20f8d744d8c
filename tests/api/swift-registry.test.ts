// The Swift registry under /api/packages/{owner}/swift, following the requests of `swift package-registry` and
// SwiftPM's resolver (SE-0292): login, publish (multipart, archive first), releases, release metadata, manifests,
// the source archive with its Digest, identifiers by repository URL; problem-details errors, the API version's
// Accept check, hostile archives refused keeping nothing, access, scopes, quota and the package API.
import { createHash, randomBytes } from 'node:crypto';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { storedZip } from '../helpers/conda.ts';
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

const JSON_V1 = 'application/vnd.swift.registry.v1+json';
const registry = (owner: string) => `/api/packages/${owner}/swift`;
const MANIFEST = '// swift-tools-version:5.7\nimport PackageDescription\nlet package = Package(name: "Lib")\n';

function sourceArchive(entries: Record<string, string | Buffer> = {}): Buffer {
  const files = {
    'Lib/Package.swift': MANIFEST,
    'Lib/Package@swift-5.9.swift': '// swift-tools-version:5.9\n',
    ...entries,
  };
  return storedZip(Object.entries(files).map(([name, body]) => ({ name, body: Buffer.from(body) })));
}

const METADATA = JSON.stringify({
  description: 'A library',
  keywords: ['swift', 'test'],
  license: 'MIT',
  codeRepository: 'https://example.com/lib.git',
  repositoryURLs: ['https://example.com/lib.git', 'git@example.com:lib.git'],
  author: { givenName: 'Ada', familyName: 'Lovelace' },
});

function publish(owner: string, auth: string | null, path: string, archive: Buffer, metadata = METADATA) {
  const request = t
    .request()
    .put(`${registry(owner)}/${path}`)
    .set('Accept', JSON_V1);
  if (auth) request.set('Authorization', auth);
  request.attach('source-archive', archive, { filename: 'source.zip', contentType: 'application/zip' });
  return metadata === '' ? request : request.field('metadata', metadata);
}

function get(owner: string, path: string, accept = JSON_V1, auth?: string) {
  const request = t.request().get(`${registry(owner)}/${path}`);
  if (accept) request.set('Accept', accept);
  if (auth) request.set('Authorization', auth);
  return request;
}

describe('login, publish and resolve', () => {
  it('answers the login check: 200 signed in, 401 anonymous', async () => {
    await t
      .request()
      .post(`${registry(alice.user.name)}/login`)
      .set('Authorization', alice.auth)
      .expect(200);
    await t
      .request()
      .post(`${registry(alice.user.name)}/login`)
      .expect(401);
  });

  it('publishes a release and serves what SwiftPM reads of it', async () => {
    const owner = alice.user.name;
    const scope = uniqueName('sc');
    const archive = sourceArchive();
    const published = await publish(owner, alice.auth, `${scope}/Lib/1.0.0`, archive).expect(201);
    expect(published.headers['content-version']).toBe('1');
    await publish(owner, alice.auth, `${scope}/Lib/1.2`, sourceArchive({ 'Lib/x': 'y' })).expect(201);

    const list = await get(owner, `${scope}/Lib`).expect(200).expect('Content-Version', '1');
    const base = `${t.context.settings.server.ROOT_URL}api/packages/${owner.toLowerCase()}/swift/${scope}/Lib`;
    expect(list.body).toEqual({ releases: { '1.0.0': { url: `${base}/1.0.0` }, '1.2.0': { url: `${base}/1.2.0` } } });
    expect(list.headers.link).toBe(`<${base}/1.2.0>; rel="latest-version"`);
    await get(owner, `${scope}/Lib.json`).expect(200);

    const sha256 = createHash('sha256').update(archive).digest('hex');
    for (const path of [`${scope}/Lib/1.0.0`, `${scope}/Lib/1.0.0.json`]) {
      const info = await get(owner, path).expect(200);
      expect(info.body).toMatchObject({
        id: `${scope}.Lib`,
        version: '1.0.0',
        resources: [{ name: 'source-archive', type: 'application/zip', checksum: sha256 }],
        metadata: {
          '@type': 'SoftwareSourceCode',
          name: 'Lib',
          version: '1.0.0',
          description: 'A library',
          keywords: ['swift', 'test'],
          license: 'MIT',
          codeRepository: 'https://example.com/lib.git',
          author: { '@type': 'Person', name: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' },
        },
      });
    }

    const source = 'application/vnd.swift.registry.v1+swift';
    const manifest = await get(owner, `${scope}/Lib/1.0.0/Package.swift`, source).expect(200);
    expect(manifest.text).toBe(MANIFEST);
    expect(manifest.headers['content-type']).toMatch(/^text\/x-swift/);
    const versioned = await get(owner, `${scope}/Lib/1.0.0/Package.swift?swift-version=5.9.0`, source).expect(200);
    expect(versioned.text).toBe('// swift-tools-version:5.9\n');
    expect(versioned.headers['content-disposition']).toContain('Package@swift-5.9.swift');
    const other = await get(owner, `${scope}/Lib/1.0.0/Package.swift?swift-version=5.8`, source).expect(303);
    expect(other.headers.location).toBe(`${base}/1.0.0/Package.swift`);

    const zip = await get(owner, `${scope}/Lib/1.0.0.zip`, 'application/vnd.swift.registry.v1+zip')
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(zip.body as Buffer, archive)).toBe(0);
    expect(zip.headers.digest).toBe(`sha256=${sha256}`);
    expect(zip.headers['content-disposition']).toContain('Lib-1.0.0.zip');

    const ids = await get(owner, `identifiers?url=${encodeURIComponent('git@example.com:lib.git')}`).expect(200);
    expect(ids.body).toEqual({ identifiers: [`${scope}.Lib`] });
    const none = await get(owner, `identifiers?url=${encodeURIComponent('https://nowhere.example')}`).expect(404);
    expect(none.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(none.body).toEqual({ status: 404, detail: expect.any(String) });
  });

  it('refuses a release that exists (409), an Accept of another API version (400), a bad version (400)', async () => {
    const owner = alice.user.name;
    const scope = uniqueName('dup');
    await publish(owner, alice.auth, `${scope}/Lib/2.0.0`, sourceArchive(), '').expect(201);
    const again = await publish(owner, alice.auth, `${scope}/Lib/2.0.0`, sourceArchive()).expect(409);
    expect(JSON.parse(again.text)).toEqual({ status: 409, detail: expect.any(String) });
    const wrong = await get(owner, `${scope}/Lib`, 'application/vnd.swift.registry.v2+json').expect(400);
    expect(JSON.parse(wrong.text)).toEqual({ status: 400, detail: expect.stringContaining(JSON_V1) });
    expect(wrong.headers['content-version']).toBe('1');
    await get(owner, `${scope}/Lib`, '').expect(200);
    await publish(owner, alice.auth, `${scope}/Lib/not-a-version`, sourceArchive()).expect(400);
  });
});

describe('hostile and malformed archives answer 400 and keep nothing', () => {
  const cases: [string, () => Buffer][] = [
    ['no zip at all', () => Buffer.from('not a zip')],
    ['no Package.swift', () => storedZip([{ name: 'Lib/README.md', body: Buffer.from('hi') }])],
    ['an entry escaping the archive', () => sourceArchive({ '../../evil.swift': 'x' })],
    ['a manifest past 128 KiB', () => sourceArchive({ 'Lib/Package.swift': 'x'.repeat(200 * 1024) })],
  ];
  it.each(cases)('%s', async (_label, make) => {
    const before = blobFiles(t).length;
    const res = await publish(alice.user.name, alice.auth, `${uniqueName('bad')}/Lib/1.0.0`, make()).expect(400);
    expect(JSON.parse(res.text)).toEqual({ status: 400, detail: expect.any(String) });
    expect(blobFiles(t)).toHaveLength(before);
  });

  it('malformed metadata JSON', async () => {
    await publish(alice.user.name, alice.auth, `${uniqueName('bad')}/Lib/1.0.0`, sourceArchive(), '{nope').expect(400);
  });
});

describe('who may see and change packages', () => {
  it('hides a private owner (404), refuses another owner (403) and anonymous publishes (401)', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    await publish(org.name, alice.auth, 'priv/Lib/1.0.0', sourceArchive()).expect(201);
    await get(org.name, 'priv/Lib', JSON_V1, alice.auth).expect(200);
    await get(org.name, 'priv/Lib', JSON_V1, bob.auth).expect(404);
    await get(org.name, 'priv/Lib').expect(404);
    await publish(alice.user.name, bob.auth, 'x/Lib/1.0.0', sourceArchive()).expect(403);
    await publish(alice.user.name, null, 'x/Lib/1.0.0', sourceArchive()).expect(401);
  });

  it('honours token scopes', async () => {
    const [write, read] = await Promise.all(
      ['write:package', 'read:package'].map((scope) => createToken(t, alice.user, scope)),
    );
    const scope = uniqueName('tok');
    await publish(alice.user.name, `token ${read}`, `${scope}/Lib/1.0.0`, sourceArchive()).expect(403);
    await publish(alice.user.name, `token ${write}`, `${scope}/Lib/1.0.0`, sourceArchive()).expect(201);
    await get(alice.user.name, `${scope}/Lib`, JSON_V1, `token ${read}`).expect(200);
  });

  it("refuses an archive past the owner's quota (413), keeping nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t).length;
    const big = sourceArchive({ 'Lib/blob.bin': randomBytes(300_000) });
    const res = await publish(owner.user.name, owner.auth, 'q/Lib/1.0.0', big).expect(413);
    expect(JSON.parse(res.text)).toEqual({ status: 413, detail: expect.any(String) });
    expect(blobFiles(t)).toHaveLength(before);
  });
});

describe('the package API', () => {
  it('lists a release under type=swift and deletes it, which drops it from the releases', async () => {
    const owner = alice.user.name;
    const scope = uniqueName('api');
    await publish(owner, alice.auth, `${scope}/Lib/1.0.0`, sourceArchive()).expect(201);
    const list = await t
      .request()
      .get(`/api/v1/packages/${owner}?type=swift&q=${scope}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((pkg: { name: string; version: string }) => [pkg.name, pkg.version])).toEqual([
      [`${scope}.Lib`, '1.0.0'],
    ]);
    await t
      .request()
      .delete(`/api/v1/packages/${owner}/swift/${scope}.Lib/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    await get(owner, `${scope}/Lib`).expect(404);
    await get(owner, `${scope}/Lib/1.0.0.zip`, '').expect(404);
  });
});
