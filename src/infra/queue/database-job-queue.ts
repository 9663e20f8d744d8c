// The embedded default ([queue] TYPE=level, channel or dummy): jobs stay rows of the database job table. A worker
// keeps up to `concurrency` runs in flight: it leases due rows for its free slots with one conditional update each,
// runs them, and deletes or reschedules them; it looks every pollMs, at once after a commit that wrote jobs, and at
// once when a run ends, so one slow run never holds back the others. A lease left by a process that died expires and
// another process takes the job; a run renews its lease while it lasts, so the lease can be short. Timers are unref'd.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { CommittedJobs } from './committed-jobs.ts';
import type { JobRepository } from '../../db/job.repository.ts';
import type { Models } from '../../db/prisma.ts';
import type { Logger } from '../observability/logger.ts';
import type { JobQueue, JobRunner, JobWorker, WorkOptions } from './job-queue.ts';
import type { JobKind } from '../../config/queue.ts';
import { SerialPasses } from './serial-passes.ts';
import { keepRenewed } from '../../lib/keep-renewed.ts';

export class DatabaseJobQueue implements JobQueue {
  /** Names this process's leases: host, pid and a random part (several apps may share one process in tests). */
  readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

  constructor(
    private readonly jobs: JobRepository,
    private readonly committed: CommittedJobs,
    private readonly log: Logger,
  ) {}

  work(kind: JobKind, run: JobRunner, options: WorkOptions): JobWorker {
    const slots = new Slots(
      (free) => this.leaseDue(kind, free, options.leaseMs),
      (job) => this.execute(kind, job, run, options.leaseMs),
      options.concurrency,
      options.pollMs,
      this.log,
    );
    const unsubscribe = this.committed.subscribe(() => slots.fill());
    slots.start();
    return {
      stop: async () => {
        unsubscribe();
        await slots.stop();
      },
      handBack: async () => {
        await this.jobs.releaseHeldBy(this.holder);
      },
    };
  }

  async runDue(kind: JobKind, run: JobRunner, limit: number, leaseMs: number): Promise<number> {
    const leased = await this.leaseDue(kind, limit, leaseMs);
    await Promise.all(leased.map((job) => this.execute(kind, job, run, leaseMs)));
    return leased.length;
  }

  private leaseDue(kind: JobKind, limit: number, leaseMs: number): Promise<Models.JobModel[]> {
    const now = new Date();
    return this.jobs.lease(kind, this.holder, now, new Date(now.getTime() + leaseMs), limit);
  }

  private async execute(kind: JobKind, job: Models.JobModel, run: JobRunner, leaseMs: number): Promise<void> {
    // Renewed while the run lasts: a short lease lapses soon after its process dies, however long runs take.
    const stopRenewing = keepRenewed(
      () => this.jobs.renewLease(job.id, this.holder, new Date(Date.now() + leaseMs)),
      leaseMs,
      (error) => this.log.warn({ err: error, kind, jobId: job.id }, 'renewing a job lease failed'),
    );
    try {
      const result = await run({ id: job.id, kind, payload: JSON.parse(job.payload), attempt: job.attempts });
      if (result.outcome === 'retry')
        await this.jobs.retryAt(job.id, this.holder, new Date(Date.now() + result.afterMs), result.error);
      else await this.jobs.complete(job.id, this.holder);
    } catch (error) {
      // The lease expires and the job is taken again.
      this.log.error({ err: error, kind, jobId: job.id }, 'a background job failed unexpectedly');
    } finally {
      stopRenewing();
    }
  }

  async close(): Promise<void> {}
}

/**
 * Keeps up to `size` runs in flight: fills the free slots every pollMs, on fill(), and when a run ends. Filling
 * passes never overlap, so a job is never leased twice here.
 */
class Slots {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();
  private readonly passes: SerialPasses;

  constructor(
    private readonly lease: (free: number) => Promise<Models.JobModel[]>,
    private readonly execute: (job: Models.JobModel) => Promise<void>,
    private readonly size: number,
    private readonly pollMs: number,
    log: Logger,
  ) {
    this.passes = new SerialPasses(() => this.fillFree(), {
      enabled: () => !this.stopped,
      onError: (error) => log.error({ err: error }, 'running background jobs failed'),
    });
  }

  start(): void {
    this.timer = setInterval(() => this.fill(), this.pollMs);
    this.timer.unref();
    this.fill();
  }

  fill(): void {
    this.passes.request();
  }

  private async fillFree(): Promise<void> {
    while (!this.stopped) {
      const free = this.size - this.running.size;
      if (free <= 0) return;
      const leased = await this.lease(free);
      for (const job of leased) this.begin(job);
      if (leased.length < free) return;
    }
  }

  private begin(job: Models.JobModel): void {
    const run: Promise<void> = this.execute(job).finally(() => {
      this.running.delete(run);
      this.fill();
    });
    this.running.add(run);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.passes.idle();
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
