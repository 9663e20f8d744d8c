// The Maven registry under /api/packages/{owner}/maven, driven by the exact request sequences of `mvn deploy`
// (release and SNAPSHOT) and of a dependency resolution (`mvn dependency:get`), checking every field Maven reads;
// conflicts, checksums, access, token scopes and the package API.
import { randomBytes } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import {
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

const LISTS = ['metadata.versioning.versions.version', 'metadata.versioning.snapshotVersions.snapshotVersion'];
const xml = new XMLParser({ parseTagValue: false, isArray: (_name, jpath) => LISTS.includes(String(jpath)) });
const repo = (owner: string) => `/api/packages/${owner}/maven`;

function pom(groupId: string, artifactId: string, version: string): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId><version>${version}</version>
  <name>Probe</name><description>A probe</description><url>https://example.com/probe</url>
  <licenses><license><name>MIT</name></license></licenses>
  <dependencies><dependency><groupId>org.dep</groupId><artifactId>dep</artifactId><version>2.0</version></dependency></dependencies>
</project>`);
}

function bytesOf(url: string, auth?: string, method: 'get' | 'head' = 'get') {
  const request = t.request()[method](url);
  if (auth) request.set('Authorization', auth);
  return request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

const put = (url: string, auth: string, body: Buffer | string) =>
  t.request().put(url).set('Authorization', auth).set('Content-Type', 'application/octet-stream').send(body);

/** What `mvn deploy` sends for one file: the file, then its .sha1 and .md5. */
async function deployFile(auth: string, url: string, body: Buffer, status = 201): Promise<void> {
  await put(url, auth, body).expect(status);
  const digests = digestsOf(body);
  await put(`${url}.sha1`, auth, digests.sha1).expect(200);
  await put(`${url}.md5`, auth, digests.md5).expect(200);
}

/** `mvn deploy` of a release: metadata read, jar, pom, then the client's merged metadata with its checksums. */
async function deployRelease(owner: string, auth: string, groupId: string, artifactId: string, version: string) {
  const base = `${repo(owner)}/${groupId.replace(/\./g, '/')}/${artifactId}`;
  await t.request().get(`${base}/maven-metadata.xml`).set('Authorization', auth);
  const jar = randomBytes(4096);
  const pomBytes = pom(groupId, artifactId, version);
  await deployFile(auth, `${base}/${version}/${artifactId}-${version}.jar`, jar);
  await deployFile(auth, `${base}/${version}/${artifactId}-${version}.pom`, pomBytes);
  const clientMetadata = `<metadata><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId></metadata>`;
  await put(`${base}/maven-metadata.xml`, auth, clientMetadata).expect(200);
  await put(`${base}/maven-metadata.xml.sha1`, auth, digestsOf(Buffer.from(clientMetadata)).sha1).expect(200);
  await put(`${base}/maven-metadata.xml.md5`, auth, digestsOf(Buffer.from(clientMetadata)).md5).expect(200);
  return { base, jar, pom: pomBytes };
}

/** What dependency resolution does for a release: pom, its sha1, jar, its sha1, each checked. */
async function resolve(
  base: string,
  artifactId: string,
  version: string,
  auth?: string,
  file = `${artifactId}-${version}`,
) {
  const pomRes = await bytesOf(`${base}/${version}/${file}.pom`, auth).expect(200);
  const pomSha1 = await t
    .request()
    .get(`${base}/${version}/${file}.pom.sha1`)
    .set('Authorization', auth ?? '');
  expect(pomSha1.text).toBe(digestsOf(pomRes.body).sha1);
  const jarRes = await bytesOf(`${base}/${version}/${file}.jar`, auth).expect(200);
  const jarSha1 = await t
    .request()
    .get(`${base}/${version}/${file}.jar.sha1`)
    .set('Authorization', auth ?? '');
  expect(jarSha1.text).toBe(digestsOf(jarRes.body).sha1);
  return { pom: pomRes.body as Buffer, jar: jarRes.body as Buffer };
}

describe('mvn deploy and resolution of releases', () => {
  it('deploys jar, pom and checksums, generates maven-metadata.xml, and resolves the same bytes', async () => {
    const groupId = `com.${uniqueName('g')}`;
    const deployed = await deployRelease(alice.user.name, alice.auth, groupId, 'lib', '1.0');
    await deployRelease(alice.user.name, alice.auth, groupId, 'lib', '1.1');

    const metadata = await t
      .request()
      .get(`${deployed.base}/maven-metadata.xml`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(metadata.headers['content-type']).toMatch(/^text\/xml/);
    expect(metadata.text.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    const versioning = xml.parse(metadata.text).metadata;
    expect(versioning).toMatchObject({
      groupId,
      artifactId: 'lib',
      versioning: { latest: '1.1', release: '1.1', versions: { version: ['1.0', '1.1'] } },
    });
    expect(versioning.versioning.lastUpdated).toMatch(/^\d{14}$/);
    for (const kind of ['md5', 'sha1', 'sha256', 'sha512'] as const) {
      const sum = await t
        .request()
        .get(`${deployed.base}/maven-metadata.xml.${kind}`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(sum.text).toBe(digestsOf(Buffer.from(metadata.text))[kind]);
    }
    await t
      .request()
      .get(`${deployed.base}/maven-metadata.xml`)
      .set('Authorization', alice.auth)
      .set('If-None-Match', metadata.headers.etag)
      .expect(304);

    const got = await resolve(deployed.base, 'lib', '1.0', alice.auth);
    expect(Buffer.compare(got.jar, deployed.jar)).toBe(0);
    expect(Buffer.compare(got.pom, deployed.pom)).toBe(0);
    for (const kind of ['md5', 'sha256', 'sha512'] as const) {
      const sum = await t
        .request()
        .get(`${deployed.base}/1.0/lib-1.0.jar.${kind}`)
        .set('Authorization', alice.auth)
        .expect(200);
      expect(sum.text).toBe(digestsOf(deployed.jar)[kind]);
    }
    const head = await t
      .request()
      .head(`${deployed.base}/1.0/lib-1.0.jar`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(head.headers['content-length']).toBe('4096');
  });

  it('keeps the POM as the version metadata, and shows the version in the package API', async () => {
    const groupId = `org.${uniqueName('g')}`;
    await deployRelease(alice.user.name, alice.auth, groupId, 'core', '2.0');
    const name = `${groupId}:core`;
    const version = await t.context.db.prisma.packageVersion.findFirstOrThrow({
      where: { package: { ownerId: alice.user.id, type: 'maven', lowerName: name.toLowerCase() } },
    });
    expect(JSON.parse(version.metadataJson)).toMatchObject({
      group_id: groupId,
      artifact_id: 'core',
      name: 'Probe',
      licenses: ['MIT'],
      dependencies: [{ group_id: 'org.dep', artifact_id: 'dep', version: '2.0' }],
    });
    const list = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}?type=maven`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(list.body).toContainEqual(expect.objectContaining({ type: 'maven', name, version: '2.0' }));
    const files = await t
      .request()
      .get(`/api/v1/packages/${alice.user.name}/maven/${encodeURIComponent(name)}/2.0/files`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(files.body.map((file: { name: string }) => file.name)).toEqual(['core-2.0.jar', 'core-2.0.pom']);
  });

  it('answers 409 for a release file deployed again, keeping the first bytes', async () => {
    const groupId = `com.${uniqueName('g')}`;
    const { base, jar } = await deployRelease(alice.user.name, alice.auth, groupId, 'lib', '1.0');
    await put(`${base}/1.0/lib-1.0.jar`, alice.auth, randomBytes(10)).expect(409);
    expect(Buffer.compare((await bytesOf(`${base}/1.0/lib-1.0.jar`, alice.auth).expect(200)).body, jar)).toBe(0);
  });

  it('refuses a checksum that does not match the stored file (400), and one of a missing file (404)', async () => {
    const groupId = `com.${uniqueName('g')}`;
    const { base } = await deployRelease(alice.user.name, alice.auth, groupId, 'lib', '1.0');
    await put(`${base}/1.0/lib-1.0.jar.sha1`, alice.auth, '0'.repeat(40)).expect(400);
    await put(`${base}/1.0/lib-1.0-sources.jar.sha1`, alice.auth, '0'.repeat(40)).expect(404);
  });

  it('refuses a POM that is not XML (400) and keeps nothing', async () => {
    const before = blobFiles(t);
    const groupId = `com.${uniqueName('g')}`;
    await put(`${repo(alice.user.name)}/com/${groupId}/lib/1.0/lib-1.0.pom`, alice.auth, 'not xml <').expect(400);
    expect(blobFiles(t)).toEqual(before);
  });

  it('answers 400 for paths that name no file, and 404 for what is not there, with no body Maven would read', async () => {
    await bytesOf(`${repo(alice.user.name)}/lib/1.0/lib-1.0.jar`, alice.auth).expect(400);
    await bytesOf(`${repo(alice.user.name)}/com/x/lib/1:0/lib.jar`, alice.auth).expect(400);
    const missing = await bytesOf(`${repo(alice.user.name)}/com/none/lib/1.0/lib-1.0.jar`, alice.auth).expect(404);
    expect(missing.body.length).toBe(0);
    await bytesOf(`${repo(alice.user.name)}/com/none/lib/maven-metadata.xml`, alice.auth).expect(404);
  });
});

