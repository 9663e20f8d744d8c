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

/** The part of a better-sqlite3 statement the adapter uses: `prepare(sql).bind(args)`, then read or run it. */
export interface AdapterStatement {
  readonly reader: boolean;
  bind(args: unknown[]): AdapterStatement;
  columns(): BetterSqlite3.ColumnDefinition[];
  raw(): AdapterStatement;
  all(): unknown[];
  run(): BetterSqlite3.RunResult;
}

/** The part of a better-sqlite3 connection the adapter uses. */
export interface AdapterConnection {
  prepare(sql: string): AdapterStatement;
  exec(sql: string): unknown;
  close(): unknown;
}

interface Prepared {
  statement: BetterSqlite3.Statement;
  columns: BetterSqlite3.ColumnDefinition[];
}

export class CachedStatements implements AdapterConnection {
  private readonly statements = new LRUCache<string, Prepared>({ max: STATEMENTS });

  constructor(private readonly db: BetterSqlite3.Database) {}

  prepare(sql: string): AdapterStatement {
    return new UnboundStatement(this, sql);
  }

  exec(sql: string): unknown {
    return this.db.exec(sql);
  }

  close(): unknown {
    this.statements.clear();
    return this.db.close();
  }

  /** The statement for `sql` with `args`, a trailing `LIMIT ?` written as its value. */
  bound(sql: string, args: unknown[]): BoundStatement {
    const [text, values] = literalLimit(sql, args);
    return new BoundStatement(this.prepared(text), values);
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

class UnboundStatement implements AdapterStatement {
  constructor(
    private readonly connection: CachedStatements,
    private readonly sql: string,
  ) {}

  private get withoutArgs(): BoundStatement {
    return this.connection.bound(this.sql, []);
  }

  get reader(): boolean {
    return this.withoutArgs.reader;
  }

  bind(args: unknown[]): AdapterStatement {
    return this.connection.bound(this.sql, args);
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    return this.withoutArgs.columns();
  }

  raw(): AdapterStatement {
    return this.withoutArgs;
  }

  all(): unknown[] {
    return this.withoutArgs.all();
  }

  run(): BetterSqlite3.RunResult {
    return this.withoutArgs.run();
  }
}

class BoundStatement implements AdapterStatement {
  constructor(
    private readonly prepared: Prepared,
    private readonly args: unknown[],
  ) {}

  get reader(): boolean {
    return this.prepared.statement.reader;
  }

  bind(): AdapterStatement {
    throw new TypeError('The bind() method can only be invoked once per statement object');
  }

  columns(): BetterSqlite3.ColumnDefinition[] {
    return this.prepared.columns;
  }

  raw(): AdapterStatement {
    return this;
  }

  all(): unknown[] {
    return this.prepared.statement.all(this.args);
  }

  run(): BetterSqlite3.RunResult {
    return this.prepared.statement.run(this.args);
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
