// The Helm registry under /api/packages/{owner}/helm, followed as helm and its push plugin use it (no helm runs
// here): upload to api/charts (multipart or the bare .tgz), `helm repo add`'s index.yaml with every field helm
// reads (urls, digest, created, the Chart.yaml fields), `helm pull` of the URL it names; access, scopes, quota,
// hostile archives.
import { createHash, randomBytes } from 'node:crypto';
import { parse } from 'yaml';
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

const registry = (owner: string) => `/api/packages/${owner}/helm`;

function chartYaml(name: string, version: string, extra = ''): string {
  return `apiVersion: v2\nname: ${name}\nversion: ${version}\ndescription: A test chart\ntype: application\nappVersion: "1.16.0"\nkeywords: [web, test]\nmaintainers:\n  - name: Alice\n    email: alice@example.com\n${extra}`;
}

function chart(name: string, version: string, extra = ''): Promise<Buffer> {
  return tarGz({
    [`${name}/Chart.yaml`]: chartYaml(name, version, extra),
    [`${name}/values.yaml`]: 'replicaCount: 1\n',
    [`${name}/templates/deployment.yaml`]: 'kind: Deployment\n',
    // A vendored chart's Chart.yaml is not the chart's.
    [`${name}/charts/dep/Chart.yaml`]: chartYaml('dep', '9.9.9'),
  });
}

/** What `helm cm-push` sends: a multipart form with the chart. */
function push(owner: string, auth: string | null, bytes: Buffer) {
  const request = t.request().post(`${registry(owner)}/api/charts`);
  if (auth) request.set('Authorization', auth);
  return request.attach('chart', bytes, { filename: 'chart.tgz', contentType: 'application/gzip' });
}

interface IndexEntry {
  apiVersion: string;
  name: string;
  version: string;
  urls: string[];
  digest: string;
  created: string;
  description: string;
  appVersion: string;
  keywords: string[];
  maintainers: { name: string; email: string }[];
}

async function readIndex(owner: string, auth: string = alice.auth) {
  const res = await t
    .request()
    .get(`${registry(owner)}/index.yaml`)
    .set('Authorization', auth)
    .expect(200);
  return parse(res.text) as {
    apiVersion: string;
    entries: Record<string, IndexEntry[]>;
    serverInfo: { contextPath: string };
  };
}

describe('helm', () => {
  const name = uniqueName('chart').replace(/_/g, '-');

  it('takes charts, lists them in index.yaml newest first with urls and digests, and serves what the urls name', async () => {
    const v1 = await chart(name, '0.1.0');
    const v2 = await chart(name, '0.2.0');
    await push(alice.user.name, alice.auth, v1).expect(201);
    // The bare .tgz as the body, as curl --data-binary sends it.
    await t
      .request()
      .post(`${registry(alice.user.name)}/api/charts`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(v2)
      .expect(201);

    const index = await readIndex(alice.user.name);
    expect(index.apiVersion).toBe('v1');
    expect(index.serverInfo.contextPath).toBe(`/api/packages/${alice.user.name}/helm`);
    const versions = index.entries[name];
    expect(versions.map((entry) => entry.version)).toEqual(['0.2.0', '0.1.0']);
    const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(versions[1]).toMatchObject({
      apiVersion: 'v2',
      name,
      version: '0.1.0',
      description: 'A test chart',
      appVersion: '1.16.0',
      keywords: ['web', 'test'],
      maintainers: [{ name: 'Alice', email: 'alice@example.com' }],
      digest: sha(v1),
      urls: [`${t.context.settings.server.ROOT_URL}api/packages/${alice.user.name}/helm/${name}-0.1.0.tgz`],
    });
    expect(Number.isNaN(Date.parse(versions[1].created))).toBe(false);

    const url = new URL(versions[0].urls[0]);
    const pulled = await t
      .request()
      .get(url.pathname)
      .set('Authorization', alice.auth)
      .responseType('blob')
      .expect(200);
    expect(Buffer.compare(pulled.body as Buffer, v2)).toBe(0);
    await t
      .request()
      .get(`${registry(alice.user.name)}/${name}-9.9.9.tgz`)
      .set('Authorization', alice.auth)
      .expect(404);
  });

  it('replaces a version uploaded again, as Forgejo does, and the index shows the new digest', async () => {
    const again = await chart(name, '0.1.0', 'home: https://example.com\n');
    await push(alice.user.name, alice.auth, again).expect(201);
    const versions = (await readIndex(alice.user.name)).entries[name];
    const replaced = versions.find((entry) => entry.version === '0.1.0');
    expect(replaced).toMatchObject({
      digest: createHash('sha256').update(again).digest('hex'),
      home: 'https://example.com',
    });
    expect(versions).toHaveLength(2);
  });

  it('lists charts in the package API, and one deleted through it leaves index.yaml', async () => {
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=helm&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((p: { version: string }) => p.version).sort()).toEqual(['0.1.0', '0.2.0']);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/helm/${name}/0.2.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    expect((await readIndex(alice.user.name)).entries[name].map((entry) => entry.version)).toEqual(['0.1.0']);
    await t
      .request()
      .get(`${registry(alice.user.name)}/${name}-0.2.0.tgz`)
      .set('Authorization', alice.auth)
      .expect(404);
  });
});

