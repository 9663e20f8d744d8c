// Prisma's better-sqlite3 adapter prepares every statement again on every query and reads its column list each
// time: for a row as wide as User's that is ~55 µs to prepare and ~30 µs for the columns, on every query. Worse,
// SQLite built with STAT4 (as better-sqlite3 is) prepares a statement again whenever a `LIMIT ?` is bound, so even a
// kept statement would pay the prepare. This connection keeps statements by their SQL (a bounded LRU), keeps their
// columns, and writes a trailing `LIMIT ?` — every findUnique and findFirst has one — as the integer it is bound to.
import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';

/** Distinct SQL texts kept prepared; Prisma makes a few hundred shapes, a page size makes a shape of its own. */
const STATEMENTS = 1000;
const LIMIT_OFFSET = ' LIMIT ? OFFSET ?';
const LIMIT = ' LIMIT ?';

/** A statement bound to its arguments, as the adapter reads or runs it. */
interface AdapterStatement {
  readonly reader: boolean;
  columns(): BetterSqlite3.ColumnDefinition[];
  raw(): AdapterStatement;
  all(): unknown[];
  run(): BetterSqlite3.RunResult;
}

/** What the adapter does with `prepare(sql)`: binds its arguments, or runs it without any (BEGIN). */
interface AdapterText {
  bind(args: unknown[]): AdapterStatement;
  run(): BetterSqlite3.RunResult;
}

interface Prepared {
  statement: BetterSqlite3.Statement;
  columns: BetterSqlite3.ColumnDefinition[];
}

/** The part of a better-sqlite3 connection the adapter uses, with statements kept. */
export class CachedStatements {
  private readonly statements = new LRUCache<string, Prepared>({ max: STATEMENTS });

  constructor(private readonly db: BetterSqlite3.Database) {}

  prepare(sql: string): AdapterText {
    return { bind: (args) => this.bound(sql, args), run: () => this.bound(sql, []).run() };
  }

  exec(sql: string): unknown {
    return this.db.exec(sql);
  }

  close(): unknown {
    this.statements.clear();
    return this.db.close();
  }

  /** The statement for `sql` with `args`, a trailing `LIMIT ?` written as its value. */
  private bound(sql: string, args: unknown[]): AdapterStatement {
    const [text, values] = literalLimit(sql, args);
    const { statement, columns } = this.prepared(text);
    const bound: AdapterStatement = {
      reader: statement.reader,
      columns: () => columns,
      raw: () => bound,
      all: () => statement.all(values),
      run: () => statement.run(values),
    };
    return bound;
  }

  private prepared(sql: string): Prepared {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      const statement = this.db.prepare(sql);
      // The adapter reads rows as arrays (`raw()`); a statement that returns none cannot be raw.
      if (statement.reader) statement.raw(true);
      prepared = { statement, columns: statement.reader ? statement.columns() : [] };
      this.statements.set(sql, prepared);
    }
    return prepared;
  }
}

/** `sql` and `args` with a trailing `LIMIT ?` bound to an integer written into the text (placeholders are `?`, in order). */
export function literalLimit(sql: string, args: unknown[]): [string, unknown[]] {
  const withOffset = sql.endsWith(LIMIT_OFFSET);
  if (!withOffset && !sql.endsWith(LIMIT)) return [sql, args];
  const at = args.length - (withOffset ? 2 : 1);
  const limit = args[at];
  if (typeof limit !== 'bigint' && !Number.isSafeInteger(limit)) return [sql, args];
  // A `?` inside a quoted literal would shift the positions: only a text whose every `?` is a placeholder is rewritten.
  if (placeholders(sql) !== args.length) return [sql, args];
  const head = sql.slice(0, sql.length - (withOffset ? LIMIT_OFFSET : LIMIT).length);
  return [`${head} LIMIT ${String(limit)}${withOffset ? ' OFFSET ?' : ''}`, args.filter((_, index) => index !== at)];
}

const placeholderCounts = new LRUCache<string, number>({ max: STATEMENTS });

function placeholders(sql: string): number {
  let count = placeholderCounts.get(sql);
  if (count === undefined) placeholderCounts.set(sql, (count = sql.split('?').length - 1));
  return count;
}
