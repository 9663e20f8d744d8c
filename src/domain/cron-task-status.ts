// What GET /admin/cron shows of one task.

export interface CronTaskStatus {
  name: string;
  /** The schedule, or null for a task that is not scheduled (disabled). */
  schedule: string | null;
  next: Date | null;
  prev: Date | null;
  execTimes: number;
}
