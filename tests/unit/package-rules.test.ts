// Pure rules of the package registry: names, the access level, byte ranges and the served content type.
import type { User } from '../../src/db/prisma.ts';
import { AccessMode } from '../../src/domain/access/modes.ts';
import { sniffContentType } from '../../src/lib/content-sniff.ts';
import { packageAccessMode } from '../../src/domain/access/package-access.ts';
import {
  isValidGenericFileName,
  isValidGenericPackageName,
  isValidGenericVersion,
} from '../../src/domain/package-names.ts';
import { matchesEntityTag, parseByteRange } from '../../src/http/byte-range.ts';

const account = (id: number, type: 0 | 1, visibility: 0 | 1 | 2) => ({ id, type, visibility }) as User;

describe('generic names', () => {
  it.each(['a', '7', 'tool', 'A-b_c+d.e', '..a', 'a..'])('accepts package name %p', (name) =>
    expect(isValidGenericPackageName(name)).toBe(true),
  );
  it.each(['', '.', '-', '..', 'a/b', 'a b', 'ä', 'a\\b', 'a\0'])('refuses package name %p', (name) =>
    expect(isValidGenericPackageName(name)).toBe(false),
  );
  it.each(['f', 'a b.txt', 'x=(1)[2]{3}~!@#$%^&;:.tgz', '...'])('accepts file name %p', (name) =>
    expect(isValidGenericFileName(name)).toBe(true),
  );
  it.each(['', '.', '..', ' a', 'a ', 'a/b', 'a\\b', 'a\nb', 'a"b', 'a?b', 'a*b'])('refuses file name %p', (name) =>
    expect(isValidGenericFileName(name)).toBe(false),
  );
  it.each(['1', '1.0.0-rc.1+b', 'latest', 'v 2'])('accepts version %p', (version) =>
    expect(isValidGenericVersion(version)).toBe(true),
  );
  it.each(['', '.', '..', ' 1', '1 ', '1/2', '1\\2', '1\t2', '1\u007f'])('refuses version %p', (version) =>
    expect(isValidGenericVersion(version)).toBe(false),
  );
});

describe('packageAccessMode', () => {
  const viewer = account(1, 0, 0);
  it('gives a user owner access to their own packages and read to others by visibility', () => {
    expect(packageAccessMode(viewer, viewer, [], true)).toBe(AccessMode.owner);
    expect(packageAccessMode(viewer, account(2, 0, 0), [], true)).toBe(AccessMode.read);
    expect(packageAccessMode(viewer, account(2, 0, 1), [], true)).toBe(AccessMode.read);
    expect(packageAccessMode(viewer, account(2, 0, 2), [], false)).toBe(AccessMode.none);
    expect(packageAccessMode(null, account(2, 0, 0), [], true)).toBe(AccessMode.read);
    expect(packageAccessMode(null, account(2, 0, 1), [], false)).toBe(AccessMode.none);
  });

  it("takes an organization's best team level, raised below write by the packages unit", () => {
    const org = account(3, 1, 2);
    expect(packageAccessMode(viewer, org, [{ accessMode: AccessMode.owner, packagesUnit: 0 }], true)).toBe(
      AccessMode.owner,
    );
    expect(packageAccessMode(viewer, org, [{ accessMode: AccessMode.write, packagesUnit: 0 }], true)).toBe(
      AccessMode.write,
    );
    expect(
      packageAccessMode(viewer, org, [{ accessMode: AccessMode.read, packagesUnit: AccessMode.write }], true),
    ).toBe(AccessMode.write);
    expect(
      packageAccessMode(
        viewer,
        org,
        [
          { accessMode: AccessMode.read, packagesUnit: AccessMode.read },
          { accessMode: AccessMode.read, packagesUnit: 0 },
        ],
        true,
      ),
    ).toBe(AccessMode.read);
    expect(packageAccessMode(viewer, org, [], true)).toBe(AccessMode.read);
    expect(packageAccessMode(viewer, org, [], false)).toBe(AccessMode.none);
    expect(packageAccessMode(null, account(3, 1, 0), [], true)).toBe(AccessMode.read);
  });
});

describe('parseByteRange', () => {
  it.each([
    ['bytes=0-9', { start: 0, end: 9 }],
    ['bytes=90-', { start: 90, end: 99 }],
    ['bytes=-10', { start: 90, end: 99 }],
    ['bytes=-500', { start: 0, end: 99 }],
    ['bytes=95-500', { start: 95, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=-0', 'unsatisfiable'],
    ['bytes=5-1', null],
    ['bytes=0-1,3-4', null],
    ['items=0-1', null],
    ['bytes=-', null],
    [undefined, null],
  ])('reads %p of 100 bytes as %p', (header, expected) => expect(parseByteRange(header, 100)).toEqual(expected));

  it('matches entity tags weakly, in lists and with *', () => {
    expect(matchesEntityTag('"a", "b"', '"b"')).toBe(true);
    expect(matchesEntityTag('W/"b"', '"b"')).toBe(true);
    expect(matchesEntityTag('*', '"b"')).toBe(true);
    expect(matchesEntityTag('"c"', '"b"')).toBe(false);
    expect(matchesEntityTag(undefined, '"b"')).toBe(false);
  });
});

describe('sniffContentType', () => {
  it.each([
    [Buffer.from('\x89PNG\r\n\x1a\nrest', 'latin1'), 'image/png'],
    [Buffer.from('%PDF-1.7'), 'application/pdf'],
    [Buffer.from('<html><script>x</script>'), 'text/plain; charset=utf-8'],
    [Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'text/plain; charset=utf-8'],
    [Buffer.from('héllo wörld'), 'text/plain; charset=utf-8'],
    [Buffer.from([0x68, 0xc3]), 'text/plain; charset=utf-8'],
    [Buffer.from([0x00, 0x01, 0x02]), 'application/octet-stream'],
    [Buffer.from([0xff, 0xfe, 0x41]), 'application/octet-stream'],
    [Buffer.alloc(0), 'application/octet-stream'],
  ])('serves %p as %p', (head, type) => expect(sniffContentType(head)).toBe(type));
});
