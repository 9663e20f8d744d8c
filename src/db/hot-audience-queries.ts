// Who may hear of an issue event, asked before its transaction by prepared statements for hot-queries.ts: the
// issue's watchers and unwatchers, the repository's watchers, its commenters (one statement on PostgreSQL), and the
// users among them who do not block the actor. A comment asked each through Prisma inside its transaction.
import type BetterSqlite3 from 'better-sqlite3';
import { positionalSql } from './sqlite-values.ts';
import type { User } from './prisma.ts';
import { postgresUser, sqliteUserFromValues, USER_COLUMNS } from './hot-user-rows.ts';
import { type Dialect, POSTGRES, type PostgresRun, SQLITE } from './sql-dialects.ts';

/** Who looks at an issue event: its watch rows, the repository's watchers and the issue's commenters. */
export interface IssueAudienceRows {
  watches: Array<{ userId: number; isWatching: boolean }>;
  /** Users watching the repository (watch modes 1 and 3). */
  repoWatcherIds: number[];
  /** Each user who wrote a comment of the type asked on the issue, once. */
  commenterIds: number[];
}

export interface AudienceHotQueries {
  /** One statement on PostgreSQL, not three. */
  issueAudience(issueId: number, repoId: number, commentType: number): Promise<IssueAudienceRows>;
  /** Of `userIds`, those who block `blockeeId`. */
  blockerIds(blockeeId: number, userIds: readonly number[]): Promise<number[]>;
  /** The users of these ids that exist, in no particular order. */
  usersByIds(ids: readonly number[]): Promise<User[]>;
  /** The users of these ids that exist and do not block `blockeeId`, in no particular order. */
  usersNotBlocking(blockeeId: number, ids: readonly number[]): Promise<User[]>;
}

const ISSUE_WATCHES_SQL = `SELECT "userId", "isWatching" FROM "IssueWatch" WHERE "issueId" = $1`;
const REPO_WATCHERS_SQL = `SELECT "userId" FROM "Watch" WHERE "repoId" = $1 AND "mode" IN (1, 3)`;
/**
 * SQLite: each commenter of a type on an issue once ($1, $3 the issue; $2, $4 the type), by a loose index scan: one
 * seek on (issueId, type, posterId) per commenter, however many comments they wrote. 5,000 comments on an issue took
 * DISTINCT 0.35 ms; this 0.05 ms. On PostgreSQL the recursive statement's planning cost more than it saved for an issue
 * of few comments, so DISTINCT stays there.
 */
const SQLITE_COMMENTERS_SQL = `WITH RECURSIVE p(id) AS (
    SELECT MIN("posterId") FROM "Comment" WHERE "issueId" = $1 AND "type" = $2
    UNION ALL
    SELECT (SELECT MIN(c."posterId") FROM "Comment" c WHERE c."issueId" = $3 AND c."type" = $4 AND c."posterId" > p.id)
    FROM p WHERE p.id IS NOT NULL)
  SELECT id FROM p WHERE id IS NOT NULL`;
const blockersSql = (dialect: Dialect) =>
  `SELECT "blockerId" FROM "UserBlocking" WHERE "blockeeId" = $1 AND ${dialect.inList('"blockerId"', '$2')}`;
const usersSql = (dialect: Dialect) => `SELECT ${USER_COLUMNS} FROM "User" WHERE ${dialect.inList('"id"', '$1')}`;
const usersNotBlockingSql = (dialect: Dialect) => `${usersSql(dialect)}
  AND NOT EXISTS (SELECT 1 FROM "UserBlocking" b WHERE b."blockerId" = "User"."id" AND b."blockeeId" = $2)`;
/** $1 the issue, $2 its repository, $3 the comment type. */
const POSTGRES_ISSUE_AUDIENCE_SQL = `SELECT
  COALESCE((SELECT json_agg(json_build_object('userId', w."userId", 'isWatching', w."isWatching"))
    FROM "IssueWatch" w WHERE w."issueId" = $1), '[]'::json) AS "watches",
  COALESCE((SELECT json_agg(w."userId") FROM "Watch" w WHERE w."repoId" = $2 AND w."mode" IN (1, 3)), '[]'::json)
    AS "repoWatcherIds",
  COALESCE((SELECT json_agg(DISTINCT c."posterId") FROM "Comment" c WHERE c."issueId" = $1 AND c."type" = $3),
    '[]'::json) AS "commenterIds"`;

export function sqliteAudienceQueries(db: BetterSqlite3.Database): AudienceHotQueries {
  const prepare = (sql: string) => db.prepare(positionalSql(sql));
  const issueWatches = prepare(ISSUE_WATCHES_SQL).raw(true);
  const repoWatchers = prepare(REPO_WATCHERS_SQL).pluck();
  const commenters = prepare(SQLITE_COMMENTERS_SQL).pluck();
  const blockers = prepare(blockersSql(SQLITE)).pluck();
  const users = prepare(usersSql(SQLITE)).raw(true);
  const usersNotBlocking = prepare(usersNotBlockingSql(SQLITE)).raw(true);
  return {
    // SQLite answers in-process: the statements apart cost no round trips.
    issueAudience: async (issueId, repoId, commentType) => ({
      watches: (issueWatches.all(issueId) as Array<[number, number]>).map(([userId, isWatching]) => ({
        userId,
        isWatching: isWatching === 1,
      })),
      repoWatcherIds: repoWatchers.all(repoId) as number[],
      commenterIds: commenters.all(issueId, commentType, issueId, commentType) as number[],
    }),
    blockerIds: async (blockeeId, userIds) =>
      userIds.length ? (blockers.all(blockeeId, SQLITE.list(userIds)) as number[]) : [],
    usersByIds: async (ids) =>
      ids.length ? (users.all(SQLITE.list(ids)) as unknown[][]).map(sqliteUserFromValues) : [],
    usersNotBlocking: async (blockeeId, ids) =>
      ids.length ? (usersNotBlocking.all(SQLITE.list(ids), blockeeId) as unknown[][]).map(sqliteUserFromValues) : [],
  };
}

export function postgresAudienceQueries(run: PostgresRun): AudienceHotQueries {
  const column = async (name: string, text: string, values: unknown[], key: string) =>
    (await run(name, text, values)).rows.map((row) => row[key] as number);
  return {
    issueAudience: async (issueId, repoId, commentType) =>
      (await run('anvil_issue_audience', POSTGRES_ISSUE_AUDIENCE_SQL, [issueId, repoId, commentType]))
        .rows[0] as unknown as IssueAudienceRows,
    blockerIds: async (blockeeId, userIds) =>
      userIds.length
        ? column('anvil_blockers_of', blockersSql(POSTGRES), [blockeeId, POSTGRES.list(userIds)], 'blockerId')
        : [],
    usersByIds: async (ids) =>
      ids.length
        ? (await run('anvil_users_by_ids', usersSql(POSTGRES), [POSTGRES.list(ids)])).rows.map(postgresUser)
        : [],
    usersNotBlocking: async (blockeeId, ids) =>
      ids.length
        ? (
            await run('anvil_users_not_blocking', usersNotBlockingSql(POSTGRES), [POSTGRES.list(ids), blockeeId])
          ).rows.map(postgresUser)
        : [],
  };
}
