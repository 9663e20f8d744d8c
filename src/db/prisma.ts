// The Prisma client type the code is written against. The PostgreSQL client has the same API for this schema.
export type { PrismaClient } from '../../generated/prisma/sqlite/client.ts';
export { Prisma } from '../../generated/prisma/sqlite/client.ts';
export type * as Models from '../../generated/prisma/sqlite/models.ts';
export type { User, Repository, Team, AccessToken } from '../../generated/prisma/sqlite/client.ts';

import type { PrismaClient as Client, Prisma as PrismaNamespace } from '../../generated/prisma/sqlite/client.ts';
/** What a repository runs its queries on: the client, or the transaction it was made for. */
export type DbClient = Client | PrismaNamespace.TransactionClient;
