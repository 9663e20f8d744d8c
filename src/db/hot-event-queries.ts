// What an event may cause, asked before its transaction by prepared statements for hot-queries.ts: whether any
// active hook reaches the repository, and whether any merge waits for its commits. Both are mostly "no", and a
// commit status asked each through Prisma (the auto-merge one by reading every schedule of the site).
import type BetterSqlite3 from 'better-sqlite3';
import { positionalSql } from './sqlite-values.ts';
import type { PostgresRun } from './sql-dialects.ts';

export interface EventHotQueries {
  /** Whether an active hook of the repository, of its owner or of the system exists. */
  activeHookExists(ownerId: number, repoId: number): Promise<boolean>;
  /** Whether a merge is scheduled for an open pull request into the repository. */
  pendingAutoMergeExists(repoId: number): Promise<boolean>;
}

const ACTIVE_HOOK_SQL = `SELECT 1 AS "found" FROM "Webhook" WHERE "isActive" = TRUE AND ("repoId" = $1
  OR ("ownerId" = $2 AND "repoId" = 0) OR ("ownerId" = 0 AND "repoId" = 0 AND "isSystemWebhook" = TRUE)) LIMIT 1`;
const PENDING_AUTO_MERGE_SQL = `SELECT 1 AS "found" FROM "PullAutoMerge" a
  JOIN "PullRequest" p ON p."id" = a."pullId" WHERE p."baseRepoId" = $1 AND p."hasMerged" = FALSE LIMIT 1`;

export function sqliteEventQueries(db: BetterSqlite3.Database): EventHotQueries {
  const activeHook = db.prepare(positionalSql(ACTIVE_HOOK_SQL)).pluck();
  const pendingAutoMerge = db.prepare(positionalSql(PENDING_AUTO_MERGE_SQL)).pluck();
  return {
    activeHookExists: async (ownerId, repoId) => activeHook.get(repoId, ownerId) !== undefined,
    pendingAutoMergeExists: async (repoId) => pendingAutoMerge.get(repoId) !== undefined,
  };
}

export function postgresEventQueries(run: PostgresRun): EventHotQueries {
  return {
    activeHookExists: async (ownerId, repoId) =>
      (await run('anvil_active_hook_exists', ACTIVE_HOOK_SQL, [repoId, ownerId])).rows.length > 0,
    pendingAutoMergeExists: async (repoId) =>
      (await run('anvil_pending_auto_merge_exists', PENDING_AUTO_MERGE_SQL, [repoId])).rows.length > 0,
  };
}
