// Prisma's SQLite adapter runs every query on its one connection and keeps transactions apart from each other only.
// A query made outside a transaction while one is open ran inside it: it read the transaction's uncommitted rows, and
// its writes — already acknowledged to their caller — vanished when that transaction rolled back. Here a query from
// outside waits until the open transaction has ended; transactions take turns with such queries, first come first.
import type { SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';

class Turnstile {
  private held = false;
  private waiting: Array<() => void> = [];

  get busy(): boolean {
    return this.held;
  }

  /** Resolves once no transaction is open (at once when none is). */
  async free(): Promise<void> {
    while (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  async take(): Promise<void> {
    await this.free();
    this.held = true;
  }

  release(): void {
    this.held = false;
    const waiting = this.waiting;
    this.waiting = [];
    for (const wake of waiting) wake();
  }
}

/** Makes `adapter`'s queries outside a transaction wait for the open one to end (the adapter is changed in place). */
export function gateTransactions(adapter: SqlDriverAdapter): SqlDriverAdapter {
  const turnstile = new Turnstile();
  const queryRaw = adapter.queryRaw.bind(adapter);
  const executeRaw = adapter.executeRaw.bind(adapter);
  const startTransaction = adapter.startTransaction.bind(adapter);
  // A query runs synchronously once started: checking before it is enough.
  adapter.queryRaw = (query: SqlQuery) =>
    turnstile.busy ? turnstile.free().then(() => adapter.queryRaw(query)) : queryRaw(query);
  adapter.executeRaw = (query: SqlQuery) =>
    turnstile.busy ? turnstile.free().then(() => adapter.executeRaw(query)) : executeRaw(query);
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
  return adapter;
}
