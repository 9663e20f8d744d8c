// RFC 3339 times as Go's time.Parse(time.RFC3339, …) reads them, which is how Forgejo reads every date-time it is
// sent: four-digit year, upper-case T and Z, every field within its range (February 30 and a +25:00 offset do not
// parse), any number of fraction digits.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:(Z)|([+-])(\d{2}):(\d{2}))$/;

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The instant the text names, or null when Go would not parse it. */
export function parseRfc3339(text: string): Date | null {
  const match = RFC3339.exec(text);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [, , , , , , , fraction, zulu, sign, offsetHours, offsetMinutes] = match;
  if (month < 1 || month > 12 || day < 1 || day > daysIn(month, year)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  if (!zulu && (Number(offsetHours) > 23 || Number(offsetMinutes) > 59)) return null;
  const offset = zulu ? 0 : (Number(offsetHours) * 60 + Number(offsetMinutes)) * (sign === '-' ? -1 : 1);
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not read years 0-99 as 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offset, second, Number(`0.${fraction ?? 0}`) * 1000);
  return date;
}
