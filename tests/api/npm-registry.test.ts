// The npm registry through the whole app: publish, the packument and its abbreviated form, tarballs, dist-tags,
// deprecation, unpublish, search, and the packages API's view of what was published.
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { integrity, npmPath, npmRegistry, npmTarball, publish, publishBody, shasum } from '../helpers/npm.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
});
afterAll(() => t.close());

const packumentUrl = (owner: string, name: string) => `${npmRegistry(owner)}/${npmPath(name)}`;

/** The raw bytes of a download. */
function download(url: string) {
  return t
    .request()
    .get(url)
    .buffer(true)
    .parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });
}

describe('publish and install', () => {
  it('publishes a scoped package and serves its packument with versions, dist, dist-tags and time', async () => {
    const name = `@${alice.user.name}/${uniqueName('lib')}`;
    const tarball = await npmTarball(name, '1.0.0');
    await publish(t, alice.auth, alice.user.name, name, '1.0.0', { tarball }).expect(201);
    const res = await t.request().get(packumentUrl(alice.user.name, name)).expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.name).toBe(name);
    expect(doc._id).toBe(name);
    expect(doc['dist-tags']).toEqual({ latest: '1.0.0' });
    expect(doc.description).toBe(`the ${name} package`);
    const version = doc.versions['1.0.0'];
    expect(version).toMatchObject({ name, version: '1.0.0', main: 'index.js', readme: `# ${name}` });
    const unscoped = name.split('/')[1];
    expect(version.dist).toEqual({
      shasum: shasum(tarball),
      integrity: integrity(tarball),
      tarball: `http://localhost:3000/api/packages/${alice.user.name}/npm/${name}/-/1.0.0/${unscoped}-1.0.0.tgz`,
    });
    expect(Date.parse(doc.time['1.0.0'])).not.toBeNaN();
    expect(Date.parse(doc.time.created)).not.toBeNaN();
    expect(Date.parse(doc.time.modified)).not.toBeNaN();
    // The scope's slash may come plain too.
    await t
      .request()
      .get(`${npmRegistry(alice.user.name)}/${name}`)
      .expect(200);

    const path = new URL(version.dist.tarball).pathname;
    const file = await download(path).expect(200);
    expect(Buffer.compare(file.body, tarball)).toBe(0);
    // npm's own tarball path, by file name.
    const byName = await download(`${packumentUrl(alice.user.name, name)}/-/${unscoped}-1.0.0.tgz`).expect(200);
    expect(Buffer.compare(byName.body, tarball)).toBe(0);
  });

  it('serves the abbreviated document when asked, and answers 304 to its ETag', async () => {
    const name = uniqueName('abbr');
    await publish(t, alice.auth, alice.user.name, name, '1.0.0', { dependencies: { left: '^1.0.0' } }).expect(201);
    await publish(t, alice.auth, alice.user.name, name, '1.1.0').expect(201);
    const res = await t
      .request()
      .get(packumentUrl(alice.user.name, name))
      .set('Accept', 'application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8, */*')
      .expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.npm\.install-v1\+json/);
    const doc = JSON.parse(res.text);
    expect(Object.keys(doc).sort()).toEqual(['dist-tags', 'modified', 'name', 'versions']);
    expect(doc['dist-tags'].latest).toBe('1.1.0');
    expect(doc.versions['1.0.0']).toMatchObject({ name, version: '1.0.0', dependencies: { left: '^1.0.0' } });
    expect(doc.versions['1.0.0'].readme).toBeUndefined();
    expect(doc.versions['1.0.0'].dist.integrity).toMatch(/^sha512-/);
    const etag = res.headers.etag;
    expect(res.headers['last-modified']).toBeDefined();
    await t
      .request()
      .get(packumentUrl(alice.user.name, name))
      .set('Accept', 'application/vnd.npm.install-v1+json')
      .set('If-None-Match', etag)
      .expect(304);
  });

  it('refuses a version that exists (409), and keeps the first', async () => {
    const name = uniqueName('twice');
    const first = await npmTarball(name, '1.0.0');
    await publish(t, alice.auth, alice.user.name, name, '1.0.0', { tarball: first }).expect(201);
    const res = await publish(t, alice.auth, alice.user.name, name, '1.0.0', {
      tarball: await npmTarball(name, '1.0.0', 10),
    }).expect(409);
    expect(res.body).toEqual({ error: 'package version already exists' });
    const doc = (await t.request().get(packumentUrl(alice.user.name, name)).expect(200)).body;
    expect(doc.versions['1.0.0'].dist.shasum).toBe(shasum(first));
  });

  it("refuses bad names, versions, tags and bodies with 400 in npm's error form", async () => {
    const owner = alice.user.name;
    const put = (name: string, body: string) =>
      t
        .request()
        .put(packumentUrl(owner, name))
        .set('Authorization', alice.auth)
        .set('Content-Type', 'application/json')
        .send(body);
    const tarball = await npmTarball('x', '1.0.0');
    expect((await put('Upper', publishBody('Upper', '1.0.0', tarball)).expect(400)).body.error).toMatch(/name/);
    await put('okname', publishBody('okname', 'v1', tarball)).expect(400);
    await put('okname', publishBody('okname', '1.0.0', tarball, { tag: '1.x' })).expect(400);
    await put('okname', publishBody('other', '1.0.0', tarball)).expect(400);
    await put('okname', '{"versions": ').expect(400);
    await put('okname', '[]').expect(400);
    await t.request().get(packumentUrl(owner, 'okname')).expect(404);
  });

  it('answers 404 for a missing package or tarball, and 405 for a method a path does not take', async () => {
    const res = await t.request().get(packumentUrl(alice.user.name, 'missing')).expect(404);
    expect(res.body).toEqual({ error: 'package does not exist' });
    await t
      .request()
      .get(`${packumentUrl(alice.user.name, 'missing')}/-/1.0.0/missing-1.0.0.tgz`)
      .expect(404);
    await t.request().post(packumentUrl(alice.user.name, 'missing')).set('Authorization', alice.auth).expect(405);
  });
});

