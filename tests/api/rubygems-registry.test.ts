// The RubyGems registry under /api/packages/{owner}/rubygems as gem 3.3 drives it: push, the specs lists, the
// dependency API, quick specifications, downloads and yank; refusals (a version twice, hostile gems, the size limit
// and the quota), access and token scopes, and the package API's view of what was pushed.
import { createHash, randomBytes } from 'node:crypto';
import { gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import tar from 'tar-stream';
import { dependencyList, specsList } from '../../src/packages/rubygems/gem-index.ts';
import { parseGemSpec } from '../../src/packages/rubygems/gem-spec.ts';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/rubygems`;

interface Entry {
  name: string;
  body?: Buffer;
  type?: 'file' | 'symlink';
  linkname?: string;
}

async function tarOf(entries: Entry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise((resolve) => pack.on('end', resolve));
  for (const entry of entries) pack.entry({ name: entry.name, type: entry.type, linkname: entry.linkname }, entry.body);
  pack.finalize();
  await done;
  return Buffer.concat(chunks);
}

function specYaml(name: string, version: string, extra = ''): string {
  return [
    '--- !ruby/object:Gem::Specification',
    `name: ${name}`,
    'version: !ruby/object:Gem::Version',
    `  version: ${version}`,
    'platform: ruby',
    'authors:',
    '- Anvil',
    'dependencies:',
    '- !ruby/object:Gem::Dependency',
    '  name: rake',
    '  requirement: !ruby/object:Gem::Requirement',
    '    requirements:',
    '    - - "~>"',
    '      - !ruby/object:Gem::Version',
    "        version: '13.0'",
    '  type: :runtime',
    '  prerelease: false',
    'summary: A probe',
    'licenses:',
    '- MIT',
    extra,
  ].join('\n');
}

/** A .gem as `gem build` makes it: metadata.gz, data.tar.gz, checksums.yaml.gz. */
async function gemOf(name: string, version: string, options: { yaml?: string; data?: Buffer } = {}): Promise<Buffer> {
  const data = options.data ?? gzipSync(await tarOf([{ name: `lib/${name}.rb`, body: randomBytes(200) }]));
  return tarOf([
    { name: 'metadata.gz', body: gzipSync(options.yaml ?? specYaml(name, version)) },
    { name: 'data.tar.gz', body: data },
    { name: 'checksums.yaml.gz', body: gzipSync('--- {}\n') },
  ]);
}

function push(owner: string, auth: string | null, gem: Buffer) {
  const request = t
    .request()
    .post(`${registry(owner)}/api/v1/gems`)
    .set('Content-Type', 'application/octet-stream');
  if (auth) request.set('Authorization', auth);
  return request.send(gem);
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

const specs = async (owner: string, kind = 'specs', auth?: string) =>
  gunzipSync((await raw(`${registry(owner)}/${kind}.4.8.gz`, auth).expect(200)).body as Buffer);

/** A valid data.tar.gz that does not compress. */
const bigData = async () => gzipSync(await tarOf([{ name: 'lib/big.bin', body: randomBytes(200_000) }]));

const tuple = (name: string, version: string) => ({ name, version, platform: 'ruby' });

describe('push and install', () => {
  it('takes a gem and serves it in the specs lists, the dependency API, its quick specification and download', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('probe');
    const gem = await gemOf(name, '1.0.0');
    const pushed = await push(owner.user.name, owner.auth, gem).expect(201);
    expect(pushed.text).toBe(`Successfully registered gem: ${name} (1.0.0)\n`);
    await push(owner.user.name, owner.auth, await gemOf(name, '1.1.0')).expect(201);
    await push(owner.user.name, owner.auth, await gemOf(name, '2.0.0.rc1')).expect(201);

    expect(await specs(owner.user.name)).toEqual(specsList([tuple(name, '1.0.0'), tuple(name, '1.1.0')]));
    expect(await specs(owner.user.name, 'latest_specs')).toEqual(specsList([tuple(name, '1.1.0')]));
    expect(await specs(owner.user.name, 'prerelease_specs')).toEqual(specsList([tuple(name, '2.0.0.rc1')]));

    const deps = await raw(`${registry(owner.user.name)}/api/v1/dependencies?gems=${name},other`).expect(200);
    const expected = ['1.0.0', '1.1.0', '2.0.0.rc1'].map((version) => parseGemSpec(specYaml(name, version)));
    expect(deps.body).toEqual(dependencyList(expected));
    expect(deps.body.includes(Buffer.from('~> 13.0'))).toBe(true);
    const none = await raw(`${registry(owner.user.name)}/api/v1/dependencies`).expect(200);
    expect(none.body).toHaveLength(0);

    const quick = await raw(`${registry(owner.user.name)}/quick/Marshal.4.8/${name}-1.0.0.gemspec.rz`).expect(200);
    const dumped = inflateSync(quick.body as Buffer);
    expect(dumped.includes(Buffer.from('Gem::Specification'))).toBe(true);
    expect(dumped.includes(Buffer.from('A probe'))).toBe(true);

    const file = await raw(`${registry(owner.user.name)}/gems/${name}-1.0.0.gem`).expect(200);
    expect(Buffer.compare(file.body as Buffer, gem)).toBe(0);
    await raw(`${registry(owner.user.name)}/gems/${name}-9.9.gem`).expect(404);
    await raw(`${registry(owner.user.name)}/quick/Marshal.4.8/${name}-9.9.gemspec.rz`).expect(404);
  });

  it('answers the specs lists with an ETag, and 304 while nothing changed', async () => {
    const owner = await createTestUser(t);
    await push(owner.user.name, owner.auth, await gemOf(uniqueName('cached'), '1.0.0')).expect(201);
    const first = await raw(`${registry(owner.user.name)}/specs.4.8.gz`).expect(200);
    await t
      .request()
      .get(`${registry(owner.user.name)}/specs.4.8.gz`)
      .set('If-None-Match', first.headers.etag)
      .expect(304);
    await push(owner.user.name, owner.auth, await gemOf(uniqueName('cached'), '1.0.0')).expect(201);
    const second = await raw(`${registry(owner.user.name)}/specs.4.8.gz`).set('If-None-Match', first.headers.etag);
    expect(second.status).toBe(200);
  });

  it('yanks a version (DELETE api/v1/gems/yank with the form gem sends), which leaves the lists', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('yanked');
    await push(owner.user.name, owner.auth, await gemOf(name, '1.0.0')).expect(201);
    await push(owner.user.name, owner.auth, await gemOf(name, '1.1.0')).expect(201);
    await t
      .request()
      .delete(`${registry(owner.user.name)}/api/v1/gems/yank`)
      .set('Authorization', owner.auth)
      .type('form')
      .send({ gem_name: name, version: '1.1.0' })
      .expect(200);
    expect(await specs(owner.user.name, 'latest_specs')).toEqual(specsList([tuple(name, '1.0.0')]));
    await raw(`${registry(owner.user.name)}/gems/${name}-1.1.0.gem`).expect(404);
    await t
      .request()
      .delete(`${registry(owner.user.name)}/api/v1/gems/yank`)
      .set('Authorization', owner.auth)
      .type('form')
      .send({ gem_name: name, version: '1.1.0' })
      .expect(404);
    await t
      .request()
      .delete(`${registry(owner.user.name)}/api/v1/gems/yank`)
      .set('Authorization', bob.auth)
      .type('form')
      .send({ gem_name: name, version: '1.0.0' })
      .expect(403);
  });
});

describe('the compact index', () => {
  const md5 = (text: string) => createHash('md5').update(text).digest('hex');
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  it('serves versions and info/NAME as Bundler reads them, each tagged with the MD5 of its body', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('compact');
    const first = await gemOf(name, '1.0.0');
    await push(owner.user.name, owner.auth, first).expect(201);
    await push(owner.user.name, owner.auth, await gemOf(name, '1.1.0')).expect(201);
    const other = uniqueName('other');
    await push(owner.user.name, owner.auth, await gemOf(other, '0.1.0')).expect(201);

    const info = await t
      .request()
      .get(`${registry(owner.user.name)}/info/${name}`)
      .expect(200);
    expect(info.headers['content-type']).toMatch(/^text\/plain/);
    expect(info.headers['content-encoding']).toBeUndefined();
    expect(info.headers.etag).toBe(`"${md5(info.text)}"`);
    const lines = info.text.split('\n');
    expect(lines[0]).toBe('---');
    expect(lines[1]).toMatch(
      new RegExp(`^1\\.0\\.0 rake:~> 13\\.0\\|checksum:${sha256(first)}(,ruby:[^,]+)?(,rubygems:.+)?$`),
    );
    expect(lines[2]).toMatch(/^1\.1\.0 rake:~> 13\.0\|checksum:[0-9a-f]{64}/);
    expect(lines).toHaveLength(4);

    const versions = await t
      .request()
      .get(`${registry(owner.user.name)}/versions`)
      .expect(200);
    expect(versions.headers.etag).toBe(`"${md5(versions.text)}"`);
    expect(versions.text.split('\n')).toEqual(
      expect.arrayContaining([
        '---',
        `${name} 1.0.0,1.1.0 ${md5(info.text)}`,
        expect.stringMatching(`^${other} 0\\.1\\.0 `),
      ]),
    );

    // Revalidated by the tag, even from a client that accepts gzip; a change gives new bodies.
    await t
      .request()
      .get(`${registry(owner.user.name)}/versions`)
      .set('Accept-Encoding', 'gzip')
      .set('If-None-Match', versions.headers.etag)
      .expect(304);
    await t
      .request()
      .get(`${registry(owner.user.name)}/info/${name.toUpperCase()}`)
      .expect(200);
    await t
      .request()
      .get(`${registry(owner.user.name)}/info/${uniqueName('none')}`)
      .expect(404);
    await t
      .request()
      .delete(`${registry(owner.user.name)}/api/v1/gems/yank`)
      .set('Authorization', owner.auth)
      .type('form')
      .send({ gem_name: name, version: '1.1.0' })
      .expect(200);
    const after = await t
      .request()
      .get(`${registry(owner.user.name)}/versions`)
      .expect(200);
    expect(after.text).toContain(`${name} 1.0.0 `);
    expect(
      (
        await t
          .request()
          .get(`${registry(owner.user.name)}/info/${name}`)
          .expect(200)
      ).text,
    ).not.toContain('1.1.0');
  });

  it('hides a private owner from outsiders (404)', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    await push(org.name, alice.auth, await gemOf(uniqueName('hidden'), '1.0.0')).expect(201);
    await t
      .request()
      .get(`${registry(org.name)}/versions`)
      .expect(404);
    await t
      .request()
      .get(`${registry(org.name)}/versions`)
      .set('Authorization', bob.auth)
      .expect(404);
    await t
      .request()
      .get(`${registry(org.name)}/versions`)
      .set('Authorization', alice.auth)
      .expect(200);
  });
});

describe('refusals', () => {
  it('answers 409 in plain text for a version pushed twice, keeping the first', async () => {
    const name = uniqueName('dup');
    const first = await gemOf(name, '1.0.0');
    await push(alice.user.name, alice.auth, first).expect(201);
    const again = await push(alice.user.name, alice.auth, await gemOf(name, '1.0.0')).expect(409);
    expect(again.text).toBe('package version already exists\n');
    const file = await raw(`${registry(alice.user.name)}/gems/${name}-1.0.0.gem`).expect(200);
    expect(Buffer.compare(file.body as Buffer, first)).toBe(0);
  });

  it.each([
    ['not a tar archive', async () => randomBytes(3000)],
    ['a tar without metadata.gz', () => tarOf([{ name: 'data.tar.gz', body: gzipSync(Buffer.alloc(10)) }])],
    ['an invalid name', () => gemOf('x', '1.0', { yaml: specYaml('../evil', '1.0') })],
    ['an invalid version', () => gemOf('x', '1.0', { yaml: specYaml('fine', 'one') })],
    ['metadata that is not YAML', () => gemOf('x', '1.0', { yaml: 'name: [unclosed' })],
    [
      '10 MB of metadata',
      () => gemOf('x', '1.0', { yaml: specYaml('big', '1.0', `description: ${'a'.repeat(10e6)}`) }),
    ],
    [
      'a path outside the gem in data.tar.gz',
      async () =>
        gemOf('x', '1.0', { data: gzipSync(await tarOf([{ name: '../../etc/evil', body: Buffer.from('x') }])) }),
    ],
    [
      'a link out of the gem in data.tar.gz',
      async () =>
        gemOf('x', '1.0', {
          data: gzipSync(await tarOf([{ name: 'lib/x', type: 'symlink', linkname: '../../../etc' }])),
        }),
    ],
    [
      'a decompression bomb in data.tar.gz',
      () => gemOf('x', '1.0', { data: gzipSync(Buffer.alloc(80 * 1024 * 1024)) }),
    ],
  ])('refuses %s with 400 and keeps nothing', async (_label, make) => {
    const owner = await createTestUser(t);
    const before = blobFiles(t);
    const res = await push(owner.user.name, owner.auth, await make()).expect(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });

  it('refuses a gem past [packages] LIMIT_SIZE_RUBYGEMS (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_RUBYGEMS: '1000' });
    try {
      const carol = await createTestUser(limited);
      await limited
        .request()
        .post(`${registry(carol.user.name)}/api/v1/gems`)
        .set('Authorization', carol.auth)
        .send(await gemOf(uniqueName('big'), '1.0.0', { data: randomBytes(5000) }))
        .expect(413);
      expect(await limited.context.db.prisma.package.count({ where: { ownerId: carol.user.id } })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it("refuses a gem past the owner's package quota while streaming (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const group = await t.context.services.quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await t.context.services.quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t);
    await push(owner.user.name, owner.auth, await gemOf(uniqueName('big'), '1.0.0', { data: await bigData() })).expect(
      413,
    );
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});

describe('access', () => {
  it('asks an anonymous pusher to sign in (401), and refuses a push to another user (403)', async () => {
    await push(alice.user.name, null, await gemOf(uniqueName('anon'), '1.0')).expect(401);
    await push(alice.user.name, bob.auth, await gemOf(uniqueName('theirs'), '1.0')).expect(403);
  });

  it('hides a private owner from outsiders and anonymous clients (404) and serves its members', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const name = uniqueName('secret');
    await push(org.name, alice.auth, await gemOf(name, '1.0.0')).expect(201);
    await t
      .request()
      .get(`${registry(org.name)}/specs.4.8.gz`)
      .expect(404);
    await t
      .request()
      .get(`${registry(org.name)}/specs.4.8.gz`)
      .set('Authorization', bob.auth)
      .expect(404);
    await push(org.name, bob.auth, await gemOf(name, '2.0.0')).expect(404);
    expect(await specs(org.name, 'specs', alice.auth)).toEqual(specsList([tuple(name, '1.0.0')]));
  });

  it('honours token scopes: read:package reads, write:package pushes, other scopes do neither', async () => {
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    const url = `${registry(alice.user.name)}/specs.4.8.gz`;
    await t.request().get(url).set('Authorization', `Bearer ${reader}`).expect(200);
    await push(alice.user.name, `Bearer ${reader}`, await gemOf(uniqueName('scoped'), '1.0')).expect(403);
    await push(alice.user.name, `Bearer ${writer}`, await gemOf(uniqueName('scoped'), '1.0')).expect(201);
    await t.request().get(url).set('Authorization', `Bearer ${other}`).expect(403);
  });
});

describe('the package API', () => {
  it('lists the versions with type rubygems, and a version deleted through it leaves the specs lists', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('listed');
    await push(owner.user.name, owner.auth, await gemOf(name, '1.0.0')).expect(201);
    await push(owner.user.name, owner.auth, await gemOf(name, '2.0.0')).expect(201);
    const list = await t
      .request()
      .get(`/api/v1/packages/${owner.user.name}?type=rubygems`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(list.body.map((item: { version: string }) => item.version).sort()).toEqual(['1.0.0', '2.0.0']);
    expect(list.body[0]).toMatchObject({ type: 'rubygems', name });
    const files = await t
      .request()
      .get(`/api/v1/packages/${owner.user.name}/rubygems/${name}/2.0.0/files`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(files.body.map((file: { name: string }) => file.name)).toEqual([`${name}-2.0.0.gem`]);
    await t
      .request()
      .delete(`/api/v1/packages/${owner.user.name}/rubygems/${name}/2.0.0`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect(await specs(owner.user.name, 'latest_specs')).toEqual(specsList([tuple(name, '1.0.0')]));
    await raw(`${registry(owner.user.name)}/gems/${name}-2.0.0.gem`).expect(404);
  });
});
