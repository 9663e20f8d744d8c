// `since`/`before` bounds as Forgejo applies them (routers/api/v1/utils GetQueryBeforeSince, and the
// `updated_unix >= since` / `<= before` conditions of its models): both are cut to whole unix seconds and compared
// with rows' whole seconds, so both ends are inclusive at second precision (a thread updated at 12:00:00.700 is
// within before=12:00:00). Go's zero time and the unix epoch mean "no bound", as Forgejo's `!= 0` tests do.
import { parseRfc3339 } from './rfc3339.ts';

export interface TimeBounds {
  /** Rows updated at or after this instant. */
  from?: Date;
  /** Rows updated at or before this instant. */
  to?: Date;
}

/** Go's zero time, and the earliest instant used: both databases store any instant between these two, and every
 * row lies between them, so clamping a bound to them changes no answer. */
const EARLIEST_MS = new Date('0001-01-01T00:00:00Z').getTime();
const LATEST_MS = new Date('9999-12-31T23:59:59.999Z').getTime();

/** The whole unix second of an RFC 3339 text, or null for no bound (absent, zero time, epoch). */
function unixSecond(text: string | undefined): number | null {
  const trimmed = (text ?? '').trim();
  if (trimmed === '') return null;
  const date = parseRfc3339(trimmed);
  if (!date) throw new RangeError(`not an RFC 3339 time: ${trimmed}`);
  if (date.getTime() === EARLIEST_MS) return null;
  const second = Math.floor(date.getTime() / 1000);
  return second === 0 ? null : second;
}

const clamped = (ms: number) => new Date(Math.min(LATEST_MS, Math.max(EARLIEST_MS, ms)));

/** The instant at the start of `since`'s second and the last millisecond of `before`'s second. */
export function timeBounds(since: string | undefined, before: string | undefined): TimeBounds {
  const from = unixSecond(since);
  const to = unixSecond(before);
  return {
    from: from === null ? undefined : clamped(from * 1000),
    to: to === null ? undefined : clamped(to * 1000 + 999),
  };
}
