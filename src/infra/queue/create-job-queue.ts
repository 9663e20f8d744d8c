// The job queue of a process, from the settings: each kind of job goes to the engine its queue's [queue] /
// [queue.<name>] TYPE names — the database job table, or BullMQ on Redis.
import type { Settings } from '../../config/settings.ts';
import type { CommittedJobs } from './committed-jobs.ts';
import type { JobRepository } from '../../db/job.repository.ts';
import type { Logger } from '../observability/logger.ts';
import { DatabaseJobQueue } from './database-job-queue.ts';
import type { JobQueue } from './job-queue.ts';
import { JOB_QUEUES, type JobKind, queueSettingsFor } from '../../config/queue.ts';
import type * as RedisJobQueueModule from './redis-job-queue.ts';
import type { RedisQueueTarget } from './redis-job-queue.ts';

export function createJobQueue(
  settings: Settings,
  jobs: JobRepository,
  committed: CommittedJobs,
  log: Logger,
): JobQueue {
  const onRedis = new Map<JobKind, RedisQueueTarget>();
  for (const kind of Object.keys(JOB_QUEUES) as JobKind[]) {
    const { backend } = queueSettingsFor(settings, kind);
    if (backend.type === 'redis') onRedis.set(kind, { connection: backend.connection, queueName: backend.queueName });
  }
  const database = new DatabaseJobQueue(jobs, committed, log);
  if (onRedis.size === 0) return database;
  // BullMQ and its Redis client are loaded only when a queue is on Redis.
  const { RedisJobQueue } = require('./redis-job-queue.ts') as typeof RedisJobQueueModule;
  const redis = new RedisJobQueue(onRedis, jobs, committed, settings.queue.RELAY_SWEEP_INTERVAL, log);
  const of = (kind: JobKind): JobQueue => (onRedis.has(kind) ? redis : database);
  return {
    work: (kind, run, options) => of(kind).work(kind, run, options),
    runDue: (kind, run, limit, leaseMs) => of(kind).runDue(kind, run, limit, leaseMs),
    close: async () => {
      await Promise.all([redis.close(), database.close()]);
    },
  };
}
