// Walks a directory that a running server keeps changing. Entries that vanish between listing and reading are
// passed over, and inside a git repository references are read before objects: git writes objects before it
// moves a reference to them, so every reference copied names objects that are copied after it.
import fs from 'node:fs/promises';
import path from 'node:path';

export interface TreeEntry {
  /** Relative to the walked root, with forward slashes. */
  relative: string;
  absolute: string;
  kind: 'directory' | 'file';
}

/** Loose references before packed-refs (git packs references by writing packed-refs first), objects last. */
function rank(name: string): number {
  if (name === 'refs') return 0;
  if (name === 'packed-refs') return 1;
  if (name === 'objects') return 3;
  return 2;
}

function byGitOrder(a: string, b: string): number {
  return rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0);
}

async function listing(directory: string): Promise<string[]> {
  try {
    return (await fs.readdir(directory)).sort(byGitOrder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Directories and regular files below `root` (not root itself); `skip` leaves out an entry and all below it. */
export async function* walkTree(
  root: string,
  skip: (relative: string, kind: TreeEntry['kind']) => boolean,
  prefix = '',
): AsyncGenerator<TreeEntry> {
  for (const name of await listing(path.join(root, prefix))) {
    const relative = prefix ? `${prefix}/${name}` : name;
    const absolute = path.join(root, relative);
    let stats;
    try {
      stats = await fs.lstat(absolute);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    // Sockets, pipes and links are no part of what Anvil stores.
    const kind = stats.isDirectory() ? 'directory' : stats.isFile() ? 'file' : null;
    if (kind === null || skip(relative, kind)) continue;
    yield { relative, absolute, kind };
    if (kind === 'directory') yield* walkTree(root, skip, relative);
  }
}
