// Task schedules in the notation Forgejo's [cron.*] SCHEDULE accepts: `@every <Go duration>`, the descriptors
// @yearly/@annually, @monthly, @weekly, @daily/@midnight, @hourly, and five-field cron
// (minute hour day-of-month month day-of-week). Cron and descriptors are croner's; only `@every` is ours, as
// cron has no such form. Times are local, as in Forgejo.
import { Cron } from 'croner';
import { parseGoDuration } from '../../lib/go-duration.ts';

export class ScheduleError extends Error {}

export interface Schedule {
  /** The text the schedule was parsed from, shown by GET /admin/cron. */
  readonly text: string;
  /** The first time strictly after `after` when the task is due. */
  next(after: Date): Date;
}

/**
 * Five fields exactly, as Forgejo's parser (robfig/cron's standard parser) reads them; `5/15` means `5-59/15`
 * there, hence sloppyRanges. Both day fields restricted: either may match (domAndDow off, croner's default).
 */
const CRON_OPTIONS = { mode: '5-part', sloppyRanges: true, domAndDow: false } as const;

export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim();
  const every = /^@every\s+(\S+)$/i.exec(trimmed);
  if (every) {
    const seconds = parseGoDuration(every[1]);
    if (seconds === null || seconds <= 0) throw new ScheduleError(`invalid duration in schedule "${text}"`);
    return { text: trimmed, next: (after) => new Date(after.getTime() + seconds * 1000) };
  }
  const pattern = trimmed.startsWith('@') ? trimmed.toLowerCase() : trimmed;
  // Without a function croner only evaluates the pattern: no timer is started. One is made per question rather
  // than kept: each holds a table of 10,000 years (78 KiB), and a task asks once a run.
  const cron = () => new Cron(pattern, CRON_OPTIONS);
  try {
    cron();
  } catch (error) {
    throw new ScheduleError(
      `schedule "${text}" is neither @every, a descriptor nor five valid cron fields: ${(error as Error).message}`,
    );
  }
  return {
    text: trimmed,
    next: (after) => {
      const due = cron().nextRun(after);
      if (!due) throw new ScheduleError(`schedule "${text}" never comes due`);
      return due;
    },
  };
}
