// Bytes taken by a repository's objects, as `git count-objects -v` counts them (its `size` and `size-pack`, each in
// whole KiB), read from the object directory instead of running git.
import fs from 'node:fs/promises';
import path from 'node:path';

const FAN_OUT = /^[0-9a-f]{2}$/;
const LOOSE_NAME = /^(?:[0-9a-f]{38}|[0-9a-f]{62})$/;

async function listDir(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch {
    return [];
  }
}

/** Loose objects by the blocks they take on disk, as git does where st_blocks exists. */
async function looseBytes(objects: string): Promise<number> {
  let total = 0;
  for (const fanOut of (await listDir(objects)).filter((name) => FAN_OUT.test(name))) {
    const names = (await listDir(path.join(objects, fanOut))).filter((name) => LOOSE_NAME.test(name));
    const stats = await Promise.all(names.map((name) => fs.stat(path.join(objects, fanOut, name)).catch(() => null)));
    for (const stat of stats) if (stat) total += stat.blocks * 512;
  }
  return total;
}

/** Packs that have their index, by the size of the pack and of the index. */
async function packBytes(objects: string): Promise<number> {
  const pack = path.join(objects, 'pack');
  const names = await listDir(pack);
  let total = 0;
  for (const name of names.filter((entry) => entry.endsWith('.pack'))) {
    const index = `${name.slice(0, -'.pack'.length)}.idx`;
    if (!names.includes(index)) continue;
    const [packStat, indexStat] = await Promise.all([fs.stat(path.join(pack, name)), fs.stat(path.join(pack, index))]);
    total += packStat.size + indexStat.size;
  }
  return total;
}

export async function repositorySize(dir: string): Promise<number> {
  const objects = path.join(dir, 'objects');
  const [loose, packed] = await Promise.all([looseBytes(objects), packBytes(objects)]);
  return (Math.floor(loose / 1024) + Math.floor(packed / 1024)) * 1024;
}
