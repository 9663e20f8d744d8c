// The Chef registry under /api/packages/{owner}/chef, followed as knife's supermarket commands and Berkshelf use
// it (no knife runs here): requests signed with the user's key exactly as mixlib-authentication signs them
// (tests/helpers/chef-sign.ts), share, the universe, list, search, show, download, unshare, with every field knife
// reads; refused signatures, access, scopes, quota, hostile tarballs.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { chefHeaders, type ChefProtocol, shareBody } from '../helpers/chef-sign.ts';
import { blobFiles } from '../helpers/packages.ts';
import { tarGz } from '../helpers/tar-gz.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
const keys = new Map<string, KeyObject>();

/** A user with a Chef key pair, its public half kept as Forgejo's settings page would keep it. */
async function withKey(user: TestUser): Promise<TestUser> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await t.context.services.chefKeys.setPublicKey(
    user.user,
    publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  );
  keys.set(user.user.name, privateKey);
  return user;
}

beforeAll(async () => {
  t = await startTestApp();
  alice = await withKey(await createTestUser(t));
  bob = await withKey(await createTestUser(t));
});
afterAll(() => t.close());

const site = (owner: string) => `/api/packages/${owner}/chef`;
const api = (owner: string) => `${site(owner)}/api/v1`;
const pathOf = (url: string) => new URL(url).pathname;
const base = (owner: string) => `${t.context.settings.server.ROOT_URL}api/packages/${owner}/chef/api/v1`;

interface As {
  user: TestUser;
  protocol?: ChefProtocol;
  time?: Date;
  key?: KeyObject;
  /** The path signed, when it is not the one requested. */
  signedPath?: string;
}

function signed(method: 'GET' | 'DELETE', url: string, as: As = { user: alice }) {
  const path = url.split('?')[0];
  const headers = chefHeaders({
    method,
    path: as.signedPath ?? path,
    userId: as.user.user.name,
    key: as.key ?? keys.get(as.user.user.name)!,
    protocol: as.protocol,
    time: as.time,
  });
  const request = method === 'GET' ? t.request().get(url) : t.request().delete(url);
  return request.set(headers).set('Accept', 'application/json');
}

/** knife supermarket share: a signed multipart POST of the cookbook's tarball. */
function share(owner: string, tarball: Buffer, as: As = { user: alice }) {
  const { body, contentType } = shareBody(tarball, 'cookbook.tgz');
  const path = `${api(owner)}/cookbooks`;
  const headers = chefHeaders({
    method: 'POST',
    path,
    body,
    userId: as.user.user.name,
    key: keys.get(as.user.user.name)!,
    protocol: as.protocol,
  });
  return t.request().post(path).set(headers).set('Content-Type', contentType).send(body);
}

function metadata(name: string, version: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    name,
    version,
    description: `Installs ${name}`,
    long_description: '',
    maintainer: 'Alice Cook',
    maintainer_email: 'alice@example.com',
    license: 'Apache-2.0',
    platforms: { ubuntu: '>= 0.0.0' },
    dependencies: {},
    recipes: {},
    source_url: 'https://example.com/cookbooks',
    issues_url: '',
    privacy: false,
    chef_versions: [],
    gems: [],
    ...extra,
  });
}

function cookbook(name: string, version: string, extra: Record<string, unknown> = {}): Promise<Buffer> {
  return tarGz({
    [`${name}/metadata.json`]: metadata(name, version, extra),
    [`${name}/metadata.rb`]: `name '${name}'\nversion '${version}'\n`,
    [`${name}/recipes/default.rb`]: 'package "x"\n',
  });
}

