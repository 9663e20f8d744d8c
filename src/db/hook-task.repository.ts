// HookTask rows: each webhook delivery, its payload and the history of its attempts (Forgejo's hook_task).
import type { DbClient, Models } from './prisma.ts';

export type HookTask = Models.HookTaskModel;

export interface NewHookTask {
  hookId: number;
  uuid: string;
  eventType: string;
  payload: string;
}

export interface HookAttempt {
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  isSucceed: boolean;
  requestInfo: string;
  responseInfo: string;
  durationMs: number;
  deliveredAt: Date;
}

export class HookTaskRepository {
  constructor(private readonly client: DbClient) {}

  async create(task: NewHookTask): Promise<HookTask> {
    return this.client.hookTask.create({ data: task });
  }

  async findById(id: number): Promise<HookTask | null> {
    return this.client.hookTask.findUnique({ where: { id } });
  }

  /**
   * Takes the next attempt of a pending delivery for `leaseMs`: the claim's expiry, or null when it is no longer
   * pending, another run holds it, or another run recorded an attempt since this one read `attempts` (its count
   * would be stale). A run that dies lets its claim expire, so the delivery is not lost.
   */
  async claimAttempt(id: number, attempts: number, leaseMs: number): Promise<Date | null> {
    const now = new Date();
    const until = new Date(now.getTime() + leaseMs);
    const { count } = await this.client.hookTask.updateMany({
      where: { id, status: 'pending', attempts, OR: [{ claimedUntil: null }, { claimedUntil: { lt: now } }] },
      data: { claimedUntil: until },
    });
    return count === 1 ? until : null;
  }

  /** Extends a claim this run still holds (its expiry is still `held`): the new expiry, or null when it is gone. */
  async extendClaim(id: number, held: Date, leaseMs: number): Promise<Date | null> {
    const until = new Date(Date.now() + leaseMs);
    const { count } = await this.client.hookTask.updateMany({
      where: { id, status: 'pending', claimedUntil: held },
      data: { claimedUntil: until },
    });
    return count === 1 ? until : null;
  }

  /** Records an attempt on a delivery that is still pending (a finished one is never rewritten). */
  async recordAttempt(id: number, attempt: HookAttempt): Promise<boolean> {
    // The attempt is over: a retry may claim the next one.
    const { count } = await this.client.hookTask.updateMany({
      where: { id, status: 'pending' },
      data: { ...attempt, claimedUntil: null },
    });
    return count === 1;
  }

  /** A hook's deliveries, newest first. */
  async listForHook(hookId: number, limit = 50): Promise<HookTask[]> {
    return this.client.hookTask.findMany({ where: { hookId }, orderBy: { id: 'desc' }, take: limit });
  }

  /** Deletes finished deliveries beyond the newest `keep` of each hook; the number deleted. */
  async keepNewestPerHook(keep: number): Promise<number> {
    const hooks = await this.client.hookTask.groupBy({
      by: ['hookId'],
      where: { status: { not: 'pending' } },
      _count: { _all: true },
    });
    let deleted = 0;
    for (const { hookId, _count } of hooks) {
      if (_count._all <= keep) continue;
      const newest = await this.client.hookTask.findMany({
        where: { hookId, status: { not: 'pending' } },
        orderBy: { id: 'desc' },
        take: keep,
        select: { id: true },
      });
      const oldestKept = newest.length > 0 ? newest[newest.length - 1].id : Number.MAX_SAFE_INTEGER;
      const result = await this.client.hookTask.deleteMany({
        where: { hookId, status: { not: 'pending' }, id: { lt: oldestKept } },
      });
      deleted += result.count;
    }
    return deleted;
  }

  /** Deletes finished deliveries made before `before`; the number deleted. */
  async deleteFinishedBefore(before: Date): Promise<number> {
    const result = await this.client.hookTask.deleteMany({
      where: { status: { not: 'pending' }, createdAt: { lt: before } },
    });
    return result.count;
  }
}
