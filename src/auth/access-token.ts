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

export function tokenMatches(token: string, storedHash: string): boolean {
  const actual = Buffer.from(hashAccessToken(token), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function lastEight(token: string): string {
  return token.slice(-8);
}
