// The database's own liveness, for the health endpoint.
import type { DbClient } from './prisma.ts';

export class HealthRepository {
  constructor(private readonly client: DbClient) {}

  /** Runs a trivial query; rejects when the database does not answer. */
  async ping(): Promise<void> {
    await this.client.$queryRawUnsafe('SELECT 1');
  }
}
