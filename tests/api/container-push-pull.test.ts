// The OCI distribution spec's push and pull workflows (conformance suite: 01_pull, 02_push), written against
// /v2: monolithic, chunked and streamed blob uploads, mounts, blob HEAD/GET with ranges, manifests of every
// supported type by tag and digest, and the errors each step answers.
import { createHash, randomBytes } from 'node:crypto';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import {
  DOCKER_LIST,
  DOCKER_MANIFEST,
  OCI_INDEX,
  OCI_MANIFEST,
  basic,
  digestOf,
  imageConfig,
  manifestOf,
  pushBlob,
  pushImage,
  pushManifest,
  raw,
  registryToken,
} from '../helpers/container.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let auth: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  auth = await registryToken(t, basic(alice.user.name, alice.password));
});
afterAll(() => t.close());

const imageName = () => `${alice.user.name}/${uniqueName('img')}`;

describe('blob uploads', () => {
  it('takes a monolithic POST ?digest= (201, Location, Docker-Content-Digest) and serves it back with HEAD and GET', async () => {
    const name = imageName();
    const bytes = randomBytes(70_000);
    const digest = digestOf(bytes);
    const res = await pushBlob(t, auth, name, bytes).expect(201);
    expect(res.headers.location).toBe(`/v2/${name}/blobs/${digest}`);
    expect(res.headers['docker-content-digest']).toBe(digest);
    expect(res.headers['docker-distribution-api-version']).toBe('registry/2.0');

    const head = await t.request().head(`/v2/${name}/blobs/${digest}`).set('Authorization', auth).expect(200);
    expect(head.headers['content-length']).toBe(String(bytes.length));
    expect(head.headers['docker-content-digest']).toBe(digest);
    const got = await raw(t.request().get(`/v2/${name}/blobs/${digest}`).set('Authorization', auth)).expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });

  it('serves one byte range (206) and answers 416 past the end', async () => {
    const name = imageName();
    const bytes = randomBytes(1000);
    await pushBlob(t, auth, name, bytes).expect(201);
    const url = `/v2/${name}/blobs/${digestOf(bytes)}`;
    const part = await raw(t.request().get(url).set('Authorization', auth).set('Range', 'bytes=10-19')).expect(206);
    expect(Buffer.compare(part.body as Buffer, bytes.subarray(10, 20))).toBe(0);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    await t.request().get(url).set('Authorization', auth).set('Range', 'bytes=5000-').expect(416);
  });

  it('refuses a monolithic upload whose bytes do not have the digest (400 DIGEST_INVALID) and keeps nothing', async () => {
    const name = imageName();
    const bytes = randomBytes(100);
    const wrong = digestOf(randomBytes(100));
    const res = await pushBlob(t, auth, name, bytes, wrong).expect(400);
    expect(res.body.errors[0].code).toBe('DIGEST_INVALID');
    const head = await t.request().get(`/v2/${name}/blobs/${wrong}`).set('Authorization', auth).expect(404);
    expect(head.body.errors[0].code).toBe('BLOB_UNKNOWN');
    const stored = await t.context.db.prisma.packageBlob.count({ where: { hashSha256: digestOf(bytes).slice(7) } });
    expect(stored).toBe(0);
  });

  it('takes POST, then a streamed PATCH, then PUT ?digest= (what skopeo sends), without copying the single chunk', async () => {
    const name = imageName();
    const bytes = randomBytes(50_000);
    const digest = digestOf(bytes);
    const started = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const location = started.headers.location as string;
    expect(location).toMatch(new RegExp(`^/v2/${name}/blobs/uploads/[0-9a-f-]{36}$`));
    expect(started.headers['docker-upload-uuid']).toBe(location.split('/').pop());
    const patched = await t
      .request()
      .patch(location)
      .set('Authorization', auth)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(202);
    expect(patched.headers.range).toBe(`0-${bytes.length - 1}`);
    await t.request().put(`${location}?digest=${digest}`).set('Authorization', auth).expect(201);
    const got = await raw(t.request().get(`/v2/${name}/blobs/${digest}`).set('Authorization', auth)).expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
    // The upload and its chunk are gone; one blob row holds the bytes.
    expect(await t.context.db.prisma.containerUpload.count({ where: { id: location.split('/').pop() } })).toBe(0);
    const files = await t.context.db.prisma.packageFile.findMany({
      where: { version: { package: { lowerName: name.split('/')[1] } } },
    });
    expect(files.map((file) => file.name)).toEqual([digest]);
  });

  it('computes the md5, sha1 and sha512 a layer upload left for later, and the package API shows them', async () => {
    const image = uniqueName('img');
    const name = `${alice.user.name}/${image}`;
    const pushed = await pushImage(t, auth, name, 'v1', { layers: [randomBytes(40_000)] });
    const layer = pushed.layers[0];
    const hex = (algorithm: string) => createHash(algorithm).update(layer).digest('hex');
    const files = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/container/${image}/v1/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body).toContainEqual(
      expect.objectContaining({
        name: digestOf(layer),
        md5: hex('md5'),
        sha1: hex('sha1'),
        sha256: hex('sha256'),
        sha512: hex('sha512'),
      }),
    );
  });

  it('checks a streamed chunk against a sha512 digest at PUT', async () => {
    const name = imageName();
    const bytes = randomBytes(30_000);
    const sha512 = `sha512:${createHash('sha512').update(bytes).digest('hex')}`;
    const started = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const location = started.headers.location as string;
    await t
      .request()
      .patch(location)
      .set('Authorization', auth)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes)
      .expect(202);
    await t.request().put(`${location}?digest=${sha512}`).set('Authorization', auth).expect(201);
    const got = await raw(t.request().get(`/v2/${name}/blobs/${sha512}`).set('Authorization', auth)).expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });

  it('takes chunks with Content-Range, reports status, refuses an out-of-order chunk (416), and joins them at PUT', async () => {
    const name = imageName();
    const bytes = randomBytes(30_000);
    const digest = digestOf(bytes);
    const { headers } = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const location = headers.location as string;
    const chunk = (from: number, to: number) =>
      t
        .request()
        .patch(location)
        .set('Authorization', auth)
        .set('Content-Type', 'application/octet-stream')
        .set('Content-Range', `${from}-${to - 1}`)
        .send(bytes.subarray(from, to));
    await chunk(0, 10_000).expect(202);
    const outOfOrder = await chunk(20_000, 30_000).expect(416);
    expect(outOfOrder.body.errors[0].code).toBe('BLOB_UPLOAD_INVALID');
    await chunk(10_000, 20_000).expect(202);
    const status = await t.request().get(location).set('Authorization', auth).expect(204);
    expect(status.headers.range).toBe('0-19999');
    // The last chunk comes with the PUT.
    await t
      .request()
      .put(`${location}?digest=${digest}`)
      .set('Authorization', auth)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Range', '20000-29999')
      .send(bytes.subarray(20_000))
      .expect(201);
    const got = await raw(t.request().get(`/v2/${name}/blobs/${digest}`).set('Authorization', auth)).expect(200);
    expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
  });

  it('refuses a PUT whose digest does not match the chunks (400 DIGEST_INVALID); unknown uploads are BLOB_UPLOAD_UNKNOWN', async () => {
    const name = imageName();
    const { headers } = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const location = headers.location as string;
    await t.request().patch(location).set('Authorization', auth).send(randomBytes(100)).expect(202);
    const res = await t
      .request()
      .put(`${location}?digest=${digestOf('other')}`)
      .set('Authorization', auth)
      .expect(400);
    expect(res.body.errors[0].code).toBe('DIGEST_INVALID');
    const unknown = await t
      .request()
      .get(`/v2/${name}/blobs/uploads/00000000-0000-0000-0000-000000000000`)
      .set('Authorization', auth)
      .expect(404);
    expect(unknown.body.errors[0].code).toBe('BLOB_UPLOAD_UNKNOWN');
  });

  it('cancels an upload (204): its chunks are gone and it is unknown afterwards', async () => {
    const name = imageName();
    const chunk = randomBytes(5000);
    const { headers } = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    const location = headers.location as string;
    await t.request().patch(location).set('Authorization', auth).send(chunk).expect(202);
    await t.request().delete(location).set('Authorization', auth).expect(204);
    await t.request().get(location).set('Authorization', auth).expect(404);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: digestOf(chunk).slice(7) } })).toBe(0);
  });

  it('mounts a blob from another image the caller may read (201, no bytes moved); an unknown one starts an upload', async () => {
    const source = imageName();
    const target = imageName();
    const bytes = randomBytes(4000);
    const digest = digestOf(bytes);
    await pushBlob(t, auth, source, bytes).expect(201);
    const mounted = await t
      .request()
      .post(`/v2/${target}/blobs/uploads/?mount=${digest}&from=${source}`)
      .set('Authorization', auth)
      .expect(201);
    expect(mounted.headers.location).toBe(`/v2/${target}/blobs/${digest}`);
    await t.request().head(`/v2/${target}/blobs/${digest}`).set('Authorization', auth).expect(200);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: digest.slice(7) } })).toBe(1);

    const missing = digestOf('not there');
    await t
      .request()
      .post(`/v2/${target}/blobs/uploads/?mount=${missing}&from=${source}`)
      .set('Authorization', auth)
      .expect(202);
  });

  it('does not mount from an image the caller may not read', async () => {
    const bob = await createTestUser(t, { fields: { visibility: 2 } });
    const bobAuth = await registryToken(t, basic(bob.user.name, bob.password));
    const bytes = randomBytes(500);
    const secret = `${bob.user.name}/${uniqueName('secret')}`;
    await pushBlob(t, bobAuth, secret, bytes).expect(201);
    const target = imageName();
    await t
      .request()
      .post(`/v2/${target}/blobs/uploads/?mount=${digestOf(bytes)}&from=${secret}`)
      .set('Authorization', auth)
      .expect(202);
    await t
      .request()
      .head(`/v2/${target}/blobs/${digestOf(bytes)}`)
      .set('Authorization', auth)
      .expect(404);
  });

  it('keeps one file when two clients push the same blob at once', async () => {
    const name = imageName();
    const bytes = randomBytes(200_000);
    const results = await Promise.all([pushBlob(t, auth, name, bytes), pushBlob(t, auth, name, bytes)]);
    expect(results.map((res) => res.status)).toEqual([201, 201]);
    const files = await t.context.db.prisma.packageFile.count({
      where: { lowerName: digestOf(bytes), version: { package: { lowerName: name.split('/')[1] } } },
    });
    expect(files).toBe(1);
  });
});

