// The model row types services and the API work with, without the database client or its query types.
export type * as Models from '../../generated/prisma/sqlite/models.ts';
export type { User, Repository, Team, AccessToken } from '../../generated/prisma/sqlite/client.ts';
import type { Repository, Team, User } from '../../generated/prisma/sqlite/client.ts';

/** Column values an update writes: plain values only (counters move through the repositories' own methods). */
export type ColumnChanges<Row> = Partial<Omit<Row, 'id'>>;
export type UserChangesRow = ColumnChanges<User>;
export type TeamChangesRow = ColumnChanges<Team>;
export type RepositoryChangesRow = ColumnChanges<Repository>;
