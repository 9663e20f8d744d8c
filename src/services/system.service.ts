import { HealthRepository } from '../db/health.repository.ts';
import type { ServiceDeps } from './index.ts';

export class SystemService {
  private readonly health: HealthRepository;

  constructor(deps: ServiceDeps) {
    this.health = new HealthRepository(deps.db.prisma);
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
