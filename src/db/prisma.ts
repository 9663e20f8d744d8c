// The Prisma client type the code is written against. The PostgreSQL client has the same API for this schema.
import { empty, join, sqltag } from '@prisma/client/runtime/client';
import type { Prisma, PrismaClient } from '../../generated/prisma/sqlite/client.ts';

export type { PrismaClient } from '../../generated/prisma/sqlite/client.ts';
export type { Prisma } from '../../generated/prisma/sqlite/client.ts';

/**
 * SQL fragments for $queryRaw, taken from Prisma's runtime: taken through a generated client they would load that
 * client, the SQLite one, on a PostgreSQL server as well.
 */
export const PrismaSql = { sql: sqltag, empty, join } as const;
export type * as Models from '../../generated/prisma/sqlite/models.ts';
export type { User, Repository, Team, AccessToken } from '../../generated/prisma/sqlite/client.ts';

/** What a repository queries through: the client, or the transaction it takes part in. */
export type DbClient = PrismaClient | Prisma.TransactionClient;
