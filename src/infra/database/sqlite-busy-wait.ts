// better-sqlite3 runs a statement synchronously, so SQLite's own busy handler — which sleeps until another
// connection's write lock is released — stops the whole process while it waits: no request is served, and a
// transaction of this process that holds the lock cannot finish, so the wait runs to its timeout. Here the
// connection's own busy timeout is zero and a statement refused as busy is tried again after a timer, as SQLite
// would, while the event loop goes on.
import type { SqlDriverAdapter, SqlQuery, Transaction } from '@prisma/driver-adapter-utils';
import { setTimeout as sleep } from 'node:timers/promises';

/** SQLite's own busy handler's delays between tries, in milliseconds; the last repeats. */
const DELAYS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/**
 * Refusals that a later try can get past: the lock is held (SQLITE_BUSY) or the WAL index is being rebuilt. Not
 * SQLITE_BUSY_SNAPSHOT: a transaction that read before another committed can never write; only starting over helps.
 */
const RETRIED = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY']);

function isBusy(error: unknown): boolean {
  const cause = (error as { cause?: { originalCode?: unknown } } | null)?.cause;
  return typeof cause?.originalCode === 'string' && RETRIED.has(cause.originalCode);
}

/** Runs `run` until it is not refused as busy, or until `timeoutMs` have passed (then its refusal is thrown). */
async function whileBusy<T>(run: () => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let tries = 0; ; tries++) {
    try {
      return await run();
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
    }
    await sleep(Math.min(DELAYS[Math.min(tries, DELAYS.length - 1)], Math.max(0, deadline - Date.now())));
  }
}

type Queries = Pick<SqlDriverAdapter, 'queryRaw' | 'executeRaw'>;

function waitInstead<Q extends Queries>(queries: Q, timeoutMs: number): Q {
  const queryRaw = queries.queryRaw.bind(queries);
  const executeRaw = queries.executeRaw.bind(queries);
  queries.queryRaw = (query: SqlQuery) => whileBusy(() => queryRaw(query), timeoutMs);
  queries.executeRaw = (query: SqlQuery) => whileBusy(() => executeRaw(query), timeoutMs);
  return queries;
}

/**
 * Makes `adapter` (whose connection's busy timeout is zero) wait for locks on timers, up to `timeoutMs` per statement,
 * in its transactions too. Applied over the transaction gate, so a statement tried again is gated again.
 */
export function waitForLocksOnTimers(adapter: SqlDriverAdapter, timeoutMs: number): SqlDriverAdapter {
  waitInstead(adapter, timeoutMs);
  const startTransaction = adapter.startTransaction.bind(adapter);
  adapter.startTransaction = async (isolationLevel) =>
    waitInstead<Transaction>(await startTransaction(isolationLevel), timeoutMs);
  return adapter;
}
