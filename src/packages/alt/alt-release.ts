// The two release files of an ALT repository's architecture (apt-rpm; Forgejo: services/packages/alt buildRelease):
// release.classic describes the component, release names each index file of base/ with its size, MD5 and BLAKE2b
// digests, which apt checks the downloaded files against.
import { createHash } from 'node:crypto';
import { COMPONENT } from './pkglist.ts';

export interface BaseFile {
  /** The name below base/. */
  name: string;
  data: Buffer;
}

export interface ReleaseInput {
  appName: string;
  arch: string;
  now: Date;
}

const digest = (algorithm: string, data: Buffer) => createHash(algorithm).update(data).digest('hex');

/** Go's RFC 1123 date of a UTC time, as Forgejo writes it ("Mon, 02 Jan 2006 15:04:05 UTC"). */
function rfc1123(date: Date): string {
  return date.toUTCString().replace(/GMT$/, 'UTC');
}

export function releaseClassic({ appName, arch, now }: ReleaseInput): Buffer {
  return Buffer.from(
    [
      `Archive: ${appName}`,
      `Component: ${COMPONENT}`,
      `Version: ${Math.floor(now.getTime() / 1000)}`,
      `Origin: ${appName}`,
      `Label: ${appName}`,
      `Architecture: ${arch}`,
      'NotAutomatic: false',
      '',
    ].join('\n'),
  );
}

/** The release naming these files of base/ (the pkglists and release.classic). */
export function release({ appName, arch, now }: ReleaseInput, files: readonly BaseFile[]): Buffer {
  const sums = (algorithm: string) =>
    files.map((file) => ` ${digest(algorithm, file.data)} ${file.data.length} base/${file.name}\n`).join('');
  return Buffer.from(
    [
      `Origin: ${appName}`,
      `Label: ${appName}`,
      'Suite: Unknown',
      `Codename: ${Math.floor(now.getTime() / 1000)}`,
      `Date: ${rfc1123(now)}`,
      `Architectures: ${arch}`,
      'MD5Sum:',
      `${sums('md5')}BLAKE2b:`,
      `${sums('blake2b512')}`,
      '',
      '',
    ].join('\n'),
  );
}
