// Answers about git objects named by their full id never change (a commit's tree, a path's entry in it, a blob's
// bytes), so a process keeps the recent ones instead of starting git again: under bot traffic a file-contents GET
// started four git processes and a commit-status POST four, and process starts were the server's top CPU cost.
// Keys carry the repository directory and its identity (inode and birth time), so a repository deleted and made
// again under the same name never answers from the old one's objects. Only found answers are kept: an object
// missing now may arrive with the next push.
import fs from 'node:fs';
import { LRUCache } from 'lru-cache';

const MAX_BYTES = 32 * 1024 * 1024;

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

type Answer = { value: unknown; bytes: number };

const answers = new LRUCache<string, Answer>({
  maxSize: MAX_BYTES,
  sizeCalculation: (answer, key) => answer.bytes + key.length + 64,
});

/** Whether `id` is a full object id (40 hex for SHA-1, 64 for SHA-256): what an immutable answer is keyed on. */
export function isFullObjectId(id: string): boolean {
  return FULL_ID.test(id);
}

function repositoryIdentity(dir: string): string | null {
  try {
    const stat = fs.statSync(dir, { bigint: true });
    return `${stat.ino}:${stat.birthtimeNs || stat.ctimeNs}`;
  } catch {
    return null;
  }
}

/**
 * The answer of `compute` for an immutable question about repository `dir`, from memory when asked before; null
 * answers are not kept, nor those over `maxBytes`. `bytes` sizes an answer for the memory bound.
 */
export async function immutableAnswer<T>(
  dir: string,
  question: string,
  compute: () => Promise<T | null>,
  bytes: (value: T) => number = () => 64,
  maxBytes = MAX_BYTES / 16,
): Promise<T | null> {
  const identity = repositoryIdentity(dir);
  if (identity === null) return compute();
  const key = `${dir}\0${identity}\0${question}`;
  const known = answers.get(key);
  if (known) return known.value as T;
  const value = await compute();
  if (value === null) return value;
  const size = Math.max(1, Math.ceil(bytes(value)));
  if (size <= maxBytes) answers.set(key, { value, bytes: size });
  return value;
}
