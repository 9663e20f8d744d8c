// What git's ref advertisement of a bare repository is made of, as one fingerprint: HEAD, config, shallow,
// packed-refs and every loose ref, each file's identity (inode, size, change times) and, when small, its bytes. Equal
// fingerprints mean the same advertisement, so a process can answer it again instead of starting git
// (advertisement-cache.ts). Read synchronously: a few small files cost less than the thread-pool round trips.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const TOP_FILES = ['HEAD', 'config', 'shallow', 'packed-refs'];
/** Beyond this many loose refs the fingerprint is not worth reading: git answers. */
const MAX_LOOSE_REFS = 256;
/** Larger files are known by their identity alone (a rewrite renames a new file over them). */
const MAX_READ_BYTES = 64 * 1024;

/** The fingerprint, or null when it cannot be trusted: an update under way (a lock file), too many refs, no repository. */
export function refsState(dir: string): string | null {
  const hash = createHash('sha256');
  const add = (name: string): boolean => {
    let stat: fs.BigIntStats;
    try {
      stat = fs.statSync(path.join(dir, name), { bigint: true });
    } catch {
      hash.update(`${name}\0absent\0`);
      return true;
    }
    if (!stat.isFile()) return false;
    hash.update(`${name}\0${stat.ino}\0${stat.size}\0${stat.mtimeNs}\0${stat.ctimeNs}\0`);
    if (stat.size > MAX_READ_BYTES) return true;
    try {
      hash.update(fs.readFileSync(path.join(dir, name)));
      return true;
    } catch {
      // Gone since its stat (a ref deleted or packed meanwhile): the refs are moving, so git answers.
      return false;
    }
  };
  let loose: fs.Dirent[];
  try {
    // The directory's own identity: a repository deleted and made again under the same name is another one.
    const root = fs.statSync(dir, { bigint: true });
    hash.update(`${root.ino}\0${root.birthtimeNs || root.ctimeNs}\0`);
    loose = fs.readdirSync(path.join(dir, 'refs'), { recursive: true, withFileTypes: true });
  } catch {
    return null;
  }
  const files = loose.filter((entry) => !entry.isDirectory());
  if (files.length > MAX_LOOSE_REFS) return null;
  const names = files.map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name))).sort();
  for (const name of [...TOP_FILES, ...names]) {
    if (name.endsWith('.lock') || !add(name)) return null;
  }
  if (fs.existsSync(path.join(dir, 'HEAD.lock')) || fs.existsSync(path.join(dir, 'packed-refs.lock'))) return null;
  return hash.digest('hex');
}
