// The key stored credentials are encrypted under: derived from `[security] SECRET_KEY`, or, when that is empty,
// from a random key generated into the data directory on first start (mode 0600) and read on every later start,
// so a restart, or another process on the same data directory, can still decrypt.
import { hkdfSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const GENERATED_KEY_FILE = 'secret.key';

export type AtRestKeySource = { kind: 'setting' } | { kind: 'file'; file: string; created: boolean };

/** One 32-byte key from any secret text, so the key is uniform whatever SECRET_KEY looks like. */
function derive(material: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', material, 'anvil', 'anvil at-rest encryption v1', 32));
}

/**
 * The key file's contents. A new key is written to a file of its own and linked into place, which fails when the
 * name exists: concurrent first starts agree on one key, and no reader ever sees a half-written file.
 */
function readOrCreateKeyFile(file: string): { material: Buffer; created: boolean } {
  let created = false;
  if (!fs.existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    fs.writeFileSync(draft, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
    try {
      fs.linkSync(draft, file);
      created = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  const material = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (material.length < 32)
    throw new Error(
      `${file} does not hold a key (32 bytes in base64); restore it from a backup (removing it makes a new key, and values stored under the old one become unreadable)`,
    );
  return { material, created };
}

export function loadAtRestKey(secretKey: string, dataDir: string): { key: Buffer; source: AtRestKeySource } {
  if (secretKey !== '') return { key: derive(Buffer.from(secretKey, 'utf8')), source: { kind: 'setting' } };
  const file = path.join(dataDir, GENERATED_KEY_FILE);
  const { material, created } = readOrCreateKeyFile(file);
  return { key: derive(material), source: { kind: 'file', file, created } };
}
