// CronTask rows: each task's schedule state and its lease (lockedBy/lockedUntil), shared by every process.
import { isUniqueViolation } from '../infra/database/errors.ts';
import type { DbClient, Models } from './prisma.ts';

/** The lease is free when nobody holds it or its holder let it expire. */
function leaseFree(now: Date) {
  return [{ lockedUntil: null }, { lockedUntil: { lt: now } }];
}

export class CronTaskRepository {
  constructor(private readonly client: DbClient) {}

  findByNames(names: string[]): Promise<Models.CronTaskModel[]> {
    return this.client.cronTask.findMany({ where: { name: { in: names } } });
  }

  /** Creates the row unless it exists; a concurrent creator winning the race is fine (not for use in a transaction). */
  async ensure(name: string, nextRunAt: Date | null): Promise<void> {
    try {
      await this.client.cronTask.upsert({ where: { name }, create: { name, nextRunAt }, update: {} });
    } catch (error) {
      // Another process created it at the same moment.
      if (!isUniqueViolation(error)) throw error;
    }
  }

  /** Sets nextRunAt of a row that has none. */
  async setMissingNextRun(name: string, nextRunAt: Date): Promise<void> {
    await this.client.cronTask.updateMany({ where: { name, nextRunAt: null }, data: { nextRunAt } });
  }

  /** Names of the tasks that are due at `now` and whose lease is free. */
  async dueNames(names: string[], now: Date): Promise<string[]> {
    const due = await this.client.cronTask.findMany({
      where: { name: { in: names }, nextRunAt: { lte: now }, OR: leaseFree(now) },
      select: { name: true },
    });
    return due.map((row) => row.name);
  }

  /**
   * Takes a free lease, counts the run and stamps its time in one conditional update; with `nextRunAt` only a
   * due task is taken and its next run moves there. Whether the lease was taken.
   */
  async acquireLease(name: string, holder: string, now: Date, lockedUntil: Date, nextRunAt?: Date): Promise<boolean> {
    const { count } = await this.client.cronTask.updateMany({
      where: { name, OR: leaseFree(now), ...(nextRunAt ? { nextRunAt: { lte: now } } : {}) },
      data: {
        lockedUntil,
        lockedBy: holder,
        execTimes: { increment: 1 },
        lastRunAt: now,
        ...(nextRunAt ? { nextRunAt } : {}),
      },
    });
    return count === 1;
  }

  async renewLease(name: string, holder: string, lockedUntil: Date): Promise<void> {
    await this.client.cronTask.updateMany({ where: { name, lockedBy: holder }, data: { lockedUntil } });
  }

  /** Releases every task lease `holder` has. */
  async releaseHeldBy(holder: string): Promise<number> {
    const { count } = await this.client.cronTask.updateMany({
      where: { lockedBy: holder },
      data: { lockedUntil: null, lockedBy: '' },
    });
    return count;
  }

  async releaseLease(name: string, holder: string): Promise<void> {
    await this.client.cronTask.updateMany({
      where: { name, lockedBy: holder },
      data: { lockedUntil: null, lockedBy: '' },
    });
  }
}
