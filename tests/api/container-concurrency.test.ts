// Two clients at once never corrupt the registry: the same layer pushed by several clients (to one image and to
// images of two owners) is stored once and reads back whole; the same tag pushed with different manifests at once
// ends naming one of them, whole; and a blob a manifest refers to is never deleted from under it — a DELETE of the
// blob leaves it readable through the manifest until the manifest goes, and a DELETE racing the manifest's PUT
// ends either with the manifest refused (MANIFEST_BLOB_UNKNOWN) or with every blob it names readable.
import { randomBytes } from 'node:crypto';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import {
  basic,
  digestOf,
  imageConfig,
  manifestOf,
  OCI_MANIFEST,
  pushBlob,
  pushImage,
  pushManifest,
  raw,
  registryToken,
} from '../helpers/container.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
let aliceAuth: string;
let bobAuth: string;

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  aliceAuth = await registryToken(t, basic(alice.user.name, alice.password));
  bobAuth = await registryToken(t, basic(bob.user.name, bob.password));
});
afterAll(() => t.close());

const imageOf = (user: TestUser) => `${user.user.name}/${uniqueName('img')}`;

async function expectBlob(auth: string, name: string, bytes: Buffer): Promise<void> {
  const got = await raw(
    t
      .request()
      .get(`/v2/${name}/blobs/${digestOf(bytes)}`)
      .set('Authorization', auth),
  ).expect(200);
  expect(Buffer.compare(got.body as Buffer, bytes)).toBe(0);
}

/** A chunked upload of `bytes` in two PATCHes. */
async function pushChunked(auth: string, name: string, bytes: Buffer) {
  const started = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
  let location = started.headers.location as string;
  const half = Math.floor(bytes.length / 2);
  for (const [from, to] of [
    [0, half],
    [half, bytes.length],
  ]) {
    const patched = await t
      .request()
      .patch(location)
      .set('Authorization', auth)
      .set('Content-Type', 'application/octet-stream')
      .set('Content-Range', `${from}-${to - 1}`)
      .send(bytes.subarray(from, to))
      .expect(202);
    location = patched.headers.location as string;
  }
  return t
    .request()
    .put(`${location}?digest=${digestOf(bytes)}`)
    .set('Authorization', auth);
}

describe('the same layer pushed at once', () => {
  it('stores it once and reads it back whole, monolithic and chunked, in one image and across owners', async () => {
    const layer = randomBytes(300_000);
    const aliceImage = imageOf(alice);
    const bobImage = imageOf(bob);
    const answers = await Promise.all([
      pushBlob(t, aliceAuth, aliceImage, layer),
      pushBlob(t, aliceAuth, aliceImage, layer),
      pushChunked(aliceAuth, aliceImage, layer),
      pushBlob(t, bobAuth, bobImage, layer),
      pushChunked(bobAuth, bobImage, layer),
    ]);
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201]);
    await expectBlob(aliceAuth, aliceImage, layer);
    await expectBlob(bobAuth, bobImage, layer);
    const hash = digestOf(layer).slice(7);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: hash } })).toBe(1);
    // One upload file per image, whoever won.
    const files = await t.context.db.prisma.packageFile.count({ where: { lowerName: digestOf(layer) } });
    expect(files).toBe(2);
  });
});

describe('the same tag pushed at once', () => {
  it('ends naming one of the manifests, whole, with one version for the tag', async () => {
    const name = imageOf(alice);
    const images = [0, 1, 2].map(() => {
      const config = imageConfig({ os: 'linux', architecture: 'amd64' }, { run: uniqueName('r') });
      const layers = [randomBytes(5000)];
      return { config, layers, manifest: manifestOf(config, layers) };
    });
    for (const image of images) {
      for (const blob of [image.config, ...image.layers]) await pushBlob(t, aliceAuth, name, blob).expect(201);
    }
    const pushed = await Promise.all(images.map((image) => pushManifest(t, aliceAuth, name, 'latest', image.manifest)));
    expect(pushed.map((res) => res.status)).toEqual([201, 201, 201]);
    const got = await raw(
      t.request().get(`/v2/${name}/manifests/latest`).set('Authorization', aliceAuth).set('Accept', OCI_MANIFEST),
    ).expect(200);
    const winner = images.find((image) => Buffer.compare(image.manifest, got.body as Buffer) === 0);
    expect(winner).toBeDefined();
    expect(got.headers['docker-content-digest']).toBe(digestOf(winner!.manifest));
    for (const blob of [winner!.config, ...winner!.layers]) await expectBlob(aliceAuth, name, blob);
    const tags = await t.request().get(`/v2/${name}/tags/list`).set('Authorization', aliceAuth).expect(200);
    expect(tags.body.tags).toEqual(['latest']);
    const image = name.split('/')[1];
    const versions = await t.context.db.prisma.packageVersion.count({
      where: { lowerVersion: 'latest', package: { ownerId: alice.user.id, lowerName: image } },
    });
    expect(versions).toBe(1);
  });
});

describe('a blob a manifest refers to', () => {
  it('stays readable after its DELETE until the manifest goes, then is gone with its bytes', async () => {
    const name = imageOf(alice);
    const image = await pushImage(t, aliceAuth, name, 'v1');
    const [layer] = image.layers;
    await t
      .request()
      .delete(`/v2/${name}/blobs/${digestOf(layer)}`)
      .set('Authorization', aliceAuth)
      .expect(202);
    await expectBlob(aliceAuth, name, layer);
    await t.request().delete(`/v2/${name}/manifests/${image.digest}`).set('Authorization', aliceAuth).expect(202);
    await t
      .request()
      .get(`/v2/${name}/blobs/${digestOf(layer)}`)
      .set('Authorization', aliceAuth)
      .expect(404);
    const hash = digestOf(layer).slice(7);
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: hash } })).toBe(0);
    expect(await t.context.packageBlobs.stat(hash)).toBeNull();
  });

  it('is never lost to a DELETE racing the PUT of the manifest that names it', async () => {
    for (let round = 0; round < 8; round++) {
      const name = imageOf(alice);
      const config = imageConfig({ os: 'linux', architecture: 'amd64' }, { round: String(round) });
      const layer = randomBytes(20_000);
      for (const blob of [config, layer]) await pushBlob(t, aliceAuth, name, blob).expect(201);
      const manifest = manifestOf(config, [layer]);
      const [deleted, put] = await Promise.all([
        t
          .request()
          .delete(`/v2/${name}/blobs/${digestOf(layer)}`)
          .set('Authorization', aliceAuth),
        pushManifest(t, aliceAuth, name, 'v1', manifest),
      ]);
      expect([202, 404]).toContain(deleted.status);
      if (put.status === 201) {
        await expectBlob(aliceAuth, name, layer);
        await expectBlob(aliceAuth, name, config);
      } else {
        expect([put.status, put.body.errors[0].code]).toEqual([404, 'MANIFEST_BLOB_UNKNOWN']);
        await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', aliceAuth).expect(404);
      }
    }
  });
});
