// The OCI distribution spec's content discovery and content management workflows (conformance suite:
// 03_discovery, 04_management): tag lists with n/last paging and Link, the referrers API with its artifactType
// filter, deletes of tags, manifests and blobs; and the images as the package API shows and removes them.
import { randomBytes } from 'node:crypto';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import {
  OCI_INDEX,
  OCI_MANIFEST,
  basic,
  digestOf,
  imageConfig,
  pushBlob,
  pushImage,
  pushManifest,
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

const newImage = () => uniqueName('img');

describe('tags', () => {
  it('lists tags in order, pages with n and last, and links the next page', async () => {
    const image = newImage();
    const name = `${alice.user.name}/${image}`;
    const first = await pushImage(t, auth, name, 'c');
    for (const tag of ['a', 'b', 'd']) await pushManifest(t, auth, name, tag, first.manifest).expect(201);
    await pushImage(t, auth, name, null);
    const all = await t.request().get(`/v2/${name}/tags/list`).set('Authorization', auth).expect(200);
    expect(all.body).toEqual({ name, tags: ['a', 'b', 'c', 'd'] });
    const page = await t.request().get(`/v2/${name}/tags/list?n=2`).set('Authorization', auth).expect(200);
    expect(page.body.tags).toEqual(['a', 'b']);
    expect(page.headers.link).toBe(`</v2/${name}/tags/list?n=2&last=b>; rel="next"`);
    const next = await t.request().get(`/v2/${name}/tags/list?n=2&last=b`).set('Authorization', auth).expect(200);
    expect(next.body.tags).toEqual(['c', 'd']);
    expect(next.headers.link).toBeUndefined();
  });

  it('answers NAME_UNKNOWN for an image that does not exist', async () => {
    const res = await t
      .request()
      .get(`/v2/${alice.user.name}/${newImage()}/tags/list`)
      .set('Authorization', auth)
      .expect(404);
    expect(res.body.errors[0].code).toBe('NAME_UNKNOWN');
  });
});

describe('referrers', () => {
  it('lists manifests whose subject is the digest, filtered by artifactType, and answers OCI-Subject on push', async () => {
    const name = `${alice.user.name}/${newImage()}`;
    const subject = await pushImage(t, auth, name, 'v1');
    const subjectDescriptor = { mediaType: OCI_MANIFEST, digest: subject.digest, size: subject.manifest.length };
    const emptyConfig = Buffer.from('{}');
    await pushBlob(t, auth, name, emptyConfig).expect(201);
    const artifact = (type: string) => ({
      schemaVersion: 2,
      mediaType: OCI_MANIFEST,
      artifactType: type,
      config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: digestOf(emptyConfig), size: 2 },
      layers: [],
      subject: subjectDescriptor,
      annotations: { kind: type },
    });
    const signature = Buffer.from(JSON.stringify(artifact('application/vnd.example.signature')));
    const sbom = Buffer.from(JSON.stringify(artifact('application/vnd.example.sbom')));
    const pushed = await pushManifest(t, auth, name, digestOf(signature), signature).expect(201);
    expect(pushed.headers['oci-subject']).toBe(subject.digest);
    await pushManifest(t, auth, name, digestOf(sbom), sbom).expect(201);

    const all = await t.request().get(`/v2/${name}/referrers/${subject.digest}`).set('Authorization', auth).expect(200);
    expect(all.headers['content-type']).toBe(OCI_INDEX);
    const index = JSON.parse(all.text);
    expect(index).toMatchObject({ schemaVersion: 2, mediaType: OCI_INDEX });
    expect(index.manifests).toHaveLength(2);
    expect(index.manifests).toContainEqual({
      mediaType: OCI_MANIFEST,
      digest: digestOf(sbom),
      size: sbom.length,
      artifactType: 'application/vnd.example.sbom',
      annotations: { kind: 'application/vnd.example.sbom' },
    });
    const filtered = await t
      .request()
      .get(`/v2/${name}/referrers/${subject.digest}?artifactType=application/vnd.example.signature`)
      .set('Authorization', auth)
      .expect(200);
    expect(filtered.headers['oci-filters-applied']).toBe('artifactType');
    expect(JSON.parse(filtered.text).manifests.map((m: { digest: string }) => m.digest)).toEqual([digestOf(signature)]);
    const none = await t
      .request()
      .get(`/v2/${name}/referrers/${digestOf('nothing')}`)
      .set('Authorization', auth)
      .expect(200);
    expect(JSON.parse(none.text).manifests).toEqual([]);
  });
});

