// upload-pack's answers that the refs and the request decide — the info/refs advertisement (protocol v0's refs,
// v2's capabilities), protocol v2's ls-refs and a small fetch — kept per repository, request and refs fingerprint
// (refs-state.ts). Under bot traffic every `git ls-remote` and fetch started upload-pack for it, and a process start
// held the event loop 3–5 ms.
import { LRUCache } from 'lru-cache';
import { refsState } from './refs-state.ts';

const MAX_BYTES = 8 * 1024 * 1024;
/** Larger answers (repositories with very many refs) are not kept. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

const answers = new LRUCache<string, Buffer>({
  maxSize: MAX_BYTES,
  sizeCalculation: (answer, key) => answer.length + key.length + 64,
});

export interface RefsAnswer {
  /** The answer given before for these refs, or null. */
  readonly known: Buffer | null;
  /** Keeps git's fresh answer, unless the refs changed while git ran. */
  keep(output: Buffer): void;
}

/** The kept answer to `question` about the repository's refs as they are now; null when they cannot be fingerprinted. */
export function refsAnswer(dir: string, question: string): RefsAnswer | null {
  const state = refsState(dir);
  if (!state) return null;
  const key = `${dir}\0${question}\0${state}`;
  return {
    known: answers.get(key) ?? null,
    keep(output) {
      if (output.length <= MAX_ANSWER_BYTES && refsState(dir) === state) answers.set(key, output);
    },
  };
}
