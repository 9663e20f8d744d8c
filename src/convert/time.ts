const EPOCH = new Date(0);

/** RFC 3339 in UTC without fractional seconds, as Forgejo writes times. */
export function isoTime(date: Date | null | undefined): string {
  const text = (date ?? EPOCH).toISOString();
  // Years 0–9999 are always `YYYY-MM-DDTHH:MM:SS.sssZ`; others carry a sign and more digits.
  return text.length === 24 ? `${text.slice(0, 19)}Z` : text.replace(/\.\d{3}Z$/, 'Z');
}
