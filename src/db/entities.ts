// The model row types services and the API work with, without the database client or its query types.
export type * as Models from '../../generated/prisma/sqlite/models.ts';
export type { User, Repository, Team, AccessToken } from '../../generated/prisma/sqlite/client.ts';