describe('dist-tags, deprecation and unpublish', () => {
  it('adds, lists and removes dist-tags; latest stays; a tag of a missing version is 404', async () => {
    const name = uniqueName('tags');
    const owner = alice.user.name;
    await publish(t, alice.auth, owner, name, '1.0.0').expect(201);
    await publish(t, alice.auth, owner, name, '2.0.0-beta.1', { tag: 'beta' }).expect(201);
    const tags = `${npmRegistry(owner)}/-/package/${name}/dist-tags`;
    expect((await t.request().get(tags).expect(200)).body).toEqual({ latest: '1.0.0', beta: '2.0.0-beta.1' });
    await t
      .request()
      .put(`${tags}/stable`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/json')
      .send('"1.0.0"')
      .expect(200);
    await t
      .request()
      .put(`${tags}/latest`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/json')
      .send('"2.0.0-beta.1"')
      .expect(200);
    await t
      .request()
      .put(`${tags}/next`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/json')
      .send('"9.9.9"')
      .expect(404);
    await t
      .request()
      .put(`${tags}/1.0`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/json')
      .send('"1.0.0"')
      .expect(400);
    await t.request().delete(`${tags}/beta`).set('Authorization', alice.auth).expect(200);
    await t.request().delete(`${tags}/latest`).set('Authorization', alice.auth).expect(400);
    expect((await t.request().get(tags).expect(200)).body).toEqual({ latest: '2.0.0-beta.1', stable: '1.0.0' });
  });

  it('deprecates and undeprecates a version from the packument sent back', async () => {
    const name = uniqueName('dep');
    const owner = alice.user.name;
    await publish(t, alice.auth, owner, name, '1.0.0').expect(201);
    await publish(t, alice.auth, owner, name, '1.0.1').expect(201);
    const doc = (
      await t
        .request()
        .get(`${packumentUrl(owner, name)}?write=true`)
        .expect(200)
    ).body;
    doc.versions['1.0.0'].deprecated = 'use 1.0.1';
    const send = (body: unknown) =>
      t
        .request()
        .put(packumentUrl(owner, name))
        .set('Authorization', alice.auth)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
    await send(doc).expect(201);
    let after = (await t.request().get(packumentUrl(owner, name)).expect(200)).body;
    expect(after.versions['1.0.0'].deprecated).toBe('use 1.0.1');
    expect(after.versions['1.0.1'].deprecated).toBeUndefined();
    doc.versions['1.0.0'].deprecated = '';
    await send(doc).expect(201);
    after = (await t.request().get(packumentUrl(owner, name)).expect(200)).body;
    expect(after.versions['1.0.0'].deprecated).toBeUndefined();
  });

  it('unpublishes a version as npm does (PUT -rev, then DELETE the tarball), moving latest, then the package', async () => {
    const name = `@${alice.user.name}/${uniqueName('gone')}`;
    const owner = alice.user.name;
    await publish(t, alice.auth, owner, name, '1.0.0').expect(201);
    await publish(t, alice.auth, owner, name, '1.1.0').expect(201);
    const doc = (
      await t
        .request()
        .get(`${packumentUrl(owner, name)}?write=true`)
        .expect(200)
    ).body;
    const tarball = new URL(doc.versions['1.1.0'].dist.tarball).pathname;
    delete doc.versions['1.1.0'];
    await t
      .request()
      .put(`${packumentUrl(owner, name)}/-rev/${doc._rev}`)
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/json')
      .send(JSON.stringify(doc))
      .expect(200);
    await t.request().delete(`${tarball}/-rev/${doc._rev}`).set('Authorization', alice.auth).expect(200);
    const after = (await t.request().get(packumentUrl(owner, name)).expect(200)).body;
    expect(Object.keys(after.versions)).toEqual(['1.0.0']);
    expect(after['dist-tags']).toEqual({ latest: '1.0.0' });
    await download(tarball).expect(404);
    await t
      .request()
      .delete(`${packumentUrl(owner, name)}/-rev/${after._rev}`)
      .set('Authorization', alice.auth)
      .expect(200);
    await t.request().get(packumentUrl(owner, name)).expect(404);
  });
});

describe('search and the packages API', () => {
  it("finds the owner's packages by name, with their latest version", async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('findme');
    await publish(t, owner.auth, owner.user.name, name, '1.0.0', { description: 'searchable' }).expect(201);
    await publish(t, owner.auth, owner.user.name, uniqueName('other'), '1.0.0').expect(201);
    const res = await t
      .request()
      .get(`${npmRegistry(owner.user.name)}/-/v1/search?text=findme&size=20`)
      .expect(200);
    expect(res.body.total).toBe(1);
    expect(res.body.objects[0].package).toMatchObject({ name, version: '1.0.0', description: 'searchable' });
    const all = await t
      .request()
      .get(`${npmRegistry(owner.user.name)}/-/v1/search?text=&size=1`)
      .expect(200);
    expect(all.body.total).toBe(2);
    expect(all.body.objects).toHaveLength(1);
  });

  it('lists npm packages in GET /api/v1/packages/{owner}?type=npm with their files, and deletes through it', async () => {
    const owner = await createTestUser(t);
    const name = uniqueName('listed');
    const tarball = await npmTarball(name, '1.0.0');
    await publish(t, owner.auth, owner.user.name, name, '1.0.0', { tarball }).expect(201);
    const list = await t
      .request()
      .get(`/api/v1/packages/${owner.user.name}?type=npm`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ type: 'npm', name, version: '1.0.0', owner: { login: owner.user.name } });
    const files = await t
      .request()
      .get(`/api/v1/packages/${owner.user.name}/npm/${name}/1.0.0/files`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(files.body).toEqual([
      expect.objectContaining({ name: `${name}-1.0.0.tgz`, Size: tarball.length, sha1: shasum(tarball) }),
    ]);
    await t
      .request()
      .delete(`/api/v1/packages/${owner.user.name}/npm/${name}/1.0.0`)
      .set('Authorization', owner.auth)
      .expect(204);
    await t.request().get(packumentUrl(owner.user.name, name)).expect(404);
  });
});
