// The Prisma client type the code is written against. The PostgreSQL client has the same API for this schema.
import type { Prisma, PrismaClient } from '../../generated/prisma/sqlite/client.ts';

export type { PrismaClient } from '../../generated/prisma/sqlite/client.ts';
export { Prisma } from '../../generated/prisma/sqlite/client.ts';
export type * as Models from '../../generated/prisma/sqlite/models.ts';
export type { User, Repository, Team, AccessToken } from '../../generated/prisma/sqlite/client.ts';

/** What a repository queries through: the client, or the transaction it takes part in. */
export type DbClient = PrismaClient | Prisma.TransactionClient;
