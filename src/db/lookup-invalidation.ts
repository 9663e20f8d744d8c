// Empties the lookup caches on every write to the rows they keep, in one place: a Prisma query extension on those
// models (every such change goes through Prisma; the hot statements only read, and record a token's use, which the
// cache follows itself). A write inside a transaction empties them at once and again after the commit
// (Transactions.run), so a lookup that read the old row meanwhile is not kept.
import type { ClearedOnWrite } from './cleared-on-write.ts';
import type { LookupCache } from './lookup-cache.ts';
import type { PrismaClient } from './prisma.ts';
import type { RepositoryLookupCache } from './repository-lookup-cache.ts';

const WRITES = new Set([
  'create',
  'createMany',
  'createManyAndReturn',
  'update',
  'updateMany',
  'updateManyAndReturn',
  'upsert',
  'delete',
  'deleteMany',
]);

/**
 * The rows a repository's lookups read besides accounts: the repository, the viewer's ways of access to it, its
 * releases, and what an event on it may cause (hooks, scheduled merges of open pull requests).
 */
const REPOSITORY_LOOKUP_MODELS = [
  'repository',
  'repoUnit',
  'collaboration',
  'orgUser',
  'team',
  'teamUnit',
  'teamUser',
  'teamRepo',
  'release',
  'webhook',
  'pullRequest',
  'pullAutoMerge',
] as const;

interface QueryParams {
  operation: string;
  args: unknown;
  query: (args: unknown) => Promise<unknown>;
}

/** The client, with every write to a cached model reported to the caches that keep its rows once it is done. */
export function invalidatingLookups(
  prisma: PrismaClient,
  lookups: LookupCache,
  repositories: RepositoryLookupCache,
): PrismaClient {
  const reportTo =
    (...caches: ClearedOnWrite[]) =>
    async ({ operation, args, query }: QueryParams) => {
      if (!WRITES.has(operation)) return query(args);
      const result = await query(args);
      for (const cache of caches) await cache.changed();
      return result;
    };
  const repositoryRows = reportTo(repositories);
  return prisma.$extends({
    query: {
      // A repository's lookup carries its owner: an account's change empties both.
      user: { $allOperations: reportTo(lookups, repositories) },
      accessToken: { $allOperations: reportTo(lookups) },
      ...Object.fromEntries(REPOSITORY_LOOKUP_MODELS.map((model) => [model, { $allOperations: repositoryRows }])),
    },
  }) as unknown as PrismaClient;
}