describe('SNAPSHOT versions', () => {
  it('serves the newest timestamped build in the version metadata, resolves it, and lets a build be deployed again', async () => {
    const groupId = `com.${uniqueName('g')}`;
    const base = `${repo(alice.user.name)}/${groupId.replace(/\./g, '/')}/app`;
    const version = '1.0-SNAPSHOT';
    await t.request().get(`${base}/${version}/maven-metadata.xml`).set('Authorization', alice.auth).expect(404);
    const builds = ['20240101.100000-1', '20240102.100000-2'];
    let lastJar = Buffer.alloc(0);
    for (const build of builds) {
      lastJar = randomBytes(1000);
      await deployFile(alice.auth, `${base}/${version}/app-1.0-${build}.jar`, lastJar);
      await deployFile(alice.auth, `${base}/${version}/app-1.0-${build}.pom`, pom(groupId, 'app', version));
      await put(`${base}/${version}/maven-metadata.xml`, alice.auth, '<metadata/>').expect(200);
      await put(`${base}/${version}/maven-metadata.xml.sha1`, alice.auth, '0'.repeat(40)).expect(200);
      await put(`${base}/maven-metadata.xml`, alice.auth, '<metadata/>').expect(200);
    }
    await deployFile(alice.auth, `${base}/${version}/app-1.0-20240101.100000-1-sources.jar`, randomBytes(10));

    const snapshot = await t
      .request()
      .get(`${base}/${version}/maven-metadata.xml`)
      .set('Authorization', alice.auth)
      .expect(200);
    const meta = xml.parse(snapshot.text).metadata;
    expect(meta).toMatchObject({
      groupId,
      artifactId: 'app',
      version,
      versioning: { snapshot: { timestamp: '20240102.100000', buildNumber: '2' } },
    });
    expect(meta.versioning.lastUpdated).toMatch(/^\d{14}$/);
    expect(meta.versioning.snapshotVersions.snapshotVersion).toEqual([
      expect.objectContaining({ extension: 'jar', value: '1.0-20240102.100000-2' }),
      expect.objectContaining({ extension: 'pom', value: '1.0-20240102.100000-2' }),
      expect.objectContaining({ classifier: 'sources', extension: 'jar', value: '1.0-20240101.100000-1' }),
    ]);
    const sha1 = await t
      .request()
      .get(`${base}/${version}/maven-metadata.xml.sha1`)
      .set('Authorization', alice.auth)
      .expect(200);
    expect(sha1.text).toBe(digestsOf(Buffer.from(snapshot.text)).sha1);

    const artifact = xml.parse(
      (await t.request().get(`${base}/maven-metadata.xml`).set('Authorization', alice.auth).expect(200)).text,
    );
    expect(artifact.metadata.versioning.latest).toBe(version);
    expect(artifact.metadata.versioning.release).toBeUndefined();
    expect(artifact.metadata.versioning.versions.version).toEqual([version]);

    const got = await resolve(base, 'app', version, alice.auth, 'app-1.0-20240102.100000-2');
    expect(Buffer.compare(got.jar, lastJar)).toBe(0);

    const replacement = randomBytes(500);
    await deployFile(alice.auth, `${base}/${version}/app-1.0-20240102.100000-2.jar`, replacement);
    const again = await bytesOf(`${base}/${version}/app-1.0-20240102.100000-2.jar`, alice.auth).expect(200);
    expect(Buffer.compare(again.body, replacement)).toBe(0);
  });
});

