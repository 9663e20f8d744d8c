// Counts for the lists' X-Total-Count, kept until the database changes: counting 100,000 visible rows costs more
// than the page itself. `version` answers a value that changes whenever anything was committed since (SQLite's
// `PRAGMA data_version` of a connection that does not write what is counted; PostgreSQL's WAL insert position).
// The version is read before counting, so a commit racing the count only makes the next read count again.

/** Distinct filters kept at once; more are simply counted again. */
const MAX_KEPT = 256;

export class CountCache {
  private readonly kept = new Map<string, number>();
  private keptAt: unknown = undefined;

  constructor(private readonly version: () => Promise<unknown>) {}

  /** The count `key` names, from `counter` only when the database changed since it was last counted. */
  async count(key: string, counter: () => Promise<number>): Promise<number> {
    const version = await this.version();
    if (version !== this.keptAt) {
      this.kept.clear();
      this.keptAt = version;
    }
    let total = this.kept.get(key);
    if (total === undefined) {
      total = await counter();
      // Another count may have seen a newer version meanwhile; keep only what belongs to the current one.
      if (this.keptAt === version) {
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
