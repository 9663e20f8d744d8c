// Counts for the admin lists' X-Total-Count, kept until the database changes. Counting 10,000 users walks 10,000
// index entries, about a fifth of a list page's cost. SQLite's `PRAGMA data_version` changes whenever another
// connection (Prisma's, another process's) commits, so each read first asks it whether a kept count may still be
// used. The connection this runs on must not itself write to what it counts: its own commits do not change the
// version.
import type BetterSqlite3 from 'better-sqlite3';

/** Distinct filters kept at once; more are rare (an admin searching login names) and simply counted again. */
const MAX_KEPT = 64;

export class SqliteCounts {
  private readonly dataVersion: BetterSqlite3.Statement;
  private readonly kept = new Map<string, number>();
  private keptAt: unknown = undefined;

  constructor(db: BetterSqlite3.Database) {
    this.dataVersion = db.prepare('PRAGMA data_version').pluck();
  }

  /** The single number `statement` selects for `values`, counted again only when the database changed since. */
  count(statement: BetterSqlite3.Statement, values: unknown[]): number {
    const version = this.dataVersion.get();
    if (version !== this.keptAt) {
      this.kept.clear();
      this.keptAt = version;
    }
    const key = `${statement.source}\0${JSON.stringify(values)}`;
    let total = this.kept.get(key);
    if (total === undefined) {
      total = statement.pluck().get(...values) as number;
      if (this.kept.size >= MAX_KEPT) this.kept.clear();
      this.kept.set(key, total);
    }
    return total;
  }
}