describe('knife supermarket', () => {
  const name = uniqueName('cb');
  const dep = uniqueName('dep');
  const shared = new Map<string, Buffer>();

  it('shares cookbook versions (201 {}), refusing one shared again (409, error_messages)', async () => {
    for (const [cb, version, extra] of [
      [name, '1.0.0', { dependencies: { [dep]: '>= 0.1' } }],
      [name, '1.10.0', { dependencies: { [dep]: '~> 1.0' } }],
      [name, '1.2', {}],
      [dep, '1.0.0', {}],
    ] as const) {
      const tarball = await cookbook(cb, version, extra);
      shared.set(`${cb}@${version}`, tarball);
      const res = await share(alice.user.name, tarball);
      expect([cb, version, res.status]).toEqual([cb, version, 201]);
      expect(res.body).toEqual({});
    }
    const again = await share(alice.user.name, shared.get(`${name}@1.0.0`)!);
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ error_messages: [expect.any(String)] });
  });

  it('answers the universe Berkshelf reads, with every version, its download address and dependencies', async () => {
    const res = await signed('GET', `${api(alice.user.name)}/universe`).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual([dep, name].sort());
    expect(Object.keys(res.body[name]).sort()).toEqual(['1.0.0', '1.10.0', '1.2']);
    expect(res.body[name]['1.10.0']).toEqual({
      location_type: 'opscode',
      location_path: base(alice.user.name),
      download_url: `${base(alice.user.name)}/cookbooks/${name}/versions/1.10.0/download`,
      dependencies: { [dep]: '~> 1.0' },
    });
    expect(res.body[dep]['1.0.0'].dependencies).toEqual({});
    await signed('GET', `${api(alice.user.name)}/universe`)
      .set('If-None-Match', res.headers.etag)
      .expect(304);
  });

  it('lists and searches cookbooks with the fields knife prints, paged by start and items', async () => {
    const all = await signed('GET', `${api(alice.user.name)}/cookbooks?start=0&items=10`).expect(200);
    expect(all.body.start).toBe(0);
    expect(all.body.total).toBe(2);
    const item = all.body.items.find((row: { cookbook_name: string }) => row.cookbook_name === name);
    expect(item).toEqual({
      cookbook_name: name,
      cookbook_maintainer: 'Alice Cook',
      cookbook_description: `Installs ${name}`,
      cookbook: `${base(alice.user.name)}/cookbooks/${name}`,
    });
    const second = await signed('GET', `${api(alice.user.name)}/cookbooks?start=1&items=1`).expect(200);
    expect(second.body).toMatchObject({ start: 1, total: 2 });
    expect(second.body.items).toHaveLength(1);
    const found = await signed('GET', `${api(alice.user.name)}/search?q=${name}&start=0&items=5`).expect(200);
    expect(found.body.total).toBe(1);
    expect(found.body.items.map((row: { cookbook_name: string }) => row.cookbook_name)).toEqual([name]);
  });

  it('shows a cookbook and a version, and downloads the tarball the version names (knife show, download)', async () => {
    const show = await signed('GET', `${api(alice.user.name)}/cookbooks/${name}`).expect(200);
    const versionsBase = `${base(alice.user.name)}/cookbooks/${name}/versions`;
    expect(show.body).toEqual({
      name,
      maintainer: 'Alice Cook',
      description: `Installs ${name}`,
      category: '',
      latest_version: `${versionsBase}/1.10.0`,
      source_url: 'https://example.com/cookbooks',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      deprecated: false,
      versions: [`${versionsBase}/1.0.0`, `${versionsBase}/1.2`, `${versionsBase}/1.10.0`],
    });
    const latest = await signed('GET', pathOf(show.body.latest_version)).expect(200);
    const tarball = shared.get(`${name}@1.10.0`)!;
    expect(latest.body).toEqual({
      version: '1.10.0',
      tarball_file_size: tarball.length,
      published_at: expect.any(String),
      cookbook: `${base(alice.user.name)}/cookbooks/${name}`,
      file: `${versionsBase}/1.10.0/download`,
      license: 'Apache-2.0',
      dependencies: { [dep]: '~> 1.0' },
    });
    // knife asks for a version with `_` for `.`.
    const underscored = await signed('GET', `${api(alice.user.name)}/cookbooks/${name}/versions/1_0_0`).expect(200);
    expect(underscored.body.version).toBe('1.0.0');
    const file = await signed('GET', pathOf(latest.body.file)).responseType('blob').expect(200);
    const digest = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
    expect(digest(file.body as Buffer)).toBe(digest(tarball));
    // knife's show, download, list and search send no signature (its noauth_rest): a public owner's are readable.
    await t.request().get(pathOf(show.body.latest_version)).expect(200);
    const anonymous = await t.request().get(pathOf(latest.body.file)).responseType('blob').expect(200);
    expect(digest(anonymous.body as Buffer)).toBe(digest(tarball));
    const missing = await signed('GET', `${api(alice.user.name)}/cookbooks/${name}/versions/9.9.9`).expect(404);
    expect(missing.body).toEqual({ error_messages: [expect.any(String)] });
    await signed('GET', `${api(alice.user.name)}/cookbooks/nosuch`).expect(404);
  });

  it('lists chef versions in the package API; one deleted through it leaves the universe', async () => {
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=chef&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((p: { version: string }) => p.version).sort()).toEqual(['1.0.0', '1.10.0', '1.2']);
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/chef/${name}/1.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const universe = await signed('GET', `${api(alice.user.name)}/universe`).expect(200);
    expect(Object.keys(universe.body[name]).sort()).toEqual(['1.10.0', '1.2']);
  });

  it('unshares a version and then the whole cookbook (knife supermarket unshare)', async () => {
    await signed('DELETE', `${api(alice.user.name)}/cookbooks/${name}/versions/1_2`).expect(200);
    await signed('GET', `${api(alice.user.name)}/cookbooks/${name}/versions/1.2`).expect(404);
    await signed('DELETE', `${api(alice.user.name)}/cookbooks/${name}`).expect(200);
    await signed('GET', `${api(alice.user.name)}/cookbooks/${name}`).expect(404);
    await signed('DELETE', `${api(alice.user.name)}/cookbooks/${name}`).expect(404);
    const universe = await signed('GET', `${api(alice.user.name)}/universe`).expect(200);
    expect(Object.keys(universe.body)).toEqual([dep]);
  });
});

