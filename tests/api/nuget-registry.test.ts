// The NuGet registry under /api/packages/{owner}/nuget, followed request by request as the NuGet client makes them
// (no dotnet runs here): the V3 service index and every resource it names, push with X-NuGet-ApiKey, the package
// base address, registration, search, symbol packages and the symbol server, delete, and the V2 feed as Forgejo
// keeps it; access, scopes, quota, and hostile archives.
import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { createTestOrg, createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { nupkg, nuspecXml, pdbIdOf, portablePdb, snupkg, zip } from '../helpers/nuget.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/nuget`;
const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true });

/** `dotnet nuget push`: a multipart form with the package, the token in X-NuGet-ApiKey. */
function push(owner: string, apiKey: string | null, bytes: Buffer, resource = '') {
  const request = t.request().put(`${registry(owner)}${resource}`);
  if (apiKey) request.set('X-NuGet-ApiKey', apiKey);
  return request.attach('package', bytes, { filename: 'package.nupkg', contentType: 'application/octet-stream' });
}

const get = (url: string, token?: string) => {
  const request = t.request().get(url);
  if (token) request.set('X-NuGet-ApiKey', token);
  return request;
};

describe('the V3 protocol, as the client walks it', () => {
  const id = `Anvil.Test${uniqueName('p').replace(/[^a-z0-9]/gi, '')}`;
  const lower = id.toLowerCase();

  it('names every resource in the service index, read anonymously', async () => {
    const res = await get(`${registry(alice.user.name)}/index.json`).expect(200);
    const base = `${t.context.settings.server.ROOT_URL}api/packages/${alice.user.name}/nuget`;
    expect(res.body.version).toBe('3.0.0');
    const types = Object.fromEntries(
      (res.body.resources as { '@id': string; '@type': string }[]).map((r) => [r['@type'], r['@id']]),
    );
    expect(types).toMatchObject({
      SearchQueryService: `${base}/query`,
      'SearchQueryService/3.0.0-rc': `${base}/query`,
      RegistrationsBaseUrl: `${base}/registration`,
      'RegistrationsBaseUrl/3.0.0-rc': `${base}/registration`,
      'PackageBaseAddress/3.0.0': `${base}/package`,
      'PackagePublish/2.0.0': base,
      'SymbolPackagePublish/4.9.0': `${base}/symbolpackage`,
    });
  });

  it('pushes packages, lists versions in order, serves the .nupkg and the .nuspec, and refuses a second push (409)', async () => {
    const extra =
      '<projectUrl>https://example.com/p</projectUrl><tags>one two</tags><title>The title</title>' +
      '<dependencies><group targetFramework="net8.0"><dependency id="Other.Lib" version="[1.2.0, )" /></group></dependencies>';
    const v1 = await nupkg({ id, version: '1.0.0', extra });
    const v2 = await nupkg({ id, version: '1.10.0-beta.1', description: 'Second' });
    const v3 = await nupkg({ id, version: '1.2' });
    await push(alice.user.name, alice.token, v1).expect(201);
    await push(alice.user.name, alice.token, v2).expect(201);
    await push(alice.user.name, alice.token, v3).expect(201);
    const again = await push(alice.user.name, alice.token, v1).expect(409);
    expect(again.body).toEqual({ Message: expect.any(String) });

    const versions = await get(`${registry(alice.user.name)}/package/${lower}/index.json`).expect(200);
    expect(versions.body).toEqual({ versions: ['1.0.0', '1.2.0', '1.10.0-beta.1'] });
    const content = await get(`${registry(alice.user.name)}/package/${lower}/1.0.0/${lower}.1.0.0.nupkg`)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(content.body as Buffer, v1)).toBe(0);
    const nuspec = await get(`${registry(alice.user.name)}/package/${lower}/1.0.0/${lower}.nuspec`).expect(200);
    expect(nuspec.text).toContain(`<id>${id}</id>`);
    await get(`${registry(alice.user.name)}/package/${lower}/9.9.9/${lower}.9.9.9.nupkg`).expect(404);
    await get(`${registry(alice.user.name)}/package/nosuch/index.json`).expect(404);
  });

  it('answers the registration index with every field the client reads, and each leaf', async () => {
    const base = `${t.context.settings.server.ROOT_URL}api/packages/${alice.user.name}/nuget`;
    const res = await get(`${registry(alice.user.name)}/registration/${lower}/index.json`).expect(200);
    expect(res.headers.etag).toBeTruthy();
    await get(`${registry(alice.user.name)}/registration/${lower}/index.json`)
      .set('If-None-Match', res.headers.etag)
      .expect(304);
    expect(res.body.count).toBe(1);
    const [page] = res.body.items;
    expect(page).toMatchObject({ count: 3, lower: '1.0.0', upper: '1.10.0-beta.1' });
    const first = page.items[0];
    expect(first).toMatchObject({
      '@id': `${base}/registration/${lower}/1.0.0.json`,
      packageContent: `${base}/package/${lower}/1.0.0/${lower}.1.0.0.nupkg`,
      catalogEntry: {
        id,
        version: '1.0.0',
        authors: 'Test Author',
        description: 'A test package',
        title: 'The title',
        tags: ['one', 'two'],
        projectUrl: 'https://example.com/p',
        listed: true,
        requireLicenseAcceptance: false,
        published: expect.any(String),
        packageContent: `${base}/package/${lower}/1.0.0/${lower}.1.0.0.nupkg`,
        dependencyGroups: [
          {
            targetFramework: 'net8.0',
            dependencies: [{ id: 'Other.Lib', range: '[1.2.0, )', registration: expect.any(String) }],
          },
        ],
      },
    });
    const leaf = await get(`${registry(alice.user.name)}/registration/${lower}/1.2.0.json`).expect(200);
    expect(leaf.body).toMatchObject({
      listed: true,
      packageContent: `${base}/package/${lower}/1.2.0/${lower}.1.2.0.nupkg`,
      registration: `${base}/registration/${lower}/index.json`,
    });
  });

  it('searches by id with paging and the total', async () => {
    const res = await get(
      `${registry(alice.user.name)}/query?q=${lower.slice(0, 12)}&skip=0&take=20&prerelease=true&semVerLevel=2.0.0`,
    ).expect(200);
    expect(res.body.totalHits).toBe(1);
    expect(res.body.data[0]).toMatchObject({
      id,
      version: '1.10.0-beta.1',
      description: 'Second',
      versions: [{ version: '1.0.0' }, { version: '1.2.0' }, { version: '1.10.0-beta.1' }],
    });
    const none = await get(`${registry(alice.user.name)}/query?q=${lower}&skip=1&take=20`).expect(200);
    expect(none.body).toEqual({ totalHits: 1, data: [] });
  });

  it('takes a symbol package for a pushed version and serves its PDB through the symbol server', async () => {
    const guid = randomBytes(16);
    const pdb = portablePdb(guid);
    const symbols = await snupkg({ id, version: '1.0.0' }, { [`lib/net8.0/${id}.pdb`]: pdb });
    await push(alice.user.name, alice.token, symbols, '/symbolpackage').expect(201);
    await push(alice.user.name, alice.token, symbols, '/symbolpackage').expect(409);
    const missing = await snupkg({ id, version: '7.0.0' }, { [`lib/net8.0/${id}.pdb`]: pdb });
    await push(alice.user.name, alice.token, missing, '/symbolpackage').expect(404);
    // A symbol package pushed as a package, and a package pushed as symbols, are refused.
    await push(alice.user.name, alice.token, symbols).expect(400);
    await push(alice.user.name, alice.token, await nupkg({ id, version: '1.0.0' }), '/symbolpackage').expect(400);

    const file = `${lower}.pdb`;
    const symbolUrl = `${registry(alice.user.name)}/symbols/${file}/${pdbIdOf(guid)}FFFFFFFF/${file}`;
    const res = await get(symbolUrl)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(res.body as Buffer, pdb)).toBe(0);
    await get(`${registry(alice.user.name)}/symbols/${file}/${'0'.repeat(32)}FFFFFFFF/${file}`).expect(404);
    await get(`${registry(alice.user.name)}/symbols/${file}/${pdbIdOf(guid)}FFFFFFFF/other.pdb`).expect(400);
    const snupkgFile = await get(`${registry(alice.user.name)}/package/${lower}/1.0.0/${lower}.1.0.0.snupkg`);
    expect(snupkgFile.status).toBe(200);
  });

  it('serves the V2 feed: service document, $metadata, Packages(), FindPackagesById(), Search() and their counts', async () => {
    const root = await get(`${registry(alice.user.name)}/`).expect(200);
    expect(root.headers['content-type']).toMatch(/^application\/atom\+xml/);
    expect(xml.parse(root.text).service.workspace.collection['@href']).toBe('Packages');
    const metadata = await get(`${registry(alice.user.name)}/$metadata`).expect(200);
    expect(metadata.text).toContain('Name="FindPackagesById"');

    const byId = await get(`${registry(alice.user.name)}/FindPackagesById()?id='${id}'`).expect(200);
    const feed = xml.parse(byId.text).feed;
    expect(feed.count).toBe(3);
    expect(feed.entry.map((entry: { properties: { Version: string } }) => entry.properties.Version)).toEqual([
      '1.0.0',
      '1.2.0',
      '1.10.0-beta.1',
    ]);
    expect(feed.entry[0].content['@src']).toMatch(
      new RegExp(`/package/${lower}/1\\.0\\.0/${lower}\\.1\\.0\\.0\\.nupkg$`),
    );
    expect(feed.entry[0].properties.Dependencies).toBe('Other.Lib:[1.2.0, ):net8.0');
    const count = await get(`${registry(alice.user.name)}/FindPackagesById()/$count?id='${id}'`).expect(200);
    expect(count.text).toBe('3');

    const one = await get(`${registry(alice.user.name)}/Packages(Id='${id}',Version='1.2.0')`).expect(200);
    expect(xml.parse(one.text).entry.properties.Version).toBe('1.2.0');
    await get(`${registry(alice.user.name)}/Packages(Id='${id}',Version='5.0.0')`).expect(404);

    const searched = await get(`${registry(alice.user.name)}/Search()?searchTerm='${lower}'&$skip=0&$top=30`).expect(
      200,
    );
    const found = xml.parse(searched.text).feed;
    expect(found.count).toBe(1);
    expect(found.entry.properties.Version).toBe('1.10.0-beta.1');
    const filtered = await get(
      `${registry(alice.user.name)}/Packages()?$filter=${encodeURIComponent(`(tolower(Id) eq '${lower}')`)}`,
    ).expect(200);
    expect(xml.parse(filtered.text).feed.entry.title['#text']).toBe(id);
    const counted = await get(`${registry(alice.user.name)}/Search()/$count?searchTerm='${lower}'`).expect(200);
    expect(counted.text).toBe('1');
  });

  it('deletes a version (`dotnet nuget delete`) and the feeds drop it', async () => {
    await t
      .request()
      .delete(`${registry(alice.user.name)}/${id}/1.2.0`)
      .set('X-NuGet-ApiKey', alice.token)
      .expect(204);
    const versions = await get(`${registry(alice.user.name)}/package/${lower}/index.json`).expect(200);
    expect(versions.body.versions).toEqual(['1.0.0', '1.10.0-beta.1']);
    const index = await get(`${registry(alice.user.name)}/registration/${lower}/index.json`).expect(200);
    expect(index.body.items[0].count).toBe(2);
    await t
      .request()
      .delete(`${registry(alice.user.name)}/${id}/1.2.0`)
      .set('X-NuGet-ApiKey', alice.token)
      .expect(404);
  });
});

