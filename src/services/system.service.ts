import type { HotQueries } from '../db/hot-queries.ts';
import type { ServiceDeps } from './service-deps.ts';

export class SystemService {
  private readonly hot: HotQueries;

  constructor(deps: ServiceDeps) {
    this.hot = deps.db.hot;
  }

  /** Whether the database answers a trivial query. */
  async databaseHealthy(): Promise<boolean> {
    try {
      await this.hot.ping();
      return true;
    } catch {
      return false;
    }
  }
}