describe('signed requests', () => {
  const universe = () => `${api(alice.user.name)}/universe`;

  it.each(['1.0', '1.1', '1.2', '1.3'] as const)('accepts signing protocol %s', async (protocol) => {
    await signed('GET', universe(), { user: alice, protocol }).expect(200);
    expect(
      (await share(alice.user.name, await cookbook(uniqueName('p'), '0.1.0'), { user: alice, protocol })).status,
    ).toBe(201);
  });

  it('refuses a wrong key, a stale or future timestamp, another path, a missing part, a user without a key (401)', async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const cases: [string, () => ReturnType<typeof signed>][] = [
      ['wrong key', () => signed('GET', universe(), { user: alice, key: stranger })],
      ['wrong key, 1.0', () => signed('GET', universe(), { user: alice, key: stranger, protocol: '1.0' })],
      ['stale', () => signed('GET', universe(), { user: alice, time: new Date(Date.now() - 20 * 60_000) })],
      ['future', () => signed('GET', universe(), { user: alice, time: new Date(Date.now() + 20 * 60_000) })],
      ['other path', () => signed('GET', universe(), { user: alice, signedPath: `${api(alice.user.name)}/search` })],
      [
        'other method',
        () =>
          signed('GET', universe(), { user: alice }).set(
            chefHeaders({
              method: 'DELETE',
              path: universe(),
              userId: alice.user.name,
              key: keys.get(alice.user.name)!,
            }),
          ),
      ],
      ['missing part', () => signed('GET', universe(), { user: alice }).set('X-Ops-Authorization-2', '')],
      [
        'bad version',
        () => signed('GET', universe(), { user: alice }).set('X-Ops-Sign', 'algorithm=sha1;version=2.0;'),
      ],
      [
        'sha256 below 1.3',
        () =>
          signed('GET', universe(), { user: alice, protocol: '1.1' }).set(
            'X-Ops-Sign',
            'algorithm=sha256;version=1.1;',
          ),
      ],
      ['no timestamp', () => signed('GET', universe(), { user: alice }).set('X-Ops-Timestamp', '')],
    ];
    for (const [what, request] of cases) {
      const res = await request();
      expect([what, res.status]).toEqual([what, 401]);
      expect(res.body).toEqual({ error_messages: [expect.any(String)] });
    }
    const keyless = await createTestUser(t);
    const res = await t
      .request()
      .get(universe())
      .set(
        chefHeaders({ method: 'GET', path: universe(), userId: keyless.user.name, key: keys.get(alice.user.name)! }),
      );
    expect(res.status).toBe(401);
    const unknown = await t
      .request()
      .get(universe())
      .set(chefHeaders({ method: 'GET', path: universe(), userId: 'nosuchuser', key: keys.get(alice.user.name)! }));
    expect(unknown.status).toBe(401);
  });

  it('takes a key pair made by the registry (the settings page, `anvil admin user chef-keypair`)', async () => {
    const carol = await createTestUser(t);
    const privatePem = await t.context.services.chefKeys.regenerate(carol.user);
    expect(privatePem).toMatch(/^-----BEGIN RSA PRIVATE KEY-----/);
    const setting = await t.context.repos.userSettings.get(carol.user.id, 'chef.public_pem');
    expect(setting).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    const { createPrivateKey } = await import('node:crypto');
    keys.set(carol.user.name, createPrivateKey(privatePem));
    await signed('GET', `${api(carol.user.name)}/universe`, { user: carol }).expect(200);
    await expect(t.context.services.chefKeys.setPublicKey(carol.user, 'not a key')).rejects.toThrow(/PEM/);
  });
});

