// Who may hear of an issue event, asked before its transaction by prepared statements for hot-queries.ts: the
// issue's watchers and unwatchers, the repository's watchers, its commenters, and which of them block the actor.
// A comment asked each through Prisma inside its transaction.
import type BetterSqlite3 from 'better-sqlite3';
import { positionalSql } from './sqlite-values.ts';
import type { User } from './prisma.ts';
import { postgresUser, sqliteUserFromValues, USER_COLUMNS } from './hot-user-rows.ts';
import { type Dialect, POSTGRES, type PostgresRun, SQLITE } from './sql-dialects.ts';

export interface AudienceHotQueries {
  issueWatches(issueId: number): Promise<Array<{ userId: number; isWatching: boolean }>>;
  /** Users watching the repository (watch modes 1 and 3). */
  repoWatcherIds(repoId: number): Promise<number[]>;
  /** Each user who wrote a comment of this type on the issue, once. */
  commenterIds(issueId: number, type: number): Promise<number[]>;
  /** Of `userIds`, those who block `blockeeId`. */
  blockerIds(blockeeId: number, userIds: readonly number[]): Promise<number[]>;
  /** The users of these ids that exist, in no particular order. */
  usersByIds(ids: readonly number[]): Promise<User[]>;
}

const ISSUE_WATCHES_SQL = `SELECT "userId", "isWatching" FROM "IssueWatch" WHERE "issueId" = $1`;
const REPO_WATCHERS_SQL = `SELECT "userId" FROM "Watch" WHERE "repoId" = $1 AND "mode" IN (1, 3)`;
const COMMENTERS_SQL = `SELECT DISTINCT "posterId" FROM "Comment" WHERE "issueId" = $1 AND "type" = $2`;
const blockersSql = (dialect: Dialect) =>
  `SELECT "blockerId" FROM "UserBlocking" WHERE "blockeeId" = $1 AND ${dialect.inList('"blockerId"', '$2')}`;
const usersSql = (dialect: Dialect) => `SELECT ${USER_COLUMNS} FROM "User" WHERE ${dialect.inList('"id"', '$1')}`;

export function sqliteAudienceQueries(db: BetterSqlite3.Database): AudienceHotQueries {
  const prepare = (sql: string) => db.prepare(positionalSql(sql));
  const issueWatches = prepare(ISSUE_WATCHES_SQL).raw(true);
  const repoWatchers = prepare(REPO_WATCHERS_SQL).pluck();
  const commenters = prepare(COMMENTERS_SQL).pluck();
  const blockers = prepare(blockersSql(SQLITE)).pluck();
  const users = prepare(usersSql(SQLITE)).raw(true);
  return {
    issueWatches: async (issueId) =>
      (issueWatches.all(issueId) as Array<[number, number]>).map(([userId, isWatching]) => ({
        userId,
        isWatching: isWatching === 1,
      })),
    repoWatcherIds: async (repoId) => repoWatchers.all(repoId) as number[],
    commenterIds: async (issueId, type) => commenters.all(issueId, type) as number[],
    blockerIds: async (blockeeId, userIds) =>
      userIds.length ? (blockers.all(blockeeId, SQLITE.list(userIds)) as number[]) : [],
    usersByIds: async (ids) =>
      ids.length ? (users.all(SQLITE.list(ids)) as unknown[][]).map(sqliteUserFromValues) : [],
  };
}

export function postgresAudienceQueries(run: PostgresRun): AudienceHotQueries {
  const column = async (name: string, text: string, values: unknown[], key: string) =>
    (await run(name, text, values)).rows.map((row) => row[key] as number);
  return {
    issueWatches: async (issueId) =>
      (await run('anvil_issue_watches', ISSUE_WATCHES_SQL, [issueId])).rows.map((row) => ({
        userId: row.userId as number,
        isWatching: row.isWatching as boolean,
      })),
    repoWatcherIds: (repoId) => column('anvil_repo_watchers', REPO_WATCHERS_SQL, [repoId], 'userId'),
    commenterIds: (issueId, type) => column('anvil_commenters', COMMENTERS_SQL, [issueId, type], 'posterId'),
    blockerIds: async (blockeeId, userIds) =>
      userIds.length
        ? column('anvil_blockers_of', blockersSql(POSTGRES), [blockeeId, POSTGRES.list(userIds)], 'blockerId')
        : [],
    usersByIds: async (ids) =>
      ids.length
        ? (await run('anvil_users_by_ids', usersSql(POSTGRES), [POSTGRES.list(ids)])).rows.map(postgresUser)
        : [],
  };
}
