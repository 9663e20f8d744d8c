// Maven's side of the wire over fetch, for tests against a running Anvil: the request sequence of `mvn deploy` for
// a release, and a dependency resolution (metadata, POM, jar, each checked against its .sha1) into a local
// repository laid out like ~/.m2/repository.
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { digestsOf } from './packages.ts';

export interface MavenCoordinates {
  readonly groupId: string;
  readonly artifactId: string;
  readonly version: string;
}

/** A request Maven made that did not get the status it needs. */
export class MavenRequestError extends Error {
  constructor(
    readonly method: string,
    readonly url: string,
    readonly status: number,
  ) {
    super(`${method} ${url} answered ${status}`);
  }
}

/** The directory of an artifact, relative to a repository's root (group dots become slashes). */
export function artifactDir(groupId: string, artifactId: string): string {
  return `${groupId.replace(/\./g, '/')}/${artifactId}`;
}

/** A minimal POM of a jar with no dependencies. */
export function pomOf({ groupId, artifactId, version }: MavenCoordinates): Buffer {
  return Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>${groupId}</groupId>
  <artifactId>${artifactId}</artifactId>
  <version>${version}</version>
  <packaging>jar</packaging>
</project>
`);
}

async function send(
  method: string,
  url: string,
  auth: string | undefined,
  expected: number[],
  body?: Buffer | string,
): Promise<Buffer> {
  const headers: Record<string, string> = {};
  if (auth) headers.Authorization = auth;
  if (body !== undefined) headers['Content-Type'] = 'application/octet-stream';
  const res = await fetch(url, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!expected.includes(res.status)) throw new MavenRequestError(method, url, res.status);
  return bytes;
}

/** What `mvn deploy` sends for one file: the file, then its .sha1 and .md5. */
async function deployFile(url: string, auth: string, body: Buffer | string): Promise<void> {
  const digests = digestsOf(Buffer.from(body));
  await send('PUT', url, auth, [200, 201], body);
  await send('PUT', `${url}.sha1`, auth, [200, 201], digests.sha1);
  await send('PUT', `${url}.md5`, auth, [200, 201], digests.md5);
}

/**
 * `mvn deploy` of a release to the repository at `repository` (…/api/packages/{owner}/maven): the artifact's
 * metadata read (404 the first time), the jar, the POM, then the metadata the client merged, each with checksums.
 */
export async function deployRelease(
  repository: string,
  auth: string,
  coordinates: MavenCoordinates,
  jar: Buffer,
): Promise<void> {
  const { groupId, artifactId, version } = coordinates;
  const base = `${repository}/${artifactDir(groupId, artifactId)}`;
  await send('GET', `${base}/maven-metadata.xml`, auth, [200, 404]);
  await deployFile(`${base}/${version}/${artifactId}-${version}.jar`, auth, jar);
  await deployFile(`${base}/${version}/${artifactId}-${version}.pom`, auth, pomOf(coordinates));
  const merged = `<?xml version="1.0" encoding="UTF-8"?>
<metadata><groupId>${groupId}</groupId><artifactId>${artifactId}</artifactId>
<versioning><release>${version}</release><versions><version>${version}</version></versions></versioning></metadata>`;
  await deployFile(`${base}/maven-metadata.xml`, auth, merged);
}

/** A file and its .sha1 fetched, the checksum compared with the bytes (Maven's default checksum policy fails). */
async function checkedGet(url: string, auth: string | undefined): Promise<Buffer> {
  const bytes = await send('GET', url, auth, [200]);
  const sha1 = (await send('GET', `${url}.sha1`, auth, [200])).toString('utf8').trim();
  if (sha1 !== digestsOf(bytes).sha1) throw new Error(`${url}.sha1 is ${sha1}, not the sha1 of the bytes served`);
  return bytes;
}

const metadataXml = new XMLParser({ parseTagValue: false });

export interface Resolved {
  readonly version: string;
  /** The jar's path in the local repository: what goes on the classpath. */
  readonly jar: string;
  readonly pom: string;
}

/**
 * Resolves groupId:artifactId as Maven does into the local repository `localRepo`: with no version given, the
 * release named by maven-metadata.xml (a version range or RELEASE), then the POM, then the jar; every file checked
 * against its .sha1 and stored with it under Maven's layout. Throws MavenRequestError on a refused request.
 */
export async function resolveRelease(
  repository: string,
  localRepo: string,
  groupId: string,
  artifactId: string,
  options: { version?: string; auth?: string; repositoryId?: string } = {},
): Promise<Resolved> {
  const { auth, repositoryId = 'anvil' } = options;
  const relative = artifactDir(groupId, artifactId);
  const base = `${repository}/${relative}`;
  const localDir = path.join(localRepo, ...relative.split('/'));
  let version = options.version;
  if (version === undefined) {
    const metadata = await checkedGet(`${base}/maven-metadata.xml`, auth);
    const parsed = metadataXml.parse(metadata.toString('utf8')) as {
      metadata?: { groupId?: string; artifactId?: string; versioning?: { release?: string } };
    };
    if (parsed.metadata?.groupId !== groupId || parsed.metadata.artifactId !== artifactId) {
      throw new Error(`${base}/maven-metadata.xml names another artifact`);
    }
    version = parsed.metadata.versioning?.release;
    if (!version) throw new Error(`${base}/maven-metadata.xml names no release`);
    fs.mkdirSync(localDir, { recursive: true });
    fs.writeFileSync(path.join(localDir, `maven-metadata-${repositoryId}.xml`), metadata);
  }
  const versionDir = path.join(localDir, version);
  fs.mkdirSync(versionDir, { recursive: true });
  const stored: string[] = [];
  for (const extension of ['pom', 'jar']) {
    const file = `${artifactId}-${version}.${extension}`;
    const bytes = await checkedGet(`${base}/${version}/${file}`, auth);
    fs.writeFileSync(path.join(versionDir, file), bytes);
    fs.writeFileSync(path.join(versionDir, `${file}.sha1`), digestsOf(bytes).sha1);
    stored.push(path.join(versionDir, file));
  }
  const remote = ['pom', 'jar'].map((extension) => `${artifactId}-${version}.${extension}>${repositoryId}=`);
  fs.writeFileSync(path.join(versionDir, '_remote.repositories'), `${remote.join('\n')}\n`);
  return { version, pom: stored[0]!, jar: stored[1]! };
}
