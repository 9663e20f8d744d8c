// Task schedules in the notation Forgejo's [cron.*] SCHEDULE accepts: `@every <Go duration>`, the descriptors
// @yearly/@annually, @monthly, @weekly, @daily/@midnight, @hourly, and five-field cron
// (minute hour day-of-month month day-of-week) with `*`, lists, ranges and `/step`. Times are local, as in Forgejo.
import { parseGoDuration } from '../services/repository.service.ts';

export class ScheduleError extends Error {}

export interface Schedule {
  /** The text the schedule was parsed from, shown by GET /admin/cron. */
  readonly text: string;
  /** The first time strictly after `after` when the task is due. */
  next(after: Date): Date;
}

const DESCRIPTORS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

export function parseSchedule(text: string): Schedule {
  const trimmed = text.trim();
  const every = /^@every\s+(\S+)$/i.exec(trimmed);
  if (every) {
    const seconds = parseGoDuration(every[1]);
    if (seconds === null || seconds <= 0) throw new ScheduleError(`invalid duration in schedule "${text}"`);
    return { text: trimmed, next: (after) => new Date(after.getTime() + seconds * 1000) };
  }
  const expression = DESCRIPTORS[trimmed.toLowerCase()] ?? trimmed;
  const cron = parseCronFields(expression, text);
  return { text: trimmed, next: (after) => nextCronTime(cron, after) };
}

interface CronFields {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Both day fields restricted: either may match (standard cron). */
  dayOr: boolean;
}

const FIELD_RANGES: ReadonlyArray<readonly [number, number]> = [[0, 59], [0, 23], [1, 31], [1, 12], [0, 7]];

function parseField(field: string, [min, max]: readonly [number, number], text: string): Set<number> {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^(\*|(\d+)(?:-(\d+))?)(?:\/(\d+))?$/.exec(part);
    if (!match) throw new ScheduleError(`invalid field "${field}" in schedule "${text}"`);
    const step = match[4] === undefined ? 1 : Number(match[4]);
    let from = min;
    let to = max;
    if (match[1] !== '*') {
      from = Number(match[2]);
      to = match[3] === undefined ? (match[4] === undefined ? from : max) : Number(match[3]);
    }
    if (step < 1 || from < min || to > max || from > to) throw new ScheduleError(`field "${field}" is out of range in schedule "${text}"`);
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}

function parseCronFields(expression: string, text: string): CronFields {
  const fields = expression.split(/\s+/);
  if (fields.length !== 5) throw new ScheduleError(`schedule "${text}" is neither @every, a descriptor nor five cron fields`);
  const [minutes, hours, days, months, weekdays] = fields.map((field, i) => parseField(field, FIELD_RANGES[i], text));
  if (weekdays.delete(7)) weekdays.add(0);
  return { minutes, hours, days, months, weekdays, dayOr: fields[2] !== '*' && fields[4] !== '*' };
}

function dayMatches(cron: CronFields, date: Date): boolean {
  const day = cron.days.has(date.getDate());
  const weekday = cron.weekdays.has(date.getDay());
  return cron.dayOr ? day || weekday : day && weekday;
}

/** Walks forward field by field (month, day, hour, minute); a schedule no date can meet fails after five years. */
function nextCronTime(cron: CronFields, after: Date): Date {
  const t = new Date(after.getTime());
  t.setSeconds(0, 0);
  t.setMinutes(t.getMinutes() + 1);
  const limit = after.getTime() + 5 * 366 * 24 * 3600 * 1000;
  while (t.getTime() <= limit) {
    if (!cron.months.has(t.getMonth() + 1)) {
      t.setMonth(t.getMonth() + 1, 1);
      t.setHours(0, 0, 0, 0);
    } else if (!dayMatches(cron, t)) {
      t.setDate(t.getDate() + 1);
      t.setHours(0, 0, 0, 0);
    } else if (!cron.hours.has(t.getHours())) {
      t.setHours(t.getHours() + 1, 0, 0, 0);
    } else if (!cron.minutes.has(t.getMinutes())) {
      t.setMinutes(t.getMinutes() + 1, 0, 0);
    } else {
      return t;
    }
  }
  throw new ScheduleError('the schedule never comes due');
}
