// The PyPI registry under /api/packages/{owner}/pypi: twine's multipart upload, pip's simple pages (PEP 503 HTML,
// PEP 691 JSON) and downloads, access and token scopes, and the package API's view of what was uploaded.
import { createHash, randomBytes } from 'node:crypto';
import {
  addTestOrgMember,
  basicAuth,
  createTestOrg,
  createTestUser,
  createToken,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { blobFiles, digestsOf } from '../helpers/packages.ts';
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

const registry = (owner: string) => `/api/packages/${owner}/pypi`;

interface Dist {
  name: string;
  version: string;
  fileName: string;
  bytes: Buffer;
  filetype?: string;
  fields?: Record<string, string>;
}

/** What twine sends: the metadata fields first, the file last. */
function twineUpload(owner: string, auth: string | null, dist: Dist) {
  const digests = digestsOf(dist.bytes);
  const request = t.request().post(registry(owner));
  if (auth) request.set('Authorization', auth);
  const fields: Record<string, string> = {
    ':action': 'file_upload',
    protocol_version: '1',
    metadata_version: '2.1',
    name: dist.name,
    version: dist.version,
    filetype: dist.filetype ?? (dist.fileName.endsWith('.whl') ? 'bdist_wheel' : 'sdist'),
    pyversion: dist.fileName.endsWith('.whl') ? 'py3' : 'source',
    summary: 'A test package',
    requires_python: '>=3.8',
    md5_digest: digests.md5,
    sha256_digest: digests.sha256,
    ...dist.fields,
  };
  for (const [name, value] of Object.entries(fields)) request.field(name, value);
  return request.attach('content', dist.bytes, { filename: dist.fileName, contentType: 'application/octet-stream' });
}

function dist(name: string, version = '1.0.0', fileName = `${name.replace(/-/g, '_')}-${version}.tar.gz`): Dist {
  return { name, version, fileName, bytes: randomBytes(2048) };
}

function raw(url: string, headers: Record<string, string> = {}) {
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

describe('upload and install', () => {
  it('takes an sdist and a wheel, lists both on the simple page and serves the same bytes', async () => {
    const name = uniqueName('pkg');
    const sdist = dist(name);
    const wheel = dist(name, '1.0.0', `${name}-1.0.0-py3-none-any.whl`);
    await twineUpload(alice.user.name, alice.auth, sdist).expect(201);
    await twineUpload(alice.user.name, alice.auth, wheel).expect(201);

    const page = await t
      .request()
      .get(`${registry(alice.user.name)}/simple/${name}/`)
      .expect(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    const base = `http://localhost:3000${registry(alice.user.name)}/files/${name}/1.0.0`;
    for (const file of [sdist, wheel]) {
      expect(page.text).toContain(
        `<a href="${base}/${file.fileName}#sha256=${digestsOf(file.bytes).sha256}" ` +
          `data-requires-python="&gt;=3.8">${file.fileName}</a>`,
      );
    }

    const json = await t
      .request()
      .get(`${registry(alice.user.name)}/simple/${name}/`)
      .set('Accept', 'application/vnd.pypi.simple.v1+json, application/vnd.pypi.simple.v1+html;q=0.1')
      .expect(200);
    expect(json.headers['content-type']).toMatch(/^application\/vnd\.pypi\.simple\.v1\+json/);
    const body = JSON.parse(json.text);
    expect(body).toMatchObject({ meta: { 'api-version': '1.1' }, name, versions: ['1.0.0'] });
    expect(body.files).toEqual([
      expect.objectContaining({
        filename: sdist.fileName,
        url: `${base}/${sdist.fileName}`,
        hashes: { sha256: digestsOf(sdist.bytes).sha256 },
        'requires-python': '>=3.8',
        size: 2048,
      }),
      expect.objectContaining({ filename: wheel.fileName }),
    ]);

    const file = await raw(`${registry(alice.user.name)}/files/${name}/1.0.0/${wheel.fileName}`).expect(200);
    expect(Buffer.compare(file.body, wheel.bytes)).toBe(0);
    expect(file.headers.etag).toBe(`"${digestsOf(wheel.bytes).sha256}"`);
  });

  it('finds a project by any spelling of its name and redirects to the normal form (PEP 503)', async () => {
    const name = `My_${uniqueName('Pkg')}.Lib`;
    const normal = name.replace(/[-_.]+/g, '-').toLowerCase();
    await twineUpload(alice.user.name, alice.auth, dist(name)).expect(201);
    const moved = await t
      .request()
      .get(`${registry(alice.user.name)}/simple/${name}/`)
      .expect(301);
    expect(moved.headers.location).toBe(`http://localhost:3000${registry(alice.user.name)}/simple/${normal}/`);
    const page = await t
      .request()
      .get(`${registry(alice.user.name)}/simple/${normal}`)
      .expect(200);
    expect(page.text).toContain(`<title>Links for ${normal}</title>`);
  });

  it('answers the page with ETag and Last-Modified, and 304 when the client has it', async () => {
    const name = uniqueName('cached');
    await twineUpload(alice.user.name, alice.auth, dist(name)).expect(201);
    const url = `${registry(alice.user.name)}/simple/${name}/`;
    const first = await t.request().get(url).expect(200);
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(first.headers['last-modified'])).not.toBeNaN();
    await t.request().get(url).set('If-None-Match', first.headers.etag).expect(304);
    await twineUpload(alice.user.name, alice.auth, dist(name, '1.1.0')).expect(201);
    const second = await t.request().get(url).set('If-None-Match', first.headers.etag).expect(200);
    expect(second.headers.etag).not.toBe(first.headers.etag);
    expect(second.text).toContain(`${name}-1.1.0.tar.gz`);
  });

  it('answers 404 in plain text for a project, version or file that is not there', async () => {
    const name = uniqueName('there');
    await twineUpload(alice.user.name, alice.auth, dist(name)).expect(201);
    const missing = await t
      .request()
      .get(`${registry(alice.user.name)}/simple/${uniqueName('nope')}/`)
      .expect(404);
    expect(missing.headers['content-type']).toMatch(/^text\/plain/);
    await t
      .request()
      .get(`${registry(alice.user.name)}/files/${name}/9.9/${name}-9.9.tar.gz`)
      .expect(404);
    await t
      .request()
      .get(`${registry(alice.user.name)}/files/${name}/1.0.0/other.tar.gz`)
      .expect(404);
    await t
      .request()
      .get(`${registry(uniqueName('nobody'))}/simple/${name}/`)
      .set('Authorization', bob.auth)
      .expect(404);
  });
});

describe('refusals', () => {
  it('answers 409 for a file that exists, keeps the first, and takes another file of the version', async () => {
    const name = uniqueName('dup');
    const first = dist(name);
    await twineUpload(alice.user.name, alice.auth, first).expect(201);
    const again = await twineUpload(alice.user.name, alice.auth, { ...first, bytes: randomBytes(100) }).expect(409);
    expect(again.text).toBe('package file already exists\n');
    await twineUpload(alice.user.name, alice.auth, dist(name, '1.0.0', `${name}-1.0.0.zip`)).expect(201);
    const file = await raw(`${registry(alice.user.name)}/files/${name}/1.0.0/${first.fileName}`).expect(200);
    expect(Buffer.compare(file.body, first.bytes)).toBe(0);
  });

  it('refuses bytes that do not match the sent sha256 or md5 (400) and keeps nothing', async () => {
    const before = blobFiles(t);
    const name = uniqueName('bad');
    const wrong = createHash('sha256').update('other').digest('hex');
    const res = await twineUpload(alice.user.name, alice.auth, { ...dist(name), fields: { sha256_digest: wrong } });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/sha256/);
    await twineUpload(alice.user.name, alice.auth, { ...dist(name), fields: { md5_digest: '0'.repeat(32) } }).expect(
      400,
    );
    expect(blobFiles(t)).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
  });

  it.each([
    ['an invalid name', { name: '-bad-' }],
    ['an invalid version', { version: 'not a version' }],
    ['an unknown file type', { filetype: 'bdist_exe' }],
    ['no digest', { sha256_digest: '', md5_digest: '' }],
  ])('refuses %s with 400 in plain text', async (_label, fields) => {
    const res = await twineUpload(alice.user.name, alice.auth, { ...dist(uniqueName('p')), fields }).expect(400);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
  });

  it('refuses a body without the file, or that is not a form (400)', async () => {
    await t
      .request()
      .post(registry(alice.user.name))
      .set('Authorization', alice.auth)
      .field('name', 'x')
      .field('version', '1.0')
      .expect(400);
    await t.request().post(registry(alice.user.name)).set('Authorization', alice.auth).send({ name: 'x' }).expect(400);
  });

  it('refuses a file past [packages] LIMIT_SIZE_PYPI (413) and keeps nothing', async () => {
    const limited = await startTestApp({ ANVIL__packages__LIMIT_SIZE_PYPI: '1000' });
    try {
      const carol = await createTestUser(limited);
      const name = uniqueName('big');
      const big = dist(name);
      const digests = digestsOf(big.bytes);
      await limited
        .request()
        .post(registry(carol.user.name))
        .set('Authorization', carol.auth)
        .field('name', name)
        .field('version', '1.0.0')
        .field('filetype', 'sdist')
        .field('sha256_digest', digests.sha256)
        .attach('content', big.bytes, { filename: big.fileName })
        .expect(413);
      expect(await limited.context.db.prisma.package.count({ where: { lowerName: name } })).toBe(0);
    } finally {
      await limited.close();
    }
  });
});

describe('access', () => {
  it('asks an anonymous uploader to sign in (401 with a Basic challenge)', async () => {
    const res = await twineUpload(alice.user.name, null, dist(uniqueName('anon'))).expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic/);
  });

  it("refuses an upload to another user's packages (403)", async () => {
    await twineUpload(alice.user.name, bob.auth, dist(uniqueName('theirs'))).expect(403);
  });

  it('takes the credentials twine and pip send: basic with a password, or a token as password or user name', async () => {
    const name = uniqueName('creds');
    await twineUpload(alice.user.name, basicAuth(alice.user.name, alice.password), dist(name, '1.0')).expect(201);
    await twineUpload(alice.user.name, basicAuth(alice.user.name, alice.token), dist(name, '1.1')).expect(201);
    await twineUpload(alice.user.name, basicAuth(alice.token, ''), dist(name, '1.2')).expect(201);
    await twineUpload(alice.user.name, basicAuth(alice.user.name, 'wrong'), dist(name, '1.3')).expect(401);
  });

  it('hides a private owner from an outsider (404), challenges anonymous pip, and shows it to a member', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const name = uniqueName('secret');
    await twineUpload(org.name, alice.auth, dist(name)).expect(201);
    // Anonymous pip is challenged so that it sends what its keyring or .netrc holds; a missing owner the same.
    const challenged = await t
      .request()
      .get(`${registry(org.name)}/simple/${name}/`)
      .expect(401);
    expect(challenged.headers['www-authenticate']).toMatch(/^Basic/);
    await t
      .request()
      .get(`${registry(uniqueName('nobody'))}/simple/${name}/`)
      .expect(401);
    await t
      .request()
      .get(`${registry(org.name)}/simple/${name}/`)
      .set('Authorization', bob.auth)
      .expect(404);
    await twineUpload(org.name, bob.auth, dist(name, '2.0')).expect(404);
    await t
      .request()
      .get(`${registry(org.name)}/simple/${name}/`)
      .set('Authorization', alice.auth)
      .expect(200);
    const carol = await createTestUser(t);
    await addTestOrgMember(t, org, carol.user);
    await t
      .request()
      .get(`${registry(org.name)}/simple/${name}/`)
      .set('Authorization', carol.auth)
      .expect(200);
  });

  it('honours token scopes: read:package reads, write:package uploads, other scopes do neither', async () => {
    const name = uniqueName('scoped');
    await twineUpload(alice.user.name, alice.auth, dist(name)).expect(201);
    const page = `${registry(alice.user.name)}/simple/${name}/`;
    const reader = await createToken(t, alice.user, 'read:package');
    const writer = await createToken(t, alice.user, 'write:package');
    const other = await createToken(t, alice.user, 'read:repository');
    await t.request().get(page).set('Authorization', `token ${reader}`).expect(200);
    await twineUpload(alice.user.name, basicAuth(alice.user.name, reader), dist(name, '2.0')).expect(403);
    await twineUpload(alice.user.name, basicAuth(alice.user.name, writer), dist(name, '2.0')).expect(201);
    await t.request().get(page).set('Authorization', `token ${other}`).expect(403);
    await twineUpload(alice.user.name, basicAuth(alice.user.name, other), dist(name, '3.0')).expect(403);
  });
});

describe('the package API', () => {
  it('lists the versions with type pypi and their files, and a deleted version is gone from pip', async () => {
    const name = uniqueName('listed');
    const sdist = dist(name, '2.0.0');
    const wheel = dist(name, '2.0.0', `${name}-2.0.0-py3-none-any.whl`);
    await twineUpload(alice.user.name, alice.auth, sdist).expect(201);
    await twineUpload(alice.user.name, alice.auth, wheel).expect(201);

    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=pypi&q=${name}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body).toEqual([
      expect.objectContaining({
        type: 'pypi',
        name,
        version: '2.0.0',
        owner: expect.objectContaining({ id: alice.user.id }),
      }),
    ]);
    const files = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/pypi/${name}/2.0.0/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body.map((file: { name: string }) => file.name)).toEqual([sdist.fileName, wheel.fileName]);
    expect(files.body[0]).toMatchObject({ Size: 2048, ...digestsOf(sdist.bytes) });

    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/pypi/${name}/2.0.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .get(`${registry(alice.user.name)}/simple/${name}/`)
      .expect(404);
    await t
      .request()
      .get(`${registry(alice.user.name)}/files/${name}/2.0.0/${sdist.fileName}`)
      .expect(404);
  });
});
