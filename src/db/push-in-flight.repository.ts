// Writes into git that have begun and not yet been brought into the repository's row: what a stop cut off is what
// is left here at the next start.
import type { DbClient } from './prisma.ts';

export class PushInFlightRepository {
  constructor(private readonly client: DbClient) {}

  /** Records a write about to begin; the id to remove once its row is refreshed. */
  async begin(repoId: number): Promise<number> {
    const { id } = await this.client.pushInFlight.create({ data: { repoId }, select: { id: true } });
    return id;
  }

  /** Writes that began before `before`, after `afterId`, `take` at a time in id order, with where they went. */
  listBegunBefore(before: Date, afterId: number, take: number) {
    return this.client.pushInFlight.findMany({
      where: { id: { gt: afterId }, startedAt: { lt: before } },
      orderBy: { id: 'asc' },
      take,
    });
  }

  /** Removes these writes' records: their rows are up to date. */
  async end(ids: readonly number[]): Promise<void> {
    await this.client.pushInFlight.deleteMany({ where: { id: { in: [...ids] } } });
  }
}