describe('manifests', () => {
  it('pushes an OCI manifest by tag and serves it by tag and by digest with its type, digest and length', async () => {
    const name = imageName();
    const image = await pushImage(t, auth, name, 'v1');
    for (const reference of ['v1', image.digest]) {
      const res = await raw(
        t.request().get(`/v2/${name}/manifests/${reference}`).set('Authorization', auth).set('Accept', OCI_MANIFEST),
      ).expect(200);
      expect(Buffer.compare(res.body as Buffer, image.manifest)).toBe(0);
      expect(res.headers['content-type']).toBe(OCI_MANIFEST);
      expect(res.headers['docker-content-digest']).toBe(image.digest);
      const head = await t.request().head(`/v2/${name}/manifests/${reference}`).set('Authorization', auth).expect(200);
      expect(head.headers['content-length']).toBe(String(image.manifest.length));
    }
  });

  it('pushes by digest, and refuses a digest reference the body does not have (400 DIGEST_INVALID)', async () => {
    const name = imageName();
    const image = await pushImage(t, auth, name, null);
    await t.request().head(`/v2/${name}/manifests/${image.digest}`).set('Authorization', auth).expect(200);
    const other = manifestOf(image.config, image.layers, { annotations: { a: 'b' } });
    const res = await pushManifest(t, auth, name, image.digest, other).expect(400);
    expect(res.body.errors[0].code).toBe('DIGEST_INVALID');
  });

  it('pushes a Docker schema 2 manifest and a manifest list, served with their own types', async () => {
    const name = imageName();
    const amd = await pushImage(t, auth, name, null, { mediaType: DOCKER_MANIFEST });
    const arm = await pushImage(t, auth, name, null, {
      mediaType: DOCKER_MANIFEST,
      config: imageConfig({ os: 'linux', architecture: 'arm64' }),
    });
    const list = {
      schemaVersion: 2,
      mediaType: DOCKER_LIST,
      manifests: [amd, arm].map((image, i) => ({
        mediaType: DOCKER_MANIFEST,
        digest: image.digest,
        size: image.manifest.length,
        platform: { os: 'linux', architecture: i ? 'arm64' : 'amd64' },
      })),
    };
    await pushManifest(t, auth, name, 'latest', list, DOCKER_LIST).expect(201);
    const got = await t
      .request()
      .get(`/v2/${name}/manifests/latest`)
      .set('Authorization', auth)
      .set('Accept', `${DOCKER_LIST}, ${DOCKER_MANIFEST}`)
      .expect(200);
    expect(got.headers['content-type']).toBe(DOCKER_LIST);
    const child = await t.request().get(`/v2/${name}/manifests/${amd.digest}`).set('Authorization', auth).expect(200);
    expect(child.headers['content-type']).toBe(DOCKER_MANIFEST);
  });

  it('pushes an OCI index whose manifests are in the image, and refuses one naming an unknown manifest', async () => {
    const name = imageName();
    const child = await pushImage(t, auth, name, null);
    const index = {
      schemaVersion: 2,
      mediaType: OCI_INDEX,
      manifests: [{ mediaType: OCI_MANIFEST, digest: child.digest, size: child.manifest.length }],
    };
    await pushManifest(t, auth, name, 'multi', index, OCI_INDEX).expect(201);
    const missing = { ...index, manifests: [{ mediaType: OCI_MANIFEST, digest: digestOf('nothing'), size: 7 }] };
    const res = await pushManifest(t, auth, name, 'broken', missing, OCI_INDEX).expect(404);
    expect(res.body.errors[0].code).toBe('MANIFEST_BLOB_UNKNOWN');
  });

  it('answers MANIFEST_UNKNOWN to a client that accepts none of the manifest type', async () => {
    const name = imageName();
    await pushImage(t, auth, name, 'v1');
    const res = await t
      .request()
      .get(`/v2/${name}/manifests/v1`)
      .set('Authorization', auth)
      .set('Accept', DOCKER_MANIFEST)
      .expect(404);
    expect(res.body.errors[0].code).toBe('MANIFEST_UNKNOWN');
  });

  it('refuses a manifest naming a blob not in the image, invalid JSON, a bad tag, and a too large body', async () => {
    const name = imageName();
    const config = imageConfig();
    await pushBlob(t, auth, name, config).expect(201);
    const missingLayer = await pushManifest(t, auth, name, 'v1', manifestOf(config, [randomBytes(10)])).expect(404);
    expect(missingLayer.body.errors[0]).toMatchObject({ code: 'MANIFEST_BLOB_UNKNOWN' });
    const invalid = await pushManifest(t, auth, name, 'v1', Buffer.from('{not json')).expect(400);
    expect(invalid.body.errors[0].code).toBe('MANIFEST_INVALID');
    const badTag = await pushManifest(t, auth, name, '-bad', manifestOf(config, [])).expect(400);
    expect(badTag.body.errors[0].code).toBe('MANIFEST_INVALID');
    const huge = await pushManifest(t, auth, name, 'v1', Buffer.alloc(10 * 1024 * 1024 + 1, 32)).expect(413);
    expect(huge.body.errors[0].code).toBe('MANIFEST_INVALID');
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', auth).expect(404);
  });

  it('moves a tag pushed again to the new manifest; the old one stays reachable by digest only when pushed so', async () => {
    const name = imageName();
    const first = await pushImage(t, auth, name, 'v1');
    const second = await pushImage(t, auth, name, 'v1');
    const res = await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', auth).expect(200);
    expect(res.headers['docker-content-digest']).toBe(second.digest);
    await t.request().head(`/v2/${name}/manifests/${first.digest}`).set('Authorization', auth).expect(404);
    // The first image's layer went with its manifest: nothing keeps it.
    await t
      .request()
      .head(`/v2/${name}/blobs/${digestOf(first.layers[0])}`)
      .set('Authorization', auth)
      .expect(404);
  });

  it('keeps one version when two clients push the same tag at once', async () => {
    const name = imageName();
    const config = imageConfig();
    const layer = randomBytes(100);
    for (const blob of [config, layer]) await pushBlob(t, auth, name, blob).expect(201);
    const manifest = manifestOf(config, [layer]);
    const results = await Promise.all([
      pushManifest(t, auth, name, 'same', manifest),
      pushManifest(t, auth, name, 'same', manifest),
    ]);
    expect(results.map((res) => res.status)).toEqual([201, 201]);
    const versions = await t.context.db.prisma.packageVersion.count({
      where: { lowerVersion: 'same', package: { lowerName: name.split('/')[1] } },
    });
    expect(versions).toBe(1);
  });
});
