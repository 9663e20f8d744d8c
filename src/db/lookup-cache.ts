// A short-lived per-process cache of the two lookups nearly every request makes: the access token by digest (with
// its user) and the owner by lower-cased name. On PostgreSQL they are two round trips a request; kept here, a
// token GET asks the database nothing. Any write to a User or AccessToken row empties it (lookup-invalidation.ts),
// and so does a message from another process (the shared Redis); the TTL bounds what another process may still
// serve when no Redis tells it.
import { LRUCache } from 'lru-cache';
import { ClearedOnWrite } from './cleared-on-write.ts';
import type { FoundToken } from './hot-queries.ts';
import type { User } from './prisma.ts';

const ENTRIES = 5000;

/** How long an entry lives: with a shared Redis, a message clears it at once and the TTL only covers a lost one. */
export const LOOKUP_TTL_MS = { shared: 30_000, alone: 1000 } as const;

export class LookupCache extends ClearedOnWrite {
  private readonly tokens: LRUCache<string, FoundToken>;
  private readonly owners: LRUCache<string, User>;
  /** Token digests by token id, so a touched token's entry is dropped (its updatedAt moved). */
  private readonly digestsById = new Map<number, string>();

  constructor(readonly ttlMs: number) {
    super();
    this.tokens = new LRUCache({
      max: ENTRIES,
      ttl: ttlMs,
      dispose: (found) => this.digestsById.delete(found.tokenId),
    });
    this.owners = new LRUCache({ max: ENTRIES, ttl: ttlMs });
  }

  async token(digest: string, load: () => Promise<FoundToken | null>): Promise<FoundToken | null> {
    const hit = this.tokens.get(digest);
    if (hit) return { ...hit, user: { ...hit.user } };
    return this.loadAndKeep(load, (found) => {
      this.tokens.set(digest, { ...found, user: { ...found.user } });
      this.digestsById.set(found.tokenId, digest);
    });
  }

  async owner(lowerName: string, load: () => Promise<User | null>): Promise<User | null> {
    const hit = this.owners.get(lowerName);
    if (hit) return { ...hit };
    // Unknown names are not kept: guesses must not push out the owners in use.
    return this.loadAndKeep(load, (found) => this.owners.set(lowerName, { ...found }));
  }

  /** The token's row was written (its use recorded): its next lookup reads the row again. */
  forgetToken(tokenId: number): void {
    const digest = this.digestsById.get(tokenId);
    if (digest !== undefined) this.tokens.delete(digest);
  }

  protected empty(): void {
    this.tokens.clear();
    this.owners.clear();
    this.digestsById.clear();
  }
}