describe('management', () => {
  it('deletes a tag (202) leaving the manifest by digest, then the manifest by digest, then the blobs', async () => {
    const name = `${alice.user.name}/${newImage()}`;
    const image = await pushImage(t, auth, name, null);
    await pushManifest(t, auth, name, 'v1', image.manifest).expect(201);
    await t.request().delete(`/v2/${name}/manifests/v1`).set('Authorization', auth).expect(202);
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', auth).expect(404);
    await t.request().get(`/v2/${name}/manifests/${image.digest}`).set('Authorization', auth).expect(200);
    await t.request().delete(`/v2/${name}/manifests/${image.digest}`).set('Authorization', auth).expect(202);
    const gone = await t.request().get(`/v2/${name}/manifests/${image.digest}`).set('Authorization', auth).expect(404);
    expect(gone.body.errors[0].code).toBe('MANIFEST_UNKNOWN');
    // The manifest kept its blobs; with it gone, they are gone.
    await t
      .request()
      .head(`/v2/${name}/blobs/${digestOf(image.layers[0])}`)
      .set('Authorization', auth)
      .expect(404);
    await t.request().delete(`/v2/${name}/manifests/${image.digest}`).set('Authorization', auth).expect(404);
  });

  it('deletes an uploaded blob (202, then 404) but keeps one a manifest refers to until the manifest goes', async () => {
    const name = `${alice.user.name}/${newImage()}`;
    const loose = randomBytes(300);
    await pushBlob(t, auth, name, loose).expect(201);
    await t
      .request()
      .delete(`/v2/${name}/blobs/${digestOf(loose)}`)
      .set('Authorization', auth)
      .expect(202);
    const res = await t
      .request()
      .get(`/v2/${name}/blobs/${digestOf(loose)}`)
      .set('Authorization', auth)
      .expect(404);
    expect(res.body.errors[0].code).toBe('BLOB_UNKNOWN');
    expect(await t.context.db.prisma.packageBlob.count({ where: { hashSha256: digestOf(loose).slice(7) } })).toBe(0);

    const image = await pushImage(t, auth, name, 'v1');
    const layer = digestOf(image.layers[0]);
    await t.request().delete(`/v2/${name}/blobs/${layer}`).set('Authorization', auth).expect(202);
    await t.request().get(`/v2/${name}/blobs/${layer}`).set('Authorization', auth).expect(200);
  });

  it('shows the image in the package API with Forgejo metadata and files, and removes it through the API', async () => {
    const image = newImage();
    const name = `${alice.user.name}/${image}`;
    const pushed = await pushImage(t, auth, name, 'v1', {
      config: imageConfig({ os: 'linux', architecture: 'arm64' }, { maintainer: 'alice' }),
    });
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=container&q=${image}`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body).toEqual([expect.objectContaining({ type: 'container', name: image, version: 'v1' })]);
    const files = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/container/${image}/v1/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body.map((file: { name: string }) => file.name).sort()).toEqual(
      ['manifest.json', digestOf(pushed.config), digestOf(pushed.layers[0])].sort(),
    );
    const version = await t.context.db.prisma.packageVersion.findFirstOrThrow({
      where: { lowerVersion: 'v1', package: { lowerName: image } },
    });
    expect(JSON.parse(version.metadataJson)).toMatchObject({
      type: 'oci',
      is_tagged: true,
      platform: 'linux/arm64',
      labels: { maintainer: 'alice' },
      media_type: OCI_MANIFEST,
      digest: pushed.digest,
    });
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/container/${image}/v1`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t.request().get(`/v2/${name}/manifests/v1`).set('Authorization', auth).expect(404);
  });

  it('removes uploads and uploaded blobs left for a day in the cleanup task', async () => {
    const name = `${alice.user.name}/${newImage()}`;
    const loose = randomBytes(100);
    await pushBlob(t, auth, name, loose).expect(201);
    const { headers } = await t.request().post(`/v2/${name}/blobs/uploads/`).set('Authorization', auth).expect(202);
    await t
      .request()
      .patch(headers.location as string)
      .set('Authorization', auth)
      .send(randomBytes(100))
      .expect(202);
    const removed = await t.context.services.containerBlobs.deleteStale(new Date(Date.now() + 60_000));
    expect(removed).toBeGreaterThanOrEqual(2);
    await t
      .request()
      .get(headers.location as string)
      .set('Authorization', auth)
      .expect(404);
    await t
      .request()
      .head(`/v2/${name}/blobs/${digestOf(loose)}`)
      .set('Authorization', auth)
      .expect(404);
  });
});
