// A bare repository's branches and HEAD read from its files (loose refs, packed-refs, HEAD) instead of running git:
// asked after every creation, push and refresh, where a process start costs more than the answer.
import fs from 'node:fs/promises';
import path from 'node:path';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

async function readText(file: string): Promise<string | null> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return null;
  }
}

/** Whether a loose ref file holds a ref git would list (an object id or a symbolic ref), not a broken one. */
function isRefContent(content: string): boolean {
  const value = content.trim();
  return OBJECT_ID.test(value) || value.startsWith('ref: ');
}

async function looseBranches(dir: string): Promise<string[]> {
  const root = path.join(dir, 'refs', 'heads');
  let entries: string[];
  try {
    entries = (await fs.readdir(root, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isFile() && !entry.name.endsWith('.lock'))
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
  } catch {
    return [];
  }
  const contents = await Promise.all(entries.map((name) => readText(path.join(root, name))));
  return entries.filter((_, index) => contents[index] !== null && isRefContent(contents[index]!));
}

async function packedBranches(dir: string): Promise<string[]> {
  const packed = await readText(path.join(dir, 'packed-refs'));
  if (!packed) return [];
  const branches: string[] = [];
  for (const line of packed.split('\n')) {
    const match = /^[0-9a-f]+ refs\/heads\/(.+)$/.exec(line);
    if (match) branches.push(match[1]);
  }
  return branches;
}

/** Branch names (without refs/heads/), sorted as `git for-each-ref` sorts them (byte order). */
export async function readBranches(dir: string): Promise<string[]> {
  const [loose, packed] = await Promise.all([looseBranches(dir), packedBranches(dir)]);
  return [...new Set([...loose, ...packed])].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** The branch HEAD names (`ref: refs/heads/<name>`), or null when HEAD is detached or unreadable. */
export async function readHeadBranch(dir: string): Promise<string | null> {
  const head = (await readText(path.join(dir, 'HEAD')))?.trim() ?? '';
  return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) || null : null;
}
