import type { DatabaseHealthRepository } from '../db/database-health.repository.ts';
import type { UserRepository } from '../db/user.repository.ts';
import type { ServiceDeps } from './service-deps.ts';

export class SystemService {
  private readonly health: DatabaseHealthRepository;
  private readonly users: UserRepository;

  constructor(deps: ServiceDeps) {
    this.health = deps.repos.health;
    this.users = deps.repos.users;
  }

  /** How many users and organizations there are. */
  accountCount(): Promise<number> {
    return this.users.countAll();
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
