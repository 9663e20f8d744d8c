// What services see of background jobs, whichever engine holds them ([queue] TYPE): they write jobs as rows in
// their own transaction (repos.jobs.enqueue, an outbox) and hand a runner for a kind to `work`. The database queue
// leases the rows themselves; the Redis queue moves them to BullMQ after commit and runs them there.
import type { JobKind } from '../../config/queue.ts';

export interface QueuedJob {
  /** The outbox row's id, also the job's id in Redis, so a relayed job is the same job however often it is relayed. */
  readonly id: number;
  readonly kind: JobKind;
  readonly payload: unknown;
  /** This run's number, from 1; a run cut short by a crash counts. */
  readonly attempt: number;
}

/** What became of a run: finished (well or for good), or to be run again later. */
export type JobResult =
  { readonly outcome: 'done' } | { readonly outcome: 'retry'; readonly afterMs: number; readonly error: string };

export type JobRunner = (job: QueuedJob) => Promise<JobResult>;

export interface WorkOptions {
  /** Jobs run at once in this process. */
  readonly concurrency: number;
  /** How long a job stays held by a process that stopped renewing it (died); renewed while the run lasts. */
  readonly leaseMs: number;
  /** Database queue: how often to look for due jobs (a commit that wrote jobs also wakes it). */
  readonly pollMs: number;
}

export interface JobWorker {
  /** Stops taking jobs and waits for the runs in flight, so their results are recorded. */
  stop(): Promise<void>;
  /** On a forced shutdown: gives back the jobs still running here, so another process runs them at once. */
  handBack(): Promise<void>;
}

export interface JobQueue {
  /** Starts running jobs of `kind` in this process. */
  work(kind: JobKind, run: JobRunner, options: WorkOptions): JobWorker;
  /**
   * Hands due jobs of `kind` on now. The database queue runs up to `limit` here and answers how many; the Redis
   * queue moves the outbox to Redis, where the workers take them, and answers 0.
   */
  runDue(kind: JobKind, run: JobRunner, limit: number, leaseMs: number): Promise<number>;
  /** Stops relaying and closes connections (workers are stopped through their own handles). */
  close(): Promise<void>;
}
