// Personal access tokens: 40 lower-case hex characters, stored as a SHA-256 digest and found by their last eight.
// A fast digest is enough here: the token carries 160 random bits, so there is nothing to brute-force.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const TOKEN_PATTERN = /^[0-9a-f]{40}$/;

export function newAccessToken(): string {
  return randomBytes(20).toString('hex');
}

export function looksLikeAccessToken(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

export function hashAccessToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Digests of tokens that recently matched. Hashing was a third of a token sign-in's CPU, and a token's digest never
 * changes, so this decides nothing the database does not: the token row is still read on every request. Only
 * matching tokens enter, so guesses cannot fill it; the oldest entry leaves first.
 */
const recentDigests = new Map<string, Buffer>();
const RECENT_DIGESTS = 1024;

export function tokenMatches(token: string, storedHash: string): boolean {
  const remembered = recentDigests.get(token);
  const actual = remembered ?? Buffer.from(hashAccessToken(token), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  const matches = actual.length === expected.length && timingSafeEqual(actual, expected);
  if (matches && !remembered) {
    if (recentDigests.size >= RECENT_DIGESTS) recentDigests.delete(recentDigests.keys().next().value!);
    recentDigests.set(token, actual);
  }
  return matches;
}

export function lastEight(token: string): string {
  return token.slice(-8);
}
