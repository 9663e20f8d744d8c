// Empties the LookupCache on every write to a User or AccessToken row, in one place: a Prisma query extension on
// those two models (every account change goes through Prisma; the hot statements only read, and record a token's
// use, which the cache follows itself). A write inside a transaction empties it at once and again after the commit
// (Transactions.run), so a lookup that read the old row meanwhile is not kept.
import type { LookupCache } from './lookup-cache.ts';
import type { PrismaClient } from './prisma.ts';

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

interface QueryParams {
  operation: string;
  args: unknown;
  query: (args: unknown) => Promise<unknown>;
}

/** The client, with every write to User and AccessToken reported to the cache once it is done. */
export function invalidatingLookups(prisma: PrismaClient, cache: LookupCache): PrismaClient {
  const report = async ({ operation, args, query }: QueryParams) => {
    if (!WRITES.has(operation)) return query(args);
    const result = await query(args);
    await cache.changed();
    return result;
  };
  return prisma.$extends({
    query: { user: { $allOperations: report }, accessToken: { $allOperations: report } },
  }) as unknown as PrismaClient;
}
