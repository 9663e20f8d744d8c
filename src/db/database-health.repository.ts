// Whether the database answers, for the health check.
import type { HotQueries } from './hot-queries.ts';

export class DatabaseHealthRepository {
  constructor(private readonly hot: HotQueries) {}

  /** A trivial query: rejects when the database does not answer. */
  ping(): Promise<void> {
    return this.hot.ping();
  }
}
