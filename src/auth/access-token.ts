// Personal access tokens: 40 lower-case hex characters, stored as a SHA-256 digest and found by it.
// A fast digest is enough here: the token carries 160 random bits, so there is nothing to brute-force.
import { createHash, randomBytes } from 'node:crypto';

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
 * Digests of tokens that recently signed in. Hashing was a third of a token sign-in's CPU, and a token's digest never
 * changes, so this decides nothing the database does not: the token row is still read on every request. Only tokens
 * the database knew enter, so guesses cannot fill it; the oldest entry leaves first.
 */
export class RecentTokenDigests {
  private readonly digests = new Map<string, string>();
  constructor(private readonly capacity = 1024) {}

  digestOf(token: string): string {
    return this.digests.get(token) ?? hashAccessToken(token);
  }

  remember(token: string, digest: string): void {
    if (this.digests.has(token)) return;
    if (this.digests.size >= this.capacity) this.digests.delete(this.digests.keys().next().value!);
    this.digests.set(token, digest);
  }
}

export function lastEight(token: string): string {
  return token.slice(-8);
}
