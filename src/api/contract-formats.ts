// What the contract's formats mean in Anvil, for bodies, queries and paths alike (the generated validators check
// them: scripts/contract-validators.ts refuses a contract naming a format missing here).
// `int64`: a JSON number holds integers exactly only up to 2^53, so a larger one (9223372036854775807, 1e308) is
// not the number the client sent; it is refused (422) rather than rounded. `-0` is 0, as Go reads it.
// `date-time`: what Go's RFC 3339 parser accepts, so a value Forgejo refuses (a +25:00 offset, February 30) is
// refused here before anything compares with it.
// `date`, `email`, `uri`: ajv-formats' fast checks; `binary`: any bytes.
import type { Format } from 'ajv';
import { fastFormats } from 'ajv-formats/dist/formats';
import { parseRfc3339 } from '../domain/rfc3339.ts';

export const INTEGER_OUT_OF_RANGE = `out of range (at most ${Number.MAX_SAFE_INTEGER} either way)`;

export function isRepresentableInteger(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export const CONTRACT_FORMATS: Record<string, Format> = {
  date: fastFormats.date,
  email: fastFormats.email,
  uri: fastFormats.uri,
  binary: true,
  int64: { type: 'number', validate: isRepresentableInteger },
  'date-time': { type: 'string', validate: (text: string) => parseRfc3339(text) !== null },
};
