// The hot queries with the token and owner-by-name lookups answered from the process's LookupCache when it can (a
// repository by owner and name too: its owner comes from there).
import type { HotQueries } from './hot-queries.ts';
import type { LookupCache } from './lookup-cache.ts';

export function cachedHotQueries(hot: HotQueries, cache: LookupCache): HotQueries {
  const userByLowerName = (lowerName: string) => cache.owner(lowerName, () => hot.userByLowerName(lowerName));
  return {
    ...hot,
    tokenByHash: (tokenHash) => cache.token(tokenHash, () => hot.tokenByHash(tokenHash)),
    userByLowerName,
    // The owner from the cache, then the repository in it with its units: one statement on PostgreSQL, not three.
    async repositoryByOwnerAndName(ownerLowerName, lowerName) {
      const owner = await userByLowerName(ownerLowerName);
      return owner && hot.repositoryInOwner(owner.id, lowerName, owner);
    },
    async touchToken(id, at) {
      await hot.touchToken(id, at);
      cache.forgetToken(id);
    },
  };
}
