import type { components } from '../../generated/api.d.ts';
import type { CronTaskStatus } from '../domain/cron-task-status.ts';
import { isoTime } from './time.ts';

export type ApiCron = components['schemas']['Cron'];

/** Go's zero time, which Forgejo shows for a task that never ran or is not scheduled. */
const ZERO_TIME = '0001-01-01T00:00:00Z';

/** A disabled task shows schedule "-" (Forgejo: services/cron/tasks.go ListTasks). */
export function toCron(task: CronTaskStatus): ApiCron {
  return {
    name: task.name,
    schedule: task.schedule ?? '-',
    next: task.next ? isoTime(task.next) : ZERO_TIME,
    prev: task.prev ? isoTime(task.prev) : ZERO_TIME,
    exec_times: task.execTimes,
  };
}
