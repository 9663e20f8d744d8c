// Job rows: durable background work any process may take. A process leases a due job with one conditional update
// (free or expired lease → its own), so a job runs in one place at a time and is taken again when its holder
// dies. Jobs are written inside the transaction of the change they follow (an outbox); with [queue] TYPE=redis the
// rows are only that outbox, moved to Redis after commit (oldest, removeMoved).
import type { DbClient, Models } from './prisma.ts';

type Job = Models.JobModel;

function leaseFree(now: Date) {
  return [{ leasedUntil: null }, { leasedUntil: { lt: now } }];
}

export class JobRepository {
  /** `written` is told of each job written (the transaction helper defers it to the commit). */
  constructor(
    private readonly client: DbClient,
    private readonly written: () => void = () => {},
  ) {}

  async enqueue(kind: string, payload: unknown, runAt = new Date()): Promise<void> {
    await this.client.job.create({ data: { kind, payload: JSON.stringify(payload), runAt } });
    this.written();
  }

  /**
   * Removes the jobs of this kind and payload that wait and no run holds, but `keepId`: a run that starts now does
   * their work too (rebuilds of one index coalesced). Answers how many went.
   */
  async dropWaiting(kind: string, payload: unknown, keepId: number): Promise<number> {
    const { count } = await this.client.job.deleteMany({
      where: { kind, payload: JSON.stringify(payload), leasedUntil: null, id: { not: keepId } },
    });
    return count;
  }

  /** The oldest rows of these kinds, due or not, leased or not (the outbox a relay moves to Redis). */
  async oldest(kinds: readonly string[], limit: number): Promise<Job[]> {
    return this.client.job.findMany({ where: { kind: { in: [...kinds] } }, orderBy: { id: 'asc' }, take: limit });
  }

  /** Removes rows a relay has moved. */
  async removeMoved(ids: readonly number[]): Promise<void> {
    await this.client.job.deleteMany({ where: { id: { in: [...ids] } } });
  }

  /** Leases up to `limit` due jobs of a kind for `holder` until `leasedUntil`, counting the attempt; oldest first. */
  async lease(kind: string, holder: string, now: Date, leasedUntil: Date, limit: number): Promise<Job[]> {
    const due = await this.client.job.findMany({
      where: { kind, runAt: { lte: now }, OR: leaseFree(now) },
      orderBy: [{ runAt: 'asc' }, { id: 'asc' }],
      take: limit,
      select: { id: true },
    });
    const taken: Job[] = [];
    for (const { id } of due) {
      const { count } = await this.client.job.updateMany({
        where: { id, OR: leaseFree(now) },
        data: { leasedUntil, leasedBy: holder, attempts: { increment: 1 } },
      });
      if (count === 1) {
        const job = await this.client.job.findUnique({ where: { id } });
        if (job) taken.push(job);
      }
    }
    return taken;
  }

  /** Moves the end of a lease this holder still holds; false when it is no longer its. */
  async renewLease(id: number, holder: string, leasedUntil: Date): Promise<boolean> {
    const { count } = await this.client.job.updateMany({ where: { id, leasedBy: holder }, data: { leasedUntil } });
    return count === 1;
  }

  /** Removes a finished job, if this holder still holds it. */
  async complete(id: number, holder: string): Promise<boolean> {
    const { count } = await this.client.job.deleteMany({ where: { id, leasedBy: holder } });
    return count === 1;
  }

  /** Gives a job back to run again at `runAt`. */
  async retryAt(id: number, holder: string, runAt: Date, lastError: string): Promise<void> {
    await this.client.job.updateMany({
      where: { id, leasedBy: holder },
      data: { runAt, leasedUntil: null, leasedBy: '', lastError: lastError.slice(0, 1000) },
    });
  }

  /** Releases every job `holder` leases, uncounting the attempt, so another process takes it at once. */
  async releaseHeldBy(holder: string): Promise<number> {
    const { count } = await this.client.job.updateMany({
      where: { leasedBy: holder },
      data: { leasedUntil: null, leasedBy: '', attempts: { decrement: 1 } },
    });
    return count;
  }

  async count(kind: string): Promise<number> {
    return this.client.job.count({ where: { kind } });
  }
}
