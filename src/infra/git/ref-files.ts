// A bare repository's branches and HEAD read from its files (loose refs, packed-refs, HEAD) instead of running git:
// asked after every creation, push and refresh, where a process start costs more than the answer.
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/** A ref file's text, read synchronously: a few bytes cost less than readFile's four thread-pool round trips. */
async function readText(file: string): Promise<string | null> {
  try {
    return fsSync.readFileSync(file, 'utf8');
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

/** Ref names read here as files: plain characters, no `..`, no component starting with a dot, no lock files. */
function isPlainRef(ref: string): boolean {
  return (
    /^refs\/(heads|tags)\/[A-Za-z0-9_-][A-Za-z0-9._/-]*$/.test(ref) && !/\.\.|\/\.|\/\/|\/$|\.lock(\/|$)|\.$/.test(ref)
  );
}

/**
 * The object id a branch or tag ref holds, read from its loose file or packed-refs: 'absent' when there is no such
 * ref, 'unknown' when only git can tell (a symbolic ref, an unusual name, an unreadable repository).
 */
export async function readRefId(dir: string, ref: string): Promise<{ id: string } | 'absent' | 'unknown'> {
  if (!isPlainRef(ref)) return 'unknown';
  const loose = (await readText(path.join(dir, ...ref.split('/'))))?.trim();
  if (loose !== undefined) return OBJECT_ID.test(loose) ? { id: loose } : 'unknown';
  const packed = await readText(path.join(dir, 'packed-refs'));
  if (packed === null) return (await readText(path.join(dir, 'HEAD'))) === null ? 'unknown' : 'absent';
  for (const line of packed.split('\n')) {
    const space = line.indexOf(' ');
    if (space > 0 && line.slice(space + 1) === ref && OBJECT_ID.test(line.slice(0, space)))
      return { id: line.slice(0, space) };
  }
  return 'absent';
}