describe('access', () => {
  it('lets anyone resolve from a public owner, asks anonymous deployers to sign in, refuses other users (403)', async () => {
    const groupId = `com.${uniqueName('g')}`;
    const { base } = await deployRelease(alice.user.name, alice.auth, groupId, 'lib', '1.0');
    await resolve(base, 'lib', '1.0');
    const anonymous = await t.request().put(`${base}/1.1/lib-1.1.jar`).send('x').expect(401);
    expect(anonymous.headers['www-authenticate']).toMatch(/^Basic/);
    await put(`${base}/1.1/lib-1.1.jar`, bob.auth, 'x').expect(403);
    await put(`${base}/1.1/lib-1.1.jar`, basicAuth(alice.user.name, alice.password), 'x').expect(201);
  });

  it('hides a private owner from outsiders (404) and honours token scopes', async () => {
    const org = await createTestOrg(t, alice.user, { visibility: 2 });
    const groupId = `com.${uniqueName('g')}`;
    const { base } = await deployRelease(org.name, alice.auth, groupId, 'lib', '1.0');
    await bytesOf(`${base}/1.0/lib-1.0.jar`).expect(401);
    await bytesOf(`${repo(uniqueName('nobody'))}/com/x/lib/1.0/lib-1.0.jar`).expect(401);
    await bytesOf(`${base}/1.0/lib-1.0.jar`, bob.auth).expect(404);
    await bytesOf(`${base}/maven-metadata.xml`, bob.auth).expect(404);
    await put(`${base}/2.0/lib-2.0.jar`, bob.auth, 'x').expect(404);

    const reader = `token ${await createToken(t, alice.user, 'read:package')}`;
    const other = `token ${await createToken(t, alice.user, 'read:repository')}`;
    await resolve(base, 'lib', '1.0', reader);
    await put(`${base}/2.0/lib-2.0.jar`, reader, 'x').expect(403);
    await bytesOf(`${base}/1.0/lib-1.0.jar`, other).expect(403);
  });

  it('no longer resolves a version deleted through the API', async () => {
    const groupId = `com.${uniqueName('g')}`;
    const { base } = await deployRelease(alice.user.name, alice.auth, groupId, 'lib', '1.0');
    await t
      .request()
      .delete(`/api/v1/packages/${alice.user.name}/maven/${encodeURIComponent(`${groupId}:lib`)}/1.0`)
      .set('Authorization', alice.auth)
      .expect(204);
    await bytesOf(`${base}/1.0/lib-1.0.pom`).expect(404);
    await bytesOf(`${base}/maven-metadata.xml`).expect(404);
  });
});
