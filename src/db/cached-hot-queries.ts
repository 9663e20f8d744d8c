// The hot queries with the token and owner-by-name lookups answered from the process's LookupCache when it can, and
// what they look up about a repository (itself, the viewer's facts on it, its releases, hooks and merges) and the
// viewer's teams in an org from its RepositoryLookupCache.
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
    memberTeamUnitModes: (userId, orgId, unitType) =>
      repositories.memberTeamUnitModes(userId, orgId, unitType, () => hot.memberTeamUnitModes(userId, orgId, unitType)),
    releaseCount: (repoId) => repositories.releaseCount(repoId, () => hot.releaseCount(repoId)),
    activeHookExists: (ownerId, repoId) =>
      repositories.activeHookExists(repoId, () => hot.activeHookExists(ownerId, repoId)),
    pendingAutoMergeExists: (repoId) =>
      repositories.pendingAutoMergeExists(repoId, () => hot.pendingAutoMergeExists(repoId)),
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
