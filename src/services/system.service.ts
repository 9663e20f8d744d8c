import type { ServiceDeps } from './index.ts';

export class SystemService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Whether the database answers a trivial query. */
  async databaseHealthy(): Promise<boolean> {
    try {
      await this.deps.db.prisma.$queryRawUnsafe('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}
