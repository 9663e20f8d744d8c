// Durations written as Go's time.ParseDuration reads them ("8h", "1h30m", "10m0s", "1.5h", "-5m"), as Forgejo's
// settings, mirror intervals and `@every` schedules use them.

const SECONDS_PER_UNIT: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};
const DURATION_PATTERN = /^[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const DURATION_PART = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g;

function exactSeconds(text: string): number | null {
  if (/^[-+]?0$/.test(text)) return 0;
  if (!DURATION_PATTERN.test(text)) return null;
  let seconds = 0;
  for (const [, amount, unit] of text.matchAll(DURATION_PART)) seconds += Number(amount) * SECONDS_PER_UNIT[unit];
  return text.startsWith('-') ? -seconds : seconds;
}

/** The duration in whole seconds (rounded), or null when Go would refuse the text. */
export function parseGoDuration(text: string): number | null {
  const seconds = exactSeconds(text);
  // `|| 0` keeps a negative zero out.
  return seconds === null ? null : Math.round(seconds) || 0;
}

/** The duration in whole milliseconds (rounded), for settings finer than a second. */
export function parseGoDurationMs(text: string): number | null {
  const seconds = exactSeconds(text);
  return seconds === null ? null : Math.round(seconds * 1000) || 0;
}
