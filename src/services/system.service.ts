import type { DatabaseHealthRepository } from '../db/database-health.repository.ts';
import type { SiteStatistics, SiteStatisticsRepository } from '../db/site-usage.repository.ts';
import type { UserRepository } from '../db/user.repository.ts';
import type { ServiceDeps } from './service-deps.ts';

const STATISTICS_TTL_MS = 5_000;

export class SystemService {
  private readonly health: DatabaseHealthRepository;
  private readonly users: UserRepository;
  private readonly statisticsRepo: SiteStatisticsRepository;
  private cached: { at: number; value: Promise<SiteStatistics> } | null = null;

  constructor(deps: ServiceDeps) {
    this.health = deps.repos.health;
    this.users = deps.repos.users;
    this.statisticsRepo = deps.repos.siteStatistics;
  }

  /** Forgejo's site statistics, counted at most once per STATISTICS_TTL_MS however often they are scraped. */
  statistics(): Promise<SiteStatistics> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > STATISTICS_TTL_MS) {
      const value = this.statisticsRepo.count();
      this.cached = { at: now, value };
      value.catch(() => (this.cached = null));
    }
    return this.cached.value;
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
