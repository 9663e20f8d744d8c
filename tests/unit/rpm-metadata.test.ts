// The RPM registry's pure parts: the header parser on packages rpmbuild made, the upload peek over a chunked
// stream, hostile headers, and the repodata documents with their checksums.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { BadRequestError } from '../../src/domain/errors.ts';
import { rpmHeadersLength } from '../../src/packages/rpm/rpm-header.ts';
import { parseRpmPackage, rpmFileName, rpmVersionString } from '../../src/packages/rpm/rpm-package.ts';
import { peekRpm, prepend } from '../../src/packages/rpm/rpm-upload.ts';
import { buildRepodata } from '../../src/packages/rpm/repomd.ts';
import type { IndexedRpm } from '../../src/packages/rpm/repodata.ts';
import { buildRpm } from '../helpers/rpm.ts';

const built = buildRpm({
  name: 'hello-anvil',
  version: '1.2.3',
  release: '4',
  epoch: 2,
  summary: 'Says hello <loudly> & clearly',
  requires: ['bash >= 4.0', 'coreutils'],
  provides: ['hello = 1.2.3-4'],
  conflicts: ['old-hello < 1'],
  obsoletes: ['hello-legacy <= 0.9'],
  files: { '/usr/bin/hello-anvil': '#!/bin/sh\necho hi\n', '/usr/share/doc/hello-anvil/README': 'hi\n' },
});

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

function headersOf(bytes: Buffer): Buffer {
  return bytes.subarray(0, rpmHeadersLength(bytes)!);
}

function chunked(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

describe('rpm headers', () => {
  const pkg = parseRpmPackage(headersOf(built.bytes));

  it('reads name, epoch, version, release, architecture and the descriptive fields', () => {
    expect(pkg).toMatchObject({
      name: 'hello-anvil',
      epoch: '2',
      version: '1.2.3',
      release: '4',
      arch: 'noarch',
      summary: 'Says hello <loudly> & clearly',
      description: 'A package built for the tests of hello-anvil.',
      license: 'MIT',
      url: 'https://example.com/rpm',
      sourceRpm: 'hello-anvil-1.2.3-4.src.rpm',
    });
    expect(pkg.buildTime).toBeGreaterThan(1_600_000_000);
    expect(pkg.installedSize).toBe('#!/bin/sh\necho hi\n'.length + 'hi\n'.length);
    expect(pkg.archiveSize).toBeGreaterThan(0);
    expect(rpmVersionString(pkg)).toBe('2-1.2.3-4');
    expect(rpmFileName(pkg)).toBe('hello-anvil-2-1.2.3-4.noarch.rpm');
  });

  it('reads the dependencies with their comparisons, leaving rpmlib() out', () => {
    expect(pkg.requires).toEqual(
      expect.arrayContaining([{ name: 'bash', flags: 'GE', epoch: '0', version: '4.0' }, { name: 'coreutils' }]),
    );
    expect(pkg.requires.some((dep) => dep.name.startsWith('rpmlib('))).toBe(false);
    expect(pkg.provides).toEqual(
      expect.arrayContaining([
        { name: 'hello', flags: 'EQ', epoch: '0', version: '1.2.3', release: '4' },
        { name: 'hello-anvil', flags: 'EQ', epoch: '2', version: '1.2.3', release: '4' },
      ]),
    );
    expect(pkg.conflicts).toEqual([{ name: 'old-hello', flags: 'LT', epoch: '0', version: '1' }]);
    expect(pkg.obsoletes).toEqual([{ name: 'hello-legacy', flags: 'LE', epoch: '0', version: '0.9' }]);
  });

  it('reads the file list, marking what primary.xml lists too, and the changelog', () => {
    expect(pkg.files).toEqual([
      { path: '/usr/bin/hello-anvil', primary: true },
      { path: '/usr/share/doc/hello-anvil/README' },
    ]);
    expect(pkg.changelogs).toEqual([
      { author: 'Tester <tester@example.com> - 1', date: 1795694400, text: '- First build' },
    ]);
  });

  it('places the main header where it starts and ends in the file', () => {
    expect(built.bytes.readUInt32BE(pkg.headerStart)).toBe(0x8eade801);
    expect(pkg.headerEnd).toBe(rpmHeadersLength(built.bytes));
  });
});

describe('hostile and broken uploads', () => {
  const refused = (bytes: Buffer) => expect(() => parseRpmPackage(bytes)).toThrow(BadRequestError);

  it('refuses what is no rpm', () => {
    refused(Buffer.from('PK\u0003\u0004 not an rpm at all, but long enough to hold a lead'.repeat(3)));
    refused(Buffer.alloc(50));
  });

  it('refuses a package cut inside its headers', () => refused(built.bytes.subarray(0, 2000)));

  it('refuses a header whose index asks for more than rpm allows', () => {
    const bytes = Buffer.from(headersOf(built.bytes));
    bytes.writeUInt32BE(0x7fffffff, 96 + 8);
    refused(bytes);
  });

  it('refuses a tag that points past its header', () => {
    const bytes = Buffer.from(headersOf(built.bytes));
    const pkg = parseRpmPackage(headersOf(built.bytes));
    // The first index entry of the main header: its offset goes far past the store.
    bytes.writeUInt32BE(0x00ffffff, pkg.headerStart + 16 + 8);
    refused(bytes);
  });

  it('peeks the headers off a stream cut into small chunks and gives every byte back', async () => {
    const peeked = await peekRpm(chunked(built.bytes, 7));
    expect(peeked.pkg.name).toBe('hello-anvil');
    const chunks: Buffer[] = [];
    for await (const chunk of prepend(peeked.headers, peeked.rest)) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(built.bytes)).toBe(true);
  });

  it('refuses headers larger than the bound before reading the rest', async () => {
    await expect(peekRpm(chunked(built.bytes, 1024), 1000)).rejects.toThrow('too large');
  });

  it('refuses a stream that ends inside the headers', async () => {
    await expect(peekRpm(chunked(built.bytes.subarray(0, 3000), 512))).rejects.toThrow(BadRequestError);
  });
});