describe('the package API', () => {
  it('lists nuget versions, and a version deleted through it leaves the feeds', async () => {
    const id = `Listed${uniqueName('n').replace(/[^a-z0-9]/gi, '')}`;
    await push(alice.user.name, alice.token, await nupkg({ id, version: '2.0.0' })).expect(201);
    await push(alice.user.name, alice.token, await nupkg({ id, version: '2.1.0' })).expect(201);
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=nuget&q=${id.toLowerCase()}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body.map((p: { name: string; version: string; type: string }) => [p.type, p.name, p.version])).toEqual([
      ['nuget', id, '2.1.0'],
      ['nuget', id, '2.0.0'],
    ]);
    const files = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/nuget/${id}/2.0.0/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body.map((f: { name: string }) => f.name).sort()).toEqual(
      [`${id}.2.0.0.nupkg`, `${id}.nuspec`].map((n) => n.toLowerCase()).sort(),
    );
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/nuget/${id}/2.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    const versions = await get(`${registry(alice.user.name)}/package/${id.toLowerCase()}/index.json`).expect(200);
    expect(versions.body).toEqual({ versions: ['2.1.0'] });
  });
});

describe('access', () => {
  it('challenges an anonymous push (401), refuses a push to another owner (403) and a wrong key (401)', async () => {
    const bytes = await nupkg({ id: 'Access.Test', version: '1.0.0' });
    const anonymous = await push(alice.user.name, null, bytes).expect(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
    expect(anonymous.body).toEqual({ Message: expect.any(String) });
    await push(alice.user.name, bob.token, bytes).expect(403);
    await push(alice.user.name, '0123456789abcdef0123456789abcdef01234567', bytes).expect(401);
  });

  it('hides a private owner: anonymous callers are challenged, outsiders get 404, members read', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const id = 'Private.Pkg';
    await push(org.name, alice.token, await nupkg({ id, version: '1.0.0' })).expect(201);
    await get(`${registry(org.name)}/index.json`).expect(401);
    await get(`${registry(org.name)}/package/private.pkg/index.json`).expect(401);
    await get(`${registry(org.name)}/index.json`, bob.token).expect(404);
    await get(`${registry(org.name)}/package/private.pkg/index.json`, bob.token).expect(404);
    await push(org.name, bob.token, await nupkg({ id, version: '2.0.0' })).expect(404);
    await get(`${registry(org.name)}/package/private.pkg/index.json`, alice.token).expect(200);
  });

  it('honours token scopes: read:package reads, write:package pushes, other scopes do neither', async () => {
    const id = `Scoped${uniqueName('s').replace(/[^a-z0-9]/gi, '')}`;
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    await push(alice.user.name, reader, await nupkg({ id, version: '1.0.0' })).expect(403);
    await push(alice.user.name, other, await nupkg({ id, version: '1.0.0' })).expect(403);
    await push(alice.user.name, writer, await nupkg({ id, version: '1.0.0' })).expect(201);
    await get(`${registry(alice.user.name)}/package/${id.toLowerCase()}/index.json`, reader).expect(200);
    await get(`${registry(alice.user.name)}/package/${id.toLowerCase()}/index.json`, other).expect(403);
    await t
      .request()
      .delete(`${registry(alice.user.name)}/${id}/1.0.0`)
      .set('X-NuGet-ApiKey', reader)
      .expect(403);
  });
});

