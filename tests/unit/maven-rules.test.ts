// Pure rules of the Maven registry: paths, timestamped SNAPSHOT builds, maven-metadata.xml, POMs and checksums.
import { createHash } from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import { parseMavenPath } from '../../src/packages/maven/maven-path.ts';
import { parseSnapshotFile } from '../../src/packages/maven/snapshot-file.ts';
import { artifactMetadataXml, snapshotMetadataXml } from '../../src/packages/maven/maven-metadata.ts';
import { parsePom } from '../../src/packages/maven/pom.ts';
import { checksumMatches, documentChecksum } from '../../src/packages/maven/checksum.ts';
import { BadRequestError } from '../../src/domain/errors.ts';

const readXml = (xml: string) => new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(xml);

describe('paths', () => {
  it.each([
    [
      'com/example/lib/1.0/lib-1.0.jar',
      { groupId: 'com.example', artifactId: 'lib', version: '1.0', fileName: 'lib-1.0.jar', checksum: null },
    ],
    [
      'com/example/lib/1.0/lib-1.0.pom.sha1',
      { groupId: 'com.example', artifactId: 'lib', version: '1.0', fileName: 'lib-1.0.pom', checksum: 'sha1' },
    ],
    [
      'org/lib/maven-metadata.xml',
      { groupId: 'org', artifactId: 'lib', version: null, fileName: 'maven-metadata.xml', isMetadata: true },
    ],
    [
      'org/x/lib/maven-metadata.xml.sha512',
      { groupId: 'org.x', artifactId: 'lib', version: null, checksum: 'sha512', isMetadata: true },
    ],
    [
      'org/x/lib/2.0-SNAPSHOT/maven-metadata.xml.md5',
      { groupId: 'org.x', artifactId: 'lib', version: '2.0-SNAPSHOT', checksum: 'md5', isMetadata: true },
    ],
    [
      'org/x/lib/2.0-SNAPSHOT/lib-2.0-20240102.030405-3-sources.jar.sha256',
      { version: '2.0-SNAPSHOT', fileName: 'lib-2.0-20240102.030405-3-sources.jar', checksum: 'sha256' },
    ],
  ])('reads %p', (path, expected) => expect(parseMavenPath(path)).toMatchObject(expected));

  it.each([
    'lib/1.0/lib-1.0.jar',
    'lib/maven-metadata.xml',
    'a.jar',
    'com//lib/1.0/a.jar',
    'com/../lib/1.0/a.jar',
    'com/lib/1:0/a.jar',
    'com/lib/1.0/a"b.jar',
    'com/lib/1.0/a\u0001.jar',
  ])('refuses %p', (path) => expect(parseMavenPath(path)).toBeNull());
});

describe('timestamped SNAPSHOT builds', () => {
  it.each([
    [
      'lib-1.0-20240102.030405-7.jar',
      { timestamp: '20240102.030405', buildNumber: 7, classifier: '', extension: 'jar' },
    ],
    [
      'lib-1.0-20240102.030405-12-linux-x86_64.tar.gz',
      { buildNumber: 12, classifier: 'linux-x86_64', extension: 'tar.gz' },
    ],
    ['lib-1.0-20240102.030405-1.pom', { value: '1.0-20240102.030405-1', extension: 'pom' }],
  ])('reads %p', (name, expected) => expect(parseSnapshotFile('lib', '1.0-SNAPSHOT', name)).toMatchObject(expected));

  it.each([
    'lib-1.0-SNAPSHOT.jar',
    'other-1.0-20240102.030405-7.jar',
    'lib-1.0-2024.030405-7.jar',
    'lib-1.0-20240102.030405-0.jar',
  ])('does not take %p for a build', (name) => expect(parseSnapshotFile('lib', '1.0-SNAPSHOT', name)).toBeNull());
});