describe('repodata', () => {
  const pkg = parseRpmPackage(headersOf(built.bytes));
  const item: IndexedRpm = {
    pkg: { ...pkg, description: 'bell \u0007 rings' },
    sha256: sha256(built.bytes),
    size: built.bytes.length,
    href: 'package/hello-anvil/2-1.2.3-4/noarch/hello-anvil-2-1.2.3-4.noarch.rpm',
    fileTime: 1_800_000_000,
  };
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'data',
  });

  it('names each list in repomd.xml with the checksums and sizes of its bytes, and signs repomd.xml', async () => {
    const signed: Buffer[] = [];
    const files = await buildRepodata([item], async (data) => {
      signed.push(data);
      return 'SIGNATURE';
    });
    const byName = new Map(files.map((file) => [file.name, file.bytes]));
    expect([...byName.keys()].sort()).toEqual([
      'filelists.xml.gz',
      'other.xml.gz',
      'primary.xml.gz',
      'repomd.xml',
      'repomd.xml.asc',
    ]);
    const repomd = byName.get('repomd.xml')!;
    expect(signed).toEqual([repomd]);
    expect(byName.get('repomd.xml.asc')!.toString()).toBe('SIGNATURE');
    const data = parser.parse(repomd.toString()).repomd.data as Record<string, any>[];
    expect(data.map((entry) => entry.type)).toEqual(['primary', 'filelists', 'other']);
    for (const entry of data) {
      const gz = byName.get(`${entry.type}.xml.gz`)!;
      expect(entry.location.href).toBe(`repodata/${entry.type}.xml.gz`);
      expect(entry.checksum['#text']).toBe(sha256(gz));
      expect(Number(entry.size)).toBe(gz.length);
      const open = gunzipSync(gz);
      expect(entry['open-checksum']['#text']).toBe(sha256(open));
      expect(Number(entry['open-size'])).toBe(open.length);
    }
  });

  it('lists many packages in order, each once, in all three lists', async () => {
    const many = Array.from({ length: 300 }, (_, i) => ({
      ...item,
      pkg: { ...item.pkg, name: `pkg-${String(i).padStart(3, '0')}` },
      sha256: sha256(String(i)),
    }));
    const files = await buildRepodata(many, async () => 'SIGNATURE');
    const open = (name: string) => gunzipSync(files.find((file) => file.name === name)!.bytes).toString();
    const names = many.map((entry) => entry.pkg.name);
    const primary = parser.parse(open('primary.xml.gz')).metadata;
    expect(primary.packages).toBe('300');
    expect(primary.package.map((entry: { name: string }) => entry.name)).toEqual(names);
    const filelists = parser.parse(open('filelists.xml.gz')).filelists;
    expect(filelists.package.map((entry: { name: string }) => entry.name)).toEqual(names);
    const other = parser.parse(open('other.xml.gz')).otherdata;
    expect(other.package.map((entry: { pkgid: string }) => entry.pkgid)).toEqual(many.map((entry) => entry.sha256));
  });

  it('lists the package in primary, filelists and other', async () => {
    const files = await buildRepodata([item], async () => 'SIGNATURE');
    const open = (name: string) => gunzipSync(files.find((file) => file.name === name)!.bytes).toString();
    const primary = parser.parse(open('primary.xml.gz')).metadata;
    expect(primary.packages).toBe('1');
    expect(primary.package).toMatchObject({
      type: 'rpm',
      name: 'hello-anvil',
      arch: 'noarch',
      version: { epoch: '2', ver: '1.2.3', rel: '4' },
      checksum: { type: 'sha256', pkgid: 'YES', '#text': item.sha256 },
      summary: 'Says hello <loudly> & clearly',
      description: 'bell  rings',
      location: { href: item.href },
      size: { package: String(item.size) },
    });
    expect(primary.package.format['rpm:requires']['rpm:entry']).toEqual(
      expect.arrayContaining([{ name: 'bash', flags: 'GE', epoch: '0', ver: '4.0' }]),
    );
    expect(primary.package.format.file).toBe('/usr/bin/hello-anvil');
    const filelists = parser.parse(open('filelists.xml.gz')).filelists;
    expect(filelists.package.pkgid).toBe(item.sha256);
    expect(filelists.package.file).toEqual(['/usr/bin/hello-anvil', '/usr/share/doc/hello-anvil/README']);
    const other = parser.parse(open('other.xml.gz')).otherdata;
    expect(other.package.changelog).toMatchObject({
      author: 'Tester <tester@example.com> - 1',
      '#text': '- First build',
    });
  });
});