describe('access', () => {
  it('hides a private owner (404) from outsiders and anonymous callers, and refuses a stranger’s upload (403)', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    await push(org.name, alice.auth, await chart('secret', '1.0.0')).expect(201);
    await t
      .request()
      .get(`${registry(org.name)}/index.yaml`)
      .expect(404);
    await t
      .request()
      .get(`${registry(org.name)}/index.yaml`)
      .set('Authorization', bob.auth)
      .expect(404);
    await push(org.name, bob.auth, await chart('secret', '2.0.0')).expect(404);
    await push(alice.user.name, bob.auth, await chart('theirs', '1.0.0')).expect(403);
    const anonymous = await push(alice.user.name, null, await chart('anon', '1.0.0')).expect(401);
    expect(anonymous.body).toEqual({ error: expect.any(String) });
    expect((await readIndex(org.name)).entries.secret).toHaveLength(1);
  });

  it('honours token scopes: read:package reads, write:package uploads', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    await push(alice.user.name, `token ${reader}`, await chart('scoped', '1.0.0')).expect(403);
    await push(alice.user.name, `token ${writer}`, await chart('scoped', '1.0.0')).expect(201);
    await readIndex(alice.user.name, `token ${reader}`);
    await t
      .request()
      .get(`${registry(alice.user.name)}/index.yaml`)
      .set('Authorization', `token ${other}`)
      .expect(403);
  });
});

describe('refusals', () => {
  it("refuses a chart past the owner's quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t).length;
    const big = await tarGz({ 'big/Chart.yaml': chartYaml('big', '1.0.0'), 'big/blob.bin': randomBytes(200_000) });
    const res = await push(owner.user.name, owner.auth, big).expect(413);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect(blobFiles(t)).toHaveLength(before);
  });

  it('refuses hostile and malformed charts (400) and keeps nothing', async () => {
    const owner = await createTestUser(t);
    const before = blobFiles(t).length;
    const cases: [string, Buffer][] = [
      ['path traversal', await tarGz({ '../evil/Chart.yaml': chartYaml('evil', '1.0.0') })],
      [
        '10 MB of metadata',
        await tarGz({
          'huge/Chart.yaml': chartYaml('huge', '1.0.0', `description: ${'x'.repeat(10 * 1024 * 1024)}\n`),
        }),
      ],
      [
        'a gzip bomb',
        await tarGz({
          'bomb/padding.bin': Buffer.alloc(110 * 1024 * 1024),
          'bomb/Chart.yaml': chartYaml('bomb', '1.0.0'),
        }),
      ],
      [
        'a YAML alias bomb',
        await tarGz({
          'lol/Chart.yaml': `${chartYaml('lol', '1.0.0')}a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n`,
        }),
      ],
      ['not gzip', randomBytes(1000)],
      ['no Chart.yaml', await tarGz({ 'x/values.yaml': 'a: 1\n' })],
      ['a bad version', await tarGz({ 'x/Chart.yaml': chartYaml('x', 'one') })],
      ['no apiVersion', await tarGz({ 'x/Chart.yaml': 'name: x\nversion: 1.0.0\n' })],
    ];
    for (const [what, bytes] of cases) {
      const res = await push(owner.user.name, owner.auth, bytes);
      expect([what, res.status]).toEqual([what, 400]);
    }
    expect(blobFiles(t)).toHaveLength(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});
