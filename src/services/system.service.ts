import type { DatabaseHealthRepository } from '../db/database-health.repository.ts';
import type { ServiceDeps } from './service-deps.ts';

export class SystemService {
  private readonly health: DatabaseHealthRepository;

  constructor(deps: ServiceDeps) {
    this.health = deps.repos.health;
  }

  /** Whether the database answers a trivial query. */
  async databaseHealthy(): Promise<boolean> {
    try {
      await this.health.ping();
      return true;
    } catch {
      return false;
    }
  }
}
