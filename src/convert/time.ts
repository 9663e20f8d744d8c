/** RFC 3339 in UTC without fractional seconds, as Forgejo writes times. */
export function isoTime(date: Date | null | undefined): string {
  return (date ?? new Date(0)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
