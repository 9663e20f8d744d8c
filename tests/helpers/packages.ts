// Helpers for the package tests: uploads through the generic registry, the files on disk, teams with a
// packages unit.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from './test-app.ts';

export function genericUrl(owner: string, name: string, version: string, fileName?: string): string {
  return `/api/packages/${owner}/generic/${name}/${version}${fileName === undefined ? '' : `/${fileName}`}`;
}

export function upload(
  t: TestApp,
  auth: string,
  owner: string,
  name: string,
  version: string,
  fileName: string,
  bytes: Buffer = randomBytes(1024),
) {
  return t
    .request()
    .put(genericUrl(owner, name, version, fileName))
    .set('Authorization', auth)
    .set('Content-Type', 'application/octet-stream')
    .send(bytes);
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function digestsOf(bytes: Buffer) {
  const hex = (algorithm: string) => createHash(algorithm).update(bytes).digest('hex');
  return { md5: hex('md5'), sha1: hex('sha1'), sha256: hex('sha256'), sha512: hex('sha512') };
}

/** Every file under a directory with its size and modification time, relative paths as keys. */
export function filesUnder(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  if (!fs.existsSync(dir)) return found;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = path.join(entry.parentPath, entry.name);
    const stat = fs.statSync(full);
    found.set(path.relative(dir, full), `${stat.size}:${stat.mtimeMs}`);
  }
  return found;
}

/** The package store of a test app. */
export function storeDir(t: TestApp): string {
  return t.context.settings.packages.PATH;
}

/** Blob files in the store (its temporary directory left out). */
export function blobFiles(t: TestApp): string[] {
  return [...filesUnder(storeDir(t)).keys()].filter((file) => !file.startsWith(`tmp${path.sep}`));
}
