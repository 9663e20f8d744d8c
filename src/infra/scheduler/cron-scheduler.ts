// Starts due cron tasks: a timer looks at the CronTask rows every few seconds and starts what is due; the lease
// in the task table decides which process runs it. Timers are unref'd so they never keep the process alive.
import type { Logger } from '../observability/logger.ts';

/** What the scheduler drives: CronService. */
export interface DueTasks {
  prepareSchedule(): Promise<void>;
  /** Starts what is due; the names of the tasks started. */
  startDue(): Promise<string[]>;
  /** Waits for the tasks running here. */
  drain(): Promise<void>;
}

/** The shortest schedule is @every 1m (start_schedule_tasks), so a 15 s look is close enough. */
const TICK_MS = 15_000;

export class CronScheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly cron: DueTasks,
    private readonly log: Logger,
    private readonly tickMs = TICK_MS,
  ) {}

  async start(): Promise<void> {
    await this.cron.prepareSchedule();
    // A stop while the schedule was being prepared: no timer may outlive it.
    if (this.stopped) return;
    this.timer = setInterval(() => this.tick(), this.tickMs);
    this.timer.unref();
    this.tick();
  }

  private tick(): void {
    if (this.ticking) return;
    this.ticking = this.cron
      .startDue()
      .then((started) => {
        if (started.length > 0) this.log.debug({ tasks: started }, 'cron tasks started');
      })
      .catch((error: unknown) => this.log.error({ err: error }, 'starting due cron tasks failed'))
      .finally(() => {
        this.ticking = null;
      });
  }

  /** Stops starting tasks and waits for the ones running here, so their leases are given back. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.ticking;
    await this.cron.drain();
  }
}
