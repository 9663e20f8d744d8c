// The hot queries with the token and owner-by-name lookups answered from the process's LookupCache when it can, and
// a repository by owner and name (with the viewer's facts on an org's) from its RepositoryLookupCache.
import type { HotQueries } from './hot-queries.ts';
import type { LookupCache } from './lookup-cache.ts';
import type { RepositoryLookupCache } from './repository-lookup-cache.ts';

export function cachedHotQueries(hot: HotQueries, cache: LookupCache, repositories: RepositoryLookupCache): HotQueries {
  const userByLowerName = (lowerName: string) => cache.owner(lowerName, () => hot.userByLowerName(lowerName));
  const repositoryInOwner: HotQueries['repositoryInOwner'] = (ownerId, lowerName, owner) =>
    repositories.repositoryInOwner(ownerId, lowerName, () => hot.repositoryInOwner(ownerId, lowerName, owner));
  return {
    ...hot,
    tokenByHash: (tokenHash) => cache.token(tokenHash, () => hot.tokenByHash(tokenHash)),
    userByLowerName,
    // The owner from the cache, then the repository in it with its units: one statement on PostgreSQL, not three.
    async repositoryByOwnerAndName(ownerLowerName, lowerName) {
      const owner = await userByLowerName(ownerLowerName);
      return owner && repositoryInOwner(owner.id, lowerName, owner);
    },
    repositoryInOwner,
    repositoryById: (id) => repositories.repositoryById(id, () => hot.repositoryById(id)),
    repositoriesByIds: (ids) => repositories.repositoriesByIds(ids, (missing) => hot.repositoriesByIds(missing)),
    repositoryByIdWithFacts: (id, viewerId) =>
      repositories.repositoryByIdWithFacts(id, viewerId, () => hot.repositoryByIdWithFacts(id, viewerId)),
    repositoriesByIdsWithFacts: (ids, viewerId) =>
      repositories.repositoriesByIdsWithFacts(ids, viewerId, (missing) =>
        hot.repositoriesByIdsWithFacts(missing, viewerId),
      ),
    repositoryInOrgWithFacts: (org, lowerName, viewerId) =>
      repositories.repositoryInOrgWithFacts(org.id, lowerName, viewerId, () =>
        hot.repositoryInOrgWithFacts(org, lowerName, viewerId),
      ),
    async touchToken(id, at) {
      await hot.touchToken(id, at);
      cache.forgetToken(id);
    },
  };
}
