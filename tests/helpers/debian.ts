// Builds .deb packages with the system's dpkg-deb for the Debian registry's tests.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface DebOptions {
  name: string;
  version?: string;
  architecture?: string;
  /** dpkg-deb's -Z: xz (its default here), gzip, zstd or none. */
  compression?: 'xz' | 'gzip' | 'zstd' | 'none';
  /** More control fields, one per line. */
  control?: string;
  /** A file installed by the package, so two packages differ in content. */
  payload?: string;
}

export function buildDeb(options: DebOptions): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-deb-'));
  try {
    const root = path.join(dir, 'root');
    fs.mkdirSync(path.join(root, 'DEBIAN'), { recursive: true });
    fs.mkdirSync(path.join(root, 'usr/share', options.name), { recursive: true });
    fs.writeFileSync(path.join(root, 'usr/share', options.name, 'README'), options.payload ?? `${options.name}\n`);
    const control = [
      `Package: ${options.name}`,
      `Version: ${options.version ?? '1.0.0'}`,
      `Architecture: ${options.architecture ?? 'all'}`,
      'Maintainer: Anvil Tests <tests@example.com>',
      `Description: ${options.name} for tests`,
      ' A package built by the test suite.',
      ...(options.control ? [options.control] : []),
    ].join('\n');
    fs.writeFileSync(path.join(root, 'DEBIAN/control'), `${control}\n`);
    // dpkg-deb wants 0755 directories whatever the umask the test runs under.
    for (const dir of ['', 'DEBIAN', 'usr', 'usr/share', `usr/share/${options.name}`])
      fs.chmodSync(path.join(root, dir), 0o755);
    const out = path.join(dir, 'package.deb');
    execFileSync('dpkg-deb', ['--root-owner-group', `-Z${options.compression ?? 'xz'}`, '--build', root, out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** An ar archive of the given members, as a .deb is (for malformed packages). */
export function arArchive(members: { name: string; data: Buffer }[]): Buffer {
  const parts: Buffer[] = [Buffer.from('!<arch>\n', 'latin1')];
  for (const member of members) {
    const header =
      member.name.padEnd(16) +
      '0'.padEnd(12) +
      '0'.padEnd(6) +
      '0'.padEnd(6) +
      '100644'.padEnd(8) +
      String(member.data.length).padEnd(10) +
      '`\n';
    parts.push(Buffer.from(header, 'latin1'), member.data);
    if (member.data.length % 2 === 1) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}
