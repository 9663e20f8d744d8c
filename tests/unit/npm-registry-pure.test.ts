// Pure parts of the npm registry: base64 decoded in pieces of any length, npm's names, versions and tags, the digest
// check of the package core, and the packument and abbreviated documents built from rows.
import { randomBytes } from 'node:crypto';
import { Base64Decoder } from '../../src/lib/base64-decoder.ts';
import type { NpmPackageRows } from '../../src/db/npm.repository.ts';
import { verifyDigests } from '../../src/packages/core/publish.ts';
import { isValidDistTag, isValidNpmName, isValidNpmVersion, tarballName } from '../../src/packages/npm/npm-names.ts';
import { abbreviatedPackument, fullPackument, integrityOf } from '../../src/packages/npm/packument.ts';

describe('Base64Decoder', () => {
  it('decodes base64 split at every length, with and without padding', () => {
    for (const size of [0, 1, 2, 3, 4, 5, 100, 1001]) {
      const bytes = randomBytes(size);
      const text = bytes.toString('base64');
      for (const piece of [1, 2, 3, 5, 7, 64]) {
        const decoder = new Base64Decoder();
        const parts: Buffer[] = [];
        for (let at = 0; at < text.length; at += piece) parts.push(decoder.write(text.slice(at, at + piece)));
        parts.push(decoder.end());
        expect(Buffer.concat(parts).equals(bytes)).toBe(true);
      }
    }
  });
});

describe('npm names', () => {
  it("accepts npm's names and refuses the rest", () => {
    for (const name of ['a', 'left-pad', '@scope/pkg', '@a-b/c.d_e', 'x~y']) expect(isValidNpmName(name)).toBe(true);
    for (const name of ['', 'Upper', '.hidden', '_under', '@scope', '@scope/', 'a/b', 'a b', 'x'.repeat(215)])
      expect(isValidNpmName(name)).toBe(false);
  });

  it('takes full semantic versions as semver spells them, and tags that are no range', () => {
    expect(isValidNpmVersion('1.0.0')).toBe(true);
    expect(isValidNpmVersion('2.0.0-beta.1')).toBe(true);
    for (const version of ['1.0', 'v1.0.0', '=1.0.0', ' 1.0.0', 'latest'])
      expect(isValidNpmVersion(version)).toBe(false);
    for (const tag of ['latest', 'beta', 'next-2']) expect(isValidDistTag(tag)).toBe(true);
    for (const tag of ['', '1', '1.x', '^1.0.0', 'x', 'a/b', 'a b']) expect(isValidDistTag(tag)).toBe(false);
    expect(tarballName('@scope/pkg', '1.2.3')).toBe('pkg-1.2.3.tgz');
  });
});

describe('verifyDigests', () => {
  const actual = { size: 3, md5: 'aa', sha1: 'bb', sha256: 'cc', sha512: 'dd' };
  it('passes what matches (any case) or is not given, and refuses any difference', () => {
    expect(() => verifyDigests(actual, {})).not.toThrow();
    expect(() => verifyDigests(actual, { sha1: 'BB', size: 3 })).not.toThrow();
    expect(() => verifyDigests(actual, { sha512: 'de' })).toThrow(/sha512/);
    expect(() => verifyDigests(actual, { size: 4 })).toThrow(/length/);
  });
});

describe('packuments', () => {
  const at = (day: number) => new Date(Date.UTC(2026, 0, day));
  const rows: NpmPackageRows = {
    packageId: 7,
    name: '@a/b',
    versions: ['1.10.0', '1.9.0'].map((version, index) => ({
      versionId: index + 1,
      version,
      metadataJson: JSON.stringify({ description: `v${version}`, readme: 'long', dependencies: { c: '^1' } }),
      createdAt: at(index + 1),
      fileName: `b-${version}.tgz`,
      size: 10,
      sha1: 'ab'.repeat(20),
      sha512: 'cd'.repeat(64),
    })),
    tags: [{ name: 'latest', version: '1.9.0', updatedAt: at(5) }],
  };

  it('builds the full document: versions in semver order, dist, dist-tags, time, fields of latest', () => {
    const doc = fullPackument(rows, 'http://h/api/packages/a/npm');
    expect(Object.keys(doc.versions as object)).toEqual(['1.9.0', '1.10.0']);
    expect(doc['dist-tags']).toEqual({ latest: '1.9.0' });
    expect(doc.description).toBe('v1.9.0');
    expect((doc.versions as Record<string, { dist: unknown }>)['1.10.0'].dist).toEqual({
      shasum: 'ab'.repeat(20),
      integrity: integrityOf('cd'.repeat(64)),
      tarball: 'http://h/api/packages/a/npm/@a/b/-/1.10.0/b-1.10.0.tgz',
    });
    expect(doc.time).toEqual({
      created: at(1).toISOString(),
      modified: at(5).toISOString(),
      '1.10.0': at(1).toISOString(),
      '1.9.0': at(2).toISOString(),
    });
  });

  it('keeps only what installing needs in the abbreviated document', () => {
    const doc = abbreviatedPackument(rows, 'http://h/r');
    const version = (doc.versions as Record<string, Record<string, unknown>>)['1.9.0'];
    expect(version.dependencies).toEqual({ c: '^1' });
    expect(version.readme).toBeUndefined();
    expect(version.description).toBeUndefined();
    expect(doc.modified).toBe(at(5).toISOString());
  });
});
