// The hot queries with the token and owner-by-name lookups answered from the process's LookupCache when it can.
import type { HotQueries } from './hot-queries.ts';
import type { LookupCache } from './lookup-cache.ts';

export function cachedHotQueries(hot: HotQueries, cache: LookupCache): HotQueries {
  return {
    ...hot,
    tokenByHash: (tokenHash) => cache.token(tokenHash, () => hot.tokenByHash(tokenHash)),
    userByLowerName: (lowerName) => cache.owner(lowerName, () => hot.userByLowerName(lowerName)),
    async touchToken(id, at) {
      await hot.touchToken(id, at);
      cache.forgetToken(id);
    },
  };
}