describe('access', () => {
  it('hides a private owner (404), refuses a stranger (403) and an anonymous share (401)', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    expect((await share(org.name, await cookbook('secret', '1.0.0'))).status).toBe(201);
    await t
      .request()
      .get(`${api(org.name)}/universe`)
      .expect(404);
    await signed('GET', `${api(org.name)}/universe`, { user: bob }).expect(404);
    expect((await share(org.name, await cookbook('secret', '2.0.0'), { user: bob })).status).toBe(404);
    expect((await share(alice.user.name, await cookbook('theirs', '1.0.0'), { user: bob })).status).toBe(403);
    await t
      .request()
      .post(`${api(alice.user.name)}/cookbooks`)
      .send('x')
      .expect(401);
    const universe = await signed('GET', `${api(org.name)}/universe`).expect(200);
    expect(Object.keys(universe.body)).toEqual(['secret']);
  });

  it('honours token scopes: read:package reads, write:package shares', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const post = (token: string, tarball: Buffer) =>
      t
        .request()
        .post(`${api(alice.user.name)}/cookbooks`)
        .set('Authorization', `token ${token}`)
        .attach('tarball', tarball, 'cookbook.tgz');
    expect((await post(reader, await cookbook('scoped', '1.0.0'))).status).toBe(403);
    expect((await post(writer, await cookbook('scoped', '1.0.0'))).status).toBe(201);
    const universe = `${api(alice.user.name)}/universe`;
    await t.request().get(universe).set('Authorization', `token ${reader}`).expect(200);
    await t.request().get(universe).set('Authorization', `token ${other}`).expect(403);
  });
});

describe('refusals', () => {
  it("refuses a tarball past the owner's quota (413) and keeps nothing", async () => {
    const owner = await withKey(await createTestUser(t));
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t).length;
    const big = await tarGz({ 'big/metadata.json': metadata('big', '1.0.0'), 'big/blob.bin': randomBytes(200_000) });
    const res = await share(owner.user.name, big, { user: owner });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error_messages: [expect.any(String)] });
    expect(blobFiles(t)).toHaveLength(before);
  });

  it('refuses a tarball past [packages] LIMIT_SIZE_CHEF (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_CHEF: '2000' });
    try {
      const owner = await createTestUser(limited);
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      await limited.context.services.chefKeys.setPublicKey(
        owner.user,
        publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      );
      const tarball = await tarGz({ 'big/metadata.json': metadata('big', '1.0.0'), 'big/blob.bin': randomBytes(5000) });
      const { body, contentType } = shareBody(tarball, 'big.tgz');
      const path = `${api(owner.user.name)}/cookbooks`;
      const headers = chefHeaders({ method: 'POST', path, body, userId: owner.user.name, key: privateKey });
      const res = await limited.request().post(path).set(headers).set('Content-Type', contentType).send(body);
      expect(res.status).toBe(413);
      expect(await limited.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
      const small = await cookbook('small', '1.0.0');
      const fits = shareBody(small, 'small.tgz');
      const signedSmall = chefHeaders({
        method: 'POST',
        path,
        body: fits.body,
        userId: owner.user.name,
        key: privateKey,
      });
      await limited
        .request()
        .post(path)
        .set(signedSmall)
        .set('Content-Type', fits.contentType)
        .send(fits.body)
        .expect(201);
    } finally {
      await limited.close();
    }
  });

  it('refuses hostile and malformed tarballs (400) and keeps nothing', async () => {
    const owner = await withKey(await createTestUser(t));
    const before = blobFiles(t).length;
    const cases: [string, Buffer][] = [
      ['path traversal', await tarGz({ '../evil/metadata.json': metadata('evil', '1.0.0') })],
      [
        'a gzip bomb',
        await tarGz({
          'bomb/padding.bin': Buffer.alloc(110 * 1024 * 1024),
          'bomb/metadata.json': metadata('bomb', '1.0.0'),
        }),
      ],
      [
        '10 MB of metadata',
        await tarGz({ 'huge/metadata.json': metadata('huge', '1.0.0', { x: 'y'.repeat(10 * 1024 * 1024) }) }),
      ],
      ['not gzip', randomBytes(1000)],
      ['no metadata.json', await tarGz({ 'x/metadata.rb': "name 'x'\n" })],
      ['bad JSON', await tarGz({ 'x/metadata.json': '{name' })],
      ['a bad name', await tarGz({ 'x/metadata.json': metadata('../x', '1.0.0') })],
      ['a bad version', await tarGz({ 'x/metadata.json': metadata('x', '1.0.0-beta') })],
    ];
    for (const [what, bytes] of cases) {
      const res = await share(owner.user.name, bytes, { user: owner });
      expect([what, res.status]).toEqual([what, 400]);
    }
    expect(blobFiles(t)).toHaveLength(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});