describe('refusals', () => {
  it("refuses a package past the owner's quota (413) and keeps nothing", async () => {
    const owner = await createTestUser(t);
    const quota = t.context.services.quota;
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: uniqueName('rule'), limit: 100_000, subjects: ['size:assets:packages:all'] }],
    });
    await quota.addUserToGroup(group.name, owner.user);
    const before = blobFiles(t).length;
    const big = await nupkg({ id: 'Big.Pkg', version: '1.0.0' }, { 'content/blob.bin': randomBytes(200_000) });
    const res = await push(owner.user.name, owner.token, big).expect(413);
    expect(res.body).toEqual({ Message: expect.any(String) });
    expect(blobFiles(t)).toHaveLength(before);
    await get(`${registry(owner.user.name)}/package/big.pkg/index.json`, owner.token).expect(404);
  });

  it('refuses a package past [packages] LIMIT_SIZE_NUGET (413)', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_NUGET: '10k' });
    try {
      const carol = await createTestUser(limited);
      const big = await nupkg({ id: 'Big.Pkg', version: '1.0.0' }, { 'content/blob.bin': randomBytes(20_000) });
      await limited
        .request()
        .put(registry(carol.user.name))
        .set('X-NuGet-ApiKey', carol.token)
        .attach('package', big, { filename: 'big.nupkg' })
        .expect(413);
      expect(await limited.context.db.prisma.package.count({ where: { lowerName: 'big.pkg' } })).toBe(0);
    } finally {
      await limited.close();
    }
  });

  it('refuses hostile and malformed archives (400) and keeps nothing', async () => {
    const owner = await createTestUser(t);
    const before = blobFiles(t).length;
    // A path that leaves the archive: the name is patched after zipping (zip writers refuse to write it).
    const placeholder = await zip({
      'xx/evil.nuspec': nuspecXml({ id: 'Evil', version: '1.0.0' }),
      'Evil.nuspec': nuspecXml({ id: 'Evil', version: '1.0.0' }),
    });
    const traversal = Buffer.from(
      placeholder.toString('latin1').replaceAll('xx/evil.nuspec', '../evil.nuspec'),
      'latin1',
    );
    // 10 MB of metadata, deflated to a few kilobytes.
    const huge = await zip({
      'Huge.nuspec': nuspecXml({ id: 'Huge', version: '1.0.0', description: 'x'.repeat(10 * 1024 * 1024) }),
    });
    const doctype = await zip({
      'Ent.nuspec': `<?xml version="1.0"?><!DOCTYPE package [<!ENTITY a "aaaaaaaaaa">]>${nuspecXml({ id: 'Ent', version: '1.0.0' }).replace(/^<\?xml[^>]*>/, '')}`,
    });
    const cases: [string, Buffer][] = [
      ['path traversal', traversal],
      ['10 MB of metadata', huge],
      ['a DOCTYPE', doctype],
      ['not a zip', randomBytes(2000)],
      ['no nuspec', await zip({ 'lib/a.dll': 'x' })],
      ['a bad id', await zip({ 'x.nuspec': nuspecXml({ id: 'bad id!', version: '1.0.0' }) })],
      ['a bad version', await zip({ 'x.nuspec': nuspecXml({ id: 'Good', version: 'one' }) })],
    ];
    for (const [what, bytes] of cases) {
      const res = await push(owner.user.name, owner.token, bytes);
      expect([what, res.status]).toEqual([what, 400]);
      expect(res.body).toEqual({ Message: expect.any(String) });
    }
    expect(blobFiles(t)).toHaveLength(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: owner.user.id } })).toBe(0);
  });
});