describe('maven-metadata.xml', () => {
  it('lists the versions in deploy order with latest, release and lastUpdated', () => {
    const xml = artifactMetadataXml('com.example', 'lib', [
      { version: '2.0', createdAt: new Date('2024-01-01T00:00:00Z') },
      { version: '1.5', createdAt: new Date('2024-02-01T10:20:30Z') },
      { version: '3.0-SNAPSHOT', createdAt: new Date('2024-03-01T00:00:00Z') },
    ]);
    expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<metadata modelVersion="1.1.0">')).toBe(true);
    expect(readXml(xml).metadata).toEqual({
      '@_modelVersion': '1.1.0',
      groupId: 'com.example',
      artifactId: 'lib',
      versioning: {
        latest: '3.0-SNAPSHOT',
        release: '1.5',
        versions: { version: ['2.0', '1.5', '3.0-SNAPSHOT'] },
        lastUpdated: '20240301000000',
      },
    });
  });

  it('has no release while every version is a SNAPSHOT, and escapes text', () => {
    const xml = artifactMetadataXml('g&<', 'a', [{ version: '1-SNAPSHOT', createdAt: new Date(0) }]);
    expect(xml).toContain('<groupId>g&amp;&lt;</groupId>');
    const versioning = readXml(xml).metadata.versioning;
    expect(versioning.release).toBeUndefined();
    expect(versioning.versions).toEqual({ version: '1-SNAPSHOT' });
  });

  it('gives a SNAPSHOT version its newest build and the newest file of each classifier and extension', () => {
    const at = (iso: string) => new Date(iso);
    const xml = snapshotMetadataXml('g', 'lib', '1.0-SNAPSHOT', [
      { name: 'lib-1.0-20240101.000000-1.jar', createdAt: at('2024-01-01T00:00:01Z') },
      { name: 'lib-1.0-20240101.000000-1.pom', createdAt: at('2024-01-01T00:00:02Z') },
      { name: 'lib-1.0-20240102.000000-2.jar', createdAt: at('2024-01-02T00:00:01Z') },
      { name: 'lib-1.0-20240102.000000-2.pom', createdAt: at('2024-01-02T00:00:02Z') },
      { name: 'lib-1.0-20240101.000000-1-sources.jar', createdAt: at('2024-01-01T00:00:03Z') },
      { name: 'lib-1.0-SNAPSHOT.jar', createdAt: at('2024-05-01T00:00:00Z') },
    ]) as string;
    expect(readXml(xml).metadata).toEqual({
      '@_modelVersion': '1.1.0',
      groupId: 'g',
      artifactId: 'lib',
      version: '1.0-SNAPSHOT',
      versioning: {
        snapshot: { timestamp: '20240102.000000', buildNumber: '2' },
        lastUpdated: '20240102000002',
        snapshotVersions: {
          snapshotVersion: [
            { extension: 'jar', value: '1.0-20240102.000000-2', updated: '20240102000001' },
            { extension: 'pom', value: '1.0-20240102.000000-2', updated: '20240102000002' },
            { classifier: 'sources', extension: 'jar', value: '1.0-20240101.000000-1', updated: '20240101000003' },
          ],
        },
      },
    });
    expect(
      snapshotMetadataXml('g', 'lib', '1.0-SNAPSHOT', [{ name: 'lib-1.0-SNAPSHOT.jar', createdAt: at('2024-01-01') }]),
    ).toBeNull();
  });
});

describe('POMs', () => {
  it('keeps name, description, URL, licences and dependencies; the group may come from the parent', () => {
    const pom = `<?xml version="1.0"?>
      <project xmlns="http://maven.apache.org/POM/4.0.0">
        <parent><groupId>org.parent</groupId><artifactId>p</artifactId><version>1</version></parent>
        <artifactId>lib</artifactId><version>1.0</version>
        <name>Lib &amp; Co</name><description> Does things </description><url>https://example.com</url>
        <licenses><license><name>MIT</name></license></licenses>
        <dependencies>
          <dependency><groupId>a</groupId><artifactId>b</artifactId><version>2</version></dependency>
          <dependency><groupId>c</groupId><artifactId>d</artifactId><version>3.0</version><scope>test</scope></dependency>
        </dependencies>
      </project>`;
    expect(parsePom(pom)).toEqual({
      group_id: 'org.parent',
      artifact_id: 'lib',
      name: 'Lib & Co',
      description: 'Does things',
      project_url: 'https://example.com',
      licenses: ['MIT'],
      dependencies: [
        { group_id: 'a', artifact_id: 'b', version: '2' },
        { group_id: 'c', artifact_id: 'd', version: '3.0' },
      ],
    });
  });

  it.each(['not xml <', '<other/>', ''])('refuses %p with 400', (xml) =>
    expect(() => parsePom(xml)).toThrow(BadRequestError),
  );
});

describe('checksums', () => {
  it('computes a document checksum and compares what a client deployed', () => {
    const sha1 = createHash('sha1').update('doc').digest('hex');
    expect(documentChecksum('doc', 'sha1')).toBe(sha1);
    expect(checksumMatches(`${sha1.toUpperCase()}\n`, sha1)).toBe(true);
    expect(checksumMatches(`${sha1}  lib-1.0.jar`, sha1)).toBe(true);
    expect(checksumMatches('', sha1)).toBe(false);
    expect(checksumMatches('0'.repeat(40), sha1)).toBe(false);
  });
});
