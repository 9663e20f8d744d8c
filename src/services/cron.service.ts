// Cron tasks (Forgejo: services/cron, routers/api/v1/admin/cron.go). Each run takes a lease on the task's CronTask
// row with one conditional update (free or expired lease → ours), so across every process sharing the database
// only one runs a task at a time; the lease is renewed while the task runs and expires if its process dies.
// A scheduled run also moves nextRunAt in that same update, so another process does not repeat the slot.
// The task registry, schedules and the scheduler live in ./cron/ and are reached only through this service.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { CronTaskRepository } from '../db/cron-task.repository.ts';
import type { CronTaskStatus } from '../domain/cron-task-status.ts';
import { NotFoundError } from '../domain/errors.ts';
import { parseSchedule, type Schedule } from './cron/schedule.ts';
import { CronScheduler } from '../infra/scheduler/cron-scheduler.ts';
import { type CronTaskDefinition, cronTasks, type TaskContext } from './cron/tasks.ts';
import type { ServiceDeps } from './service-deps.ts';

const LEASE_MS = 5 * 60_000;

interface RegisteredTask {
  definition: CronTaskDefinition;
  schedule: Schedule;
}

export class CronService {
  private readonly tasks = new Map<string, RegisteredTask>();
  private readonly running = new Set<Promise<void>>();
  /** Names this process's leases with: host, pid and a random part (several apps may share one process in tests). */
  readonly holder = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly cronTasks: CronTaskRepository;

  private scheduler: CronScheduler | null = null;

  constructor(
    deps: ServiceDeps,
    private readonly context: TaskContext,
    /** Forgejo's tasks for these settings unless given (tests give their own). */
    definitions: readonly CronTaskDefinition[] = cronTasks(deps.settings),
  ) {
    this.cronTasks = deps.repos.cronTasks;
    for (const definition of definitions)
      this.tasks.set(definition.name, { definition, schedule: parseSchedule(definition.schedule) });
  }

  /** Starts running due tasks on a timer in this process (main does this when [cron] ENABLED). */
  async startScheduler(): Promise<void> {
    if (this.scheduler) return;
    this.scheduler = new CronScheduler(this, this.context.log);
    await this.scheduler.start();
  }

  /** Stops the timer and waits for the runs started here, so their leases are given back. */
  async stopScheduler(): Promise<void> {
    const scheduler = this.scheduler;
    this.scheduler = null;
    await scheduler?.stop();
  }

  /** On a forced shutdown: gives back the leases of runs still going here, so another process may run them. */
  async handBackLeases(): Promise<void> {
    await this.cronTasks.releaseHeldBy(this.holder);
  }

  /** GET /admin/cron: every registered task in registration order. */
  async list(now = new Date()): Promise<CronTaskStatus[]> {
    const rows = await this.cronTasks.findByNames([...this.tasks.keys()]);
    const byName = new Map(rows.map((row) => [row.name, row]));
    return [...this.tasks.values()].map(({ definition, schedule }) => {
      const row = byName.get(definition.name);
      return {
        name: definition.name,
        schedule: definition.enabled ? schedule.text : null,
        next: definition.enabled ? (row?.nextRunAt ?? schedule.next(now)) : null,
        prev: row?.lastRunAt ?? null,
        execTimes: row?.execTimes ?? 0,
      };
    });
  }

  /** POST /admin/cron/{task}: starts the task (disabled ones too) unless it is running somewhere; does not wait for it. */
  async start(name: string): Promise<void> {
    const task = this.tasks.get(name);
    if (!task) throw new NotFoundError(`task "${name}" does not exist`);
    await this.ensureRow(task);
    if (await this.acquire(task, new Date(), false)) this.track(this.execute(task));
  }

  /** Runs the task here and now and waits for it; false when another run holds the lease. */
  async runNow(name: string): Promise<boolean> {
    const task = this.tasks.get(name);
    if (!task) throw new NotFoundError(`task "${name}" does not exist`);
    await this.ensureRow(task);
    if (!(await this.acquire(task, new Date(), false))) return false;
    await this.execute(task);
    return true;
  }

  /** Creates the rows of the enabled tasks with their first nextRunAt (the scheduler calls this once at start). */
  async prepareSchedule(now = new Date()): Promise<void> {
    const rows = await this.cronTasks.findByNames([...this.tasks.keys()]);
    const byName = new Map(rows.map((row) => [row.name, row]));
    for (const task of this.tasks.values()) {
      if (!task.definition.enabled) continue;
      const row = byName.get(task.definition.name);
      if (!row) await this.ensureRow(task, task.schedule.next(now));
      else if (!row.nextRunAt) await this.cronTasks.setMissingNextRun(row.name, task.schedule.next(now));
    }
  }

  /** Starts every enabled task that is due and not running anywhere; does not wait for them. */
  async startDue(now = new Date()): Promise<string[]> {
    const enabled = [...this.tasks.values()]
      .filter((task) => task.definition.enabled)
      .map((task) => task.definition.name);
    const due = await this.cronTasks.dueNames(enabled, now);
    const started: string[] = [];
    for (const name of due) {
      const task = this.tasks.get(name)!;
      if (await this.acquire(task, now, true)) {
        started.push(name);
        this.track(this.execute(task));
      }
    }
    return started;
  }

  /** Waits for the runs this process started (on shutdown). */
  async drain(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }

  private track(run: Promise<void>): void {
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  private async ensureRow(task: RegisteredTask, nextRunAt: Date | null = null): Promise<void> {
    await this.cronTasks.ensure(task.definition.name, nextRunAt);
  }

  /** The lease, the run count and the run time in one conditional update. */
  private async acquire(task: RegisteredTask, now: Date, scheduled: boolean): Promise<boolean> {
    const lockedUntil = new Date(now.getTime() + LEASE_MS);
    return this.cronTasks.acquireLease(
      task.definition.name,
      this.holder,
      now,
      lockedUntil,
      scheduled ? task.schedule.next(now) : undefined,
    );
  }

  /** Runs the body under the lease, renewing it, and always gives it back. */
  private async execute(task: RegisteredTask): Promise<void> {
    const name = task.definition.name;
    const log = this.context.log.child({ task: name });
    const renew = setInterval(() => {
      this.cronTasks
        .renewLease(name, this.holder, new Date(Date.now() + LEASE_MS))
        .catch((error: unknown) => log.error({ err: error }, 'renewing the cron lease failed'));
    }, LEASE_MS / 3);
    renew.unref();
    const started = Date.now();
    try {
      const result = await task.definition.run({ ...this.context, log });
      log.debug({ ms: Date.now() - started, ...(result ?? {}) }, 'cron task finished');
    } catch (error) {
      log.error({ err: error }, 'cron task failed');
    } finally {
      clearInterval(renew);
      await this.cronTasks.releaseLease(name, this.holder).catch((error: unknown) => {
        log.error({ err: error }, 'releasing the cron lease failed');
      });
    }
  }
}
