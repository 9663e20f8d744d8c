// [queue] TYPE=redis: jobs run on BullMQ. They are still written as rows in the transaction of their change (the
// outbox); after that transaction commits, a relay adds each row to BullMQ under the id `outbox-<row id>` and then
// deletes the row, and every RELAY_SWEEP_INTERVAL it moves rows that are still there (Redis was down, or a process
// died between commit and relay). Adding a job whose id BullMQ already holds does nothing, and finished jobs are
// kept an hour, so a row relayed twice runs once. Workers hold a lock on a job for the lease and renew it while the
// run lasts; a process that dies loses its locks and BullMQ's stalled-job check gives the job to another worker.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { DelayedError, type Job, Queue, type RedisOptions, Worker } from 'bullmq';
import type { CommittedJobs } from './committed-jobs.ts';
import type { JobRepository } from '../../db/job.repository.ts';
import type { Logger } from '../observability/logger.ts';
import type { JobQueue, JobRunner, JobWorker, WorkOptions } from './job-queue.ts';
import type { JobKind } from '../../config/queue.ts';
import { SerialPasses } from './serial-passes.ts';

export interface RedisQueueTarget {
  readonly connection: RedisOptions;
  /** BullMQ's queue name. */
  readonly queueName: string;
}

interface JobData {
  /** The row's payload, JSON. */
  readonly payload: string;
}

/** Redis keys start with this, so a Redis shared with other software stays readable. */
const PREFIX = 'anvil';
/** Rows moved per round trip. */
const RELAY_BATCH = 100;
/** Finished jobs are kept this long, so a late second relay of the same row finds them and adds nothing. */
const KEEP_FINISHED = { age: 3600 };
/** The runner decides when a job is finished for good; this only stops a job that never says so. */
const MAX_RUNS = 1000;

/** Thrown by a run that asks to be retried, carrying the delay to BullMQ's backoff. */
class RetryLater extends Error {
  constructor(
    readonly afterMs: number,
    message: string,
  ) {
    super(message);
  }
}

export class RedisJobQueue implements JobQueue {
  /** Names this process's workers (BullMQ records it on each job it takes): host, pid and a random part. */
  readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly queues = new Map<JobKind, Queue>();
  private readonly unsubscribe: () => void;
  private readonly sweep: NodeJS.Timeout;
  private closed = false;
  /** Passes that move the outbox to Redis. */
  private readonly relays: SerialPasses;

  constructor(
    private readonly targets: ReadonlyMap<JobKind, RedisQueueTarget>,
    private readonly jobs: JobRepository,
    committed: CommittedJobs,
    sweepMs: number,
    private readonly log: Logger,
  ) {
    this.relays = new SerialPasses(() => this.relayAll(), {
      enabled: () => !this.closed,
      onError: (error) => log.warn({ err: error }, 'moving jobs to redis failed; the next sweep tries again'),
    });
    this.unsubscribe = committed.subscribe(() => this.relaySoon());
    this.sweep = setInterval(() => this.relaySoon(), sweepMs);
    this.sweep.unref();
    this.relaySoon();
  }

  work(kind: JobKind, run: JobRunner, options: WorkOptions): JobWorker {
    const target = this.target(kind);
    const worker = new Worker<JobData>(
      target.queueName,
      async (job: Job<JobData>) => {
        const result = await run({
          id: Number(job.id!.slice('outbox-'.length)),
          kind,
          payload: JSON.parse(job.data.payload),
          attempt: job.attemptsStarted,
        });
        if (result.outcome === 'retry') throw new RetryLater(result.afterMs, result.error);
      },
      {
        connection: target.connection,
        prefix: PREFIX,
        name: this.holder,
        concurrency: options.concurrency,
        // The lock is renewed every half lease while the run lasts; a dead process's lock lapses within a lease, and
        // a check every half lease moves its job back to wait by the second check after that: within 1.5 leases.
        lockDuration: options.leaseMs,
        stalledInterval: Math.max(1, Math.floor(options.leaseMs / 2)),
        // A job whose process died is run again; the runner counts those runs as attempts and ends the job.
        maxStalledCount: MAX_RUNS,
        settings: {
          backoffStrategy: (_attempts: number, _type?: string, error?: Error) =>
            error instanceof RetryLater ? error.afterMs : options.leaseMs,
        },
      },
    );
    worker.on('error', (error) =>
      this.log.warn({ err: error, queue: target.queueName }, 'job queue worker: redis error'),
    );
    worker.on('failed', (job, error) => {
      if (error instanceof DelayedError || error instanceof RetryLater) return;
      this.log.error({ err: error, queue: target.queueName, jobId: job?.id }, 'a background job failed unexpectedly');
    });
    return {
      stop: () => worker.close(),
      // Closing without waiting leaves the running jobs' locks to lapse; another process's stalled check takes them.
      handBack: () => worker.close(true),
    };
  }

  async runDue(): Promise<number> {
    this.relaySoon();
    // A pass that was already running leaves a further one behind it, which sees rows written since.
    await this.relays.idle();
    return 0;
  }

  /** Moves the outbox to Redis soon; a call while a pass runs asks for one more pass after it. */
  relaySoon(): void {
    this.relays.request();
  }

  private async relayAll(): Promise<void> {
    const kinds = [...this.targets.keys()];
    for (;;) {
      const rows = await this.jobs.oldest(kinds, RELAY_BATCH);
      if (rows.length === 0) return;
      const now = Date.now();
      for (const kind of kinds) {
        const ofKind = rows.filter((row) => row.kind === kind);
        if (ofKind.length === 0) continue;
        await this.queue(kind).addBulk(
          ofKind.map((row) => ({
            name: kind,
            data: { payload: row.payload } satisfies JobData,
            opts: {
              jobId: `outbox-${row.id}`,
              delay: Math.max(0, row.runAt.getTime() - now),
              attempts: MAX_RUNS,
              backoff: { type: 'custom' },
              removeOnComplete: KEEP_FINISHED,
              removeOnFail: KEEP_FINISHED,
            },
          })),
        );
      }
      await this.jobs.removeMoved(rows.map((row) => row.id));
      if (rows.length < RELAY_BATCH || this.closed) return;
    }
  }

  private target(kind: JobKind): RedisQueueTarget {
    const target = this.targets.get(kind);
    if (!target) throw new Error(`no redis queue for jobs of kind ${kind}`);
    return target;
  }

  /** The producer side of a kind's queue, connected on first use (a process that writes no jobs opens none). */
  private queue(kind: JobKind): Queue {
    let queue = this.queues.get(kind);
    if (!queue) {
      const target = this.target(kind);
      queue = new Queue(target.queueName, { connection: target.connection, prefix: PREFIX });
      queue.on('error', (error) => this.log.warn({ err: error, queue: target.queueName }, 'job queue: redis error'));
      this.queues.set(kind, queue);
    }
    return queue;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.unsubscribe();
    clearInterval(this.sweep);
    await Promise.allSettled([...this.queues.values()].map((queue) => queue.close()));
    await this.relays.idle();
  }
}
