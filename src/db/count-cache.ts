// Counts for the lists' X-Total-Count, kept until the database changes: counting 100,000 visible rows costs more
// than the page itself (small counts are made afresh: SMALL_COUNT). `version` answers a value that changes whenever
// anything was committed since (SQLite's `PRAGMA data_version` of a connection that does not write what is counted;
// PostgreSQL's WAL insert position). The version is read before counting, so a commit racing the count only makes
// the next read count again.

/** Distinct filters kept at once; more are simply counted again. */
const MAX_KEPT = 256;
/**
 * A filter whose last count was below this is counted afresh, without reading the version first: on PostgreSQL that
 * read is a round trip as long as such a count, and while anything writes (each commit moves the WAL) it only ever
 * adds one, as a notification poll between comments does.
 */
const SMALL_COUNT = 1000;
/** Small filters remembered at once (a user's notification filters, say); past it they start over. */
const MAX_SMALL = 10_000;

export class CountCache {
  private readonly kept = new Map<string, number>();
  private keptAt: unknown = undefined;
  private readonly small = new Set<string>();

  constructor(private readonly version: () => Promise<unknown>) {}

  /** The count `key` names, from `counter` only when the database changed since it was last counted. */
  async count(key: string, counter: () => Promise<number>): Promise<number> {
    if (this.small.has(key)) {
      const total = await counter();
      if (total >= SMALL_COUNT) this.small.delete(key);
      return total;
    }
    const version = await this.version();
    if (version !== this.keptAt) {
      this.kept.clear();
      this.keptAt = version;
    }
    let total = this.kept.get(key);
    if (total === undefined) {
      total = await counter();
      if (total < SMALL_COUNT) {
        if (this.small.size >= MAX_SMALL) this.small.clear();
        this.small.add(key);
      } else if (this.keptAt === version) {
        // Another count may have seen a newer version meanwhile; keep only what belongs to the current one.
        if (this.kept.size >= MAX_KEPT) this.kept.clear();
        this.kept.set(key, total);
      }
    }
    return total;
  }
}

/**
 * A count through `cache`, keyed by what is counted; counted afresh inside a transaction (`client` without
 * $transaction), whose own uncommitted writes belong to no version.
 */
export function keptCount(
  client: object,
  cache: CountCache | undefined,
  key: string,
  counter: () => Promise<number>,
): Promise<number> {
  return cache && '$transaction' in client ? cache.count(key, counter) : counter();
}
