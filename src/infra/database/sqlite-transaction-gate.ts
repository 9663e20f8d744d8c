// Prisma's SQLite adapter runs every query on its one connection and keeps transactions apart from each other only.
// A query made outside a transaction while one is open ran inside it: it read the transaction's uncommitted rows, and
// its writes — already acknowledged to their caller — vanished when that transaction rolled back. Here, while a
// transaction is open, a read from outside runs on a second connection, which sees committed rows only, and a write
// from outside waits until the transaction has ended (transactions and such writes take turns, first come first).
import type { SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

/** Who holds the connection: one transaction at a time, and queries in between, in the order they came. */
class Turnstile {
  private held = false;
  private readonly waiting: Array<{ transaction: boolean; go: () => void }> = [];

  get busy(): boolean {
    return this.held;
  }

  /** Resolves when a query that came while a transaction was open may run; it must run as soon as it is resolved. */
  turn(): Promise<void> {
    return new Promise<void>((go) => this.waiting.push({ transaction: false, go }));
  }

  take(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise<void>((go) => this.waiting.push({ transaction: true, go }));
  }

  /**
   * Lets the queries that waited before the next transaction run, then hands the connection to that transaction:
   * resolved in this order, the queries run before it begins.
   */
  release(): void {
    this.held = false;
    for (let next = this.waiting.shift(); next; next = this.waiting.shift()) {
      if (next.transaction) this.held = true;
      next.go();
      if (next.transaction) return;
    }
  }
}

const READ = /^\s*SELECT\b/i;

/**
 * Keeps `adapter`'s queries outside a transaction out of the open one (the adapter is changed in place); `openReader`
 * opens the second connection, when first needed.
 */
export function gateTransactions(
  adapter: SqlDriverAdapter,
  openReader: () => Promise<SqlDriverAdapter>,
): SqlDriverAdapter {
  const turnstile = new Turnstile();
  let reader: Promise<SqlDriverAdapter> | undefined;
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  const dispose = adapter.dispose.bind(adapter);
  // A query runs synchronously once started: checking before it is enough.
  adapter.queryRaw = (query: SqlQuery) => {
    if (!turnstile.busy) return queryRaw(query);
    if (READ.test(query.sql)) return (reader ??= openReader()).then((connection) => connection.queryRaw(query));
    return turnstile.turn().then(() => queryRaw(query));
  };
  adapter.executeRaw = (query: SqlQuery) =>
    turnstile.busy ? turnstile.turn().then(() => executeRaw(query)) : executeRaw(query);
  adapter.startTransaction = async (isolationLevel) => {
    await turnstile.take();
    let transaction: Transaction;
    try {
      transaction = await startTransaction(isolationLevel);
    } catch (error) {
      turnstile.release();
      throw error;
    }
    // Prisma has run COMMIT or ROLLBACK on the transaction before it calls these.
    const commit = transaction.commit.bind(transaction);
    const rollback = transaction.rollback.bind(transaction);
    transaction.commit = () => commit().finally(() => turnstile.release());
    transaction.rollback = () => rollback().finally(() => turnstile.release());
    return transaction;
  };
  adapter.dispose = async () => {
    await dispose();
    await (await reader)?.dispose();
  };
  return adapter;
}
