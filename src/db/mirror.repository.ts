// Pull mirrors: one Mirror row per mirrored repository, with its sync schedule.
import type { DbClient } from './prisma.ts';

export class MirrorRepository {
  constructor(private readonly client: DbClient) {}

  listByRepoIds(repoIds: readonly number[]) {
    return this.client.mirror.findMany({ where: { repoId: { in: [...repoIds] } } });
  }

  setInterval(repoId: number, intervalSecs: number, nextUpdateAt: Date) {
    return this.client.mirror.update({ where: { repoId }, data: { intervalSecs, nextUpdateAt } });
  }

  /** The next sync time, and the last sync time when one succeeded. */
  schedule(repoId: number, nextUpdateAt: Date, syncedAt?: Date) {
    return this.client.mirror.update({
      where: { repoId },
      data: syncedAt ? { updatedAt: syncedAt, nextUpdateAt } : { nextUpdateAt },
    });
  }
}
