// What the registries keep in memory between requests: a value (an index document, an owner's catalog) per key,
// with the revision of the rows it was built from (Package.revision, or a stamp over several packages). A request
// reads the revision (one small query) and gets the kept value while it is current, else the value is built again
// from rows read after the revision was (so a change between the two only makes it newer than its revision says).
// Concurrent requests for a missing value share one build. Every process keeps its own and asks the database, so
// processes sharing one never serve a stale value.
import { LRUCache } from 'lru-cache';

/** What a value was built at: a package's revision, or a stamp of several packages' revisions. */
export type Revision = number | string;

interface Kept<T> {
  revision: Revision;
  value: Promise<T>;
}

export interface RevisionCacheOptions<T> {
  /** The bound on the kept values' total size (a value over a quarter of it is not kept)… */
  maxSize: number;
  /** …with the size of one; without it each counts 1, and maxSize is a number of values. */
  sizeOf?: (value: T) => number;
}

/** The size a value is counted at while it is being built. */
const BUILDING = 1;

export class RevisionCache<T> {
  private readonly kept: LRUCache<string, Kept<T>>;

  constructor(private readonly options: RevisionCacheOptions<T>) {
    this.kept = new LRUCache<string, Kept<T>>({ maxSize: options.maxSize });
  }

  /** The value of the key at this revision: the kept one, or one built now (and kept, unless it fails). */
  get(key: string, revision: Revision, build: () => Promise<T>): Promise<T> {
    const found = this.kept.get(key);
    if (found?.revision === revision) return found.value;
    const entry: Kept<T> = { revision, value: build() };
    this.kept.set(key, entry, { size: BUILDING });
    entry.value.then(
      (value) => this.settle(key, entry, this.options.sizeOf?.(value) ?? BUILDING),
      () => this.settle(key, entry, Infinity),
    );
    return entry.value;
  }

  /** Counts a built value at its size, or drops it: failed, or too large to keep. */
  private settle(key: string, entry: Kept<T>, size: number): void {
    if (this.kept.peek(key) !== entry) return;
    if (size > Math.max(this.options.maxSize / 4, BUILDING)) this.kept.delete(key);
    // A new entry object: lru-cache recounts the size only when the value it holds changes.
    else this.kept.set(key, { ...entry }, { size });
  }
}
