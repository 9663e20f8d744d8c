// A notification poll's queries as prepared statements for hot-queries.ts: the page of threads, their count per
// repository and source, and the issues, pulls and last comments the page shows (one statement on PostgreSQL).
// Through Prisma they were six queries of about 0.25 ms of CPU each, on the request bots make most after GETs. Rows
// come back in the Prisma model's shape. Only outside a transaction: they read committed rows.
import type BetterSqlite3 from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { Models } from './entities.ts';
import {
  modelColumns,
  type ModelColumns,
  prefixedPostgresRow,
  prefixedSelect,
  sqliteModelRow,
} from './model-columns.ts';
import { positionalSql } from './sqlite-values.ts';
import { type Dialect, POSTGRES, type PostgresRun, SQLITE } from './sql-dialects.ts';

type NotificationRow = Models.NotificationModel;
type IssueRow = Models.IssueModel;
type PullRequestRow = Models.PullRequestModel;
type CommentRow = Models.CommentModel;

/** Which of a user's threads: absent fields do not narrow it (visibility is checked on the rows read). */
export interface ThreadColumns {
  userId: number;
  repoId?: number;
  statuses?: readonly number[];
  sources?: readonly number[];
  updatedFrom?: Date;
  updatedTo?: Date;
}

export interface ThreadGroup {
  repoId: number;
  source: number;
  count: number;
}

export interface ContentHotQueries {
  /** The first `take` of the selected threads, newest update first (oldest first when `reversed`). */
  threads(columns: ThreadColumns, reversed: boolean, take: number): Promise<NotificationRow[]>;
  /** How many threads the columns select, per repository and source, by repository and source. */
  threadGroups(columns: ThreadColumns, limit: number): Promise<ThreadGroup[]>;
  issuesByIds(ids: readonly number[]): Promise<IssueRow[]>;
  /** An issue or pull request by its number in the repository (every issue request starts with it). */
  issueByIndex(repoId: number, index: number): Promise<IssueRow | null>;
  pullsOfIssues(issueIds: readonly number[]): Promise<PullRequestRow[]>;
  /** The newest comment of `type` of each issue. */
  lastCommentsOf(issueIds: readonly number[], type: number): Promise<CommentRow[]>;
  /** The issues with their pulls and newest comments of `type`: one statement on PostgreSQL, not three. */
  issueRecords(ids: readonly number[], type: number): Promise<IssueRecordRows>;
}

/** Issues as a page of threads shows them. */
export interface IssueRecordRows {
  issues: IssueRow[];
  pulls: PullRequestRow[];
  lastComments: CommentRow[];
}

const NOTIFICATION = modelColumns<NotificationRow>()(
  [
    'id',
    'userId',
    'repoId',
    'status',
    'source',
    'issueId',
    'commitId',
    'commentId',
    'updatedBy',
    'createdAt',
    'updatedAt',
  ],
  { dates: ['createdAt', 'updatedAt'] },
);
const ISSUE = modelColumns<IssueRow>()(
  [
    'id',
    'repoId',
    'index',
    'posterId',
    'title',
    'content',
    'isClosed',
    'isPull',
    'milestoneId',
    'numComments',
    'deadlineAt',
    'closedAt',
    'createdAt',
    'updatedAt',
  ],
  { booleans: ['isClosed', 'isPull'], dates: ['deadlineAt', 'closedAt', 'createdAt', 'updatedAt'] },
);
const PULL_REQUEST = modelColumns<PullRequestRow>()(
  [
    'id',
    'issueId',
    'baseRepoId',
    'headRepoId',
    'headBranch',
    'baseBranch',
    'mergeBase',
    'headCommitId',
    'hasMerged',
    'mergedAt',
    'mergedById',
    'mergedCommitId',
    'createdAt',
  ],
  { booleans: ['hasMerged'], dates: ['mergedAt', 'createdAt'] },
);
const COMMENT = modelColumns<CommentRow>()(['id', 'type', 'posterId', 'issueId', 'content', 'createdAt', 'updatedAt'], {
  dates: ['createdAt', 'updatedAt'],
});

/** The WHERE clause of the columns, its values, and a key naming its shape (one statement per shape). */
function threadWhere(columns: ThreadColumns, dialect: Dialect): { sql: string; values: unknown[]; shape: string } {
  const values: unknown[] = [columns.userId];
  const terms = ['"userId" = $1'];
  let shape = '';
  const add = (mark: string, term: (placeholder: string) => string, value: unknown) => {
    values.push(value);
    terms.push(term(`$${values.length}`));
    shape += mark;
  };
  if (columns.repoId !== undefined) add('r', (p) => `"repoId" = ${p}`, columns.repoId);
  if (columns.statuses?.length) add('s', (p) => dialect.inList('"status"', p), dialect.list(columns.statuses));
  if (columns.sources?.length) add('k', (p) => dialect.inList('"source"', p), dialect.list(columns.sources));
  if (columns.updatedFrom) add('f', (p) => `"updatedAt" >= ${p}`, dialect.date(columns.updatedFrom));
  if (columns.updatedTo) add('t', (p) => `"updatedAt" <= ${p}`, dialect.date(columns.updatedTo));
  return { sql: terms.join(' AND '), values, shape };
}

function threadsSql(where: string, reversed: boolean, limit: string): string {
  const direction = reversed ? 'ASC' : 'DESC';
  return `SELECT ${NOTIFICATION.select} FROM "Notification" WHERE ${where}
    ORDER BY "updatedAt" ${direction}, "id" ${direction} LIMIT ${limit}`;
}

function threadGroupsSql(where: string, limit: string): string {
  return `SELECT "repoId", "source", COUNT(*) AS "count" FROM "Notification" WHERE ${where}
    GROUP BY "repoId", "source" ORDER BY "repoId", "source" LIMIT ${limit}`;
}

const byIdsSql = (columns: ModelColumns, table: string, key: string, dialect: Dialect) =>
  `SELECT ${columns.select} FROM "${table}" WHERE ${dialect.inList(`"${key}"`, '$1')}`;
const ISSUE_BY_INDEX_SQL = `SELECT ${ISSUE.select} FROM "Issue" WHERE "repoId" = $1 AND "index" = $2`;
// Each issue's last comment found on the (issueId, type, id) index, however many comments it has.
const lastCommentsSql = (dialect: Dialect) =>
  `SELECT ${COMMENT.select} FROM "Comment" WHERE "id" IN (SELECT (SELECT MAX(c."id") FROM "Comment" c
    WHERE c."issueId" = ids.value AND c."type" = $1) FROM ${dialect.listTable('$2')})`;

/** $1 the issue ids, $2 the comment type. */
const POSTGRES_ISSUE_RECORDS_SQL = `SELECT ${prefixedSelect(ISSUE, 'i', '')},
    ${prefixedSelect(PULL_REQUEST, 'p', 'pull_')}, ${prefixedSelect(COMMENT, 'c', 'comment_')}
  FROM "Issue" i LEFT JOIN "PullRequest" p ON p."issueId" = i."id"
  LEFT JOIN "Comment" c ON c."id" = (SELECT MAX(l."id") FROM "Comment" l WHERE l."issueId" = i."id" AND l."type" = $2)
  WHERE ${POSTGRES.inList('i."id"', '$1')}`;

export function sqliteContentQueries(db: BetterSqlite3.Database): ContentHotQueries {
  // Filters make texts of their own: a bounded set of them is kept prepared.
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: 100 });
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(positionalSql(sql))));
    return statement;
  };
  const rows = <M>(columns: ModelColumns, sql: string, values: unknown[]) =>
    (prepared(sql).all(...values) as Array<Record<string, unknown>>).map((row) => sqliteModelRow<M>(columns, row));
  const issues = byIdsSql(ISSUE, 'Issue', 'id', SQLITE);
  const pulls = byIdsSql(PULL_REQUEST, 'PullRequest', 'issueId', SQLITE);
  const lastComments = lastCommentsSql(SQLITE);
  return {
    async threads(columns, reversed, take) {
      const where = threadWhere(columns, SQLITE);
      // The count written into the text: a bound LIMIT makes SQLite prepare the statement again on every run.
      const sql = threadsSql(where.sql, reversed, String(Math.trunc(take)));
      return rows<NotificationRow>(NOTIFICATION, sql, where.values);
    },
    async threadGroups(columns, limit) {
      const where = threadWhere(columns, SQLITE);
      const sql = threadGroupsSql(where.sql, String(Math.trunc(limit)));
      return prepared(sql).all(...where.values) as ThreadGroup[];
    },
    issuesByIds: async (ids) => rows<IssueRow>(ISSUE, issues, [SQLITE.list(ids)]),
    issueByIndex: async (repoId, index) => rows<IssueRow>(ISSUE, ISSUE_BY_INDEX_SQL, [repoId, index])[0] ?? null,
    pullsOfIssues: async (issueIds) => rows<PullRequestRow>(PULL_REQUEST, pulls, [SQLITE.list(issueIds)]),
    lastCommentsOf: async (issueIds, type) => rows<CommentRow>(COMMENT, lastComments, [type, SQLITE.list(issueIds)]),
    // SQLite answers in-process: the statements apart cost no round trips.
    issueRecords: async (ids, type) => ({
      issues: rows<IssueRow>(ISSUE, issues, [SQLITE.list(ids)]),
      pulls: rows<PullRequestRow>(PULL_REQUEST, pulls, [SQLITE.list(ids)]),
      lastComments: rows<CommentRow>(COMMENT, lastComments, [type, SQLITE.list(ids)]),
    }),
  };
}

export function postgresContentQueries(run: PostgresRun): ContentHotQueries {
  const issues = byIdsSql(ISSUE, 'Issue', 'id', POSTGRES);
  const pulls = byIdsSql(PULL_REQUEST, 'PullRequest', 'issueId', POSTGRES);
  const lastComments = lastCommentsSql(POSTGRES);
  return {
    async threads(columns, reversed, take) {
      const where = threadWhere(columns, POSTGRES);
      const sql = threadsSql(where.sql, reversed, `$${where.values.length + 1}`);
      const name = `anvil_threads_${where.shape}_${reversed ? 'asc' : 'desc'}`;
      return (await run(name, sql, [...where.values, take])).rows as unknown as NotificationRow[];
    },
    async threadGroups(columns, limit) {
      const where = threadWhere(columns, POSTGRES);
      const sql = threadGroupsSql(where.sql, `$${where.values.length + 1}`);
      const { rows } = await run(`anvil_thread_groups_${where.shape}`, sql, [...where.values, limit]);
      return rows.map((row) => ({ repoId: row.repoId, source: row.source, count: Number(row.count) }) as ThreadGroup);
    },
    issuesByIds: async (ids) =>
      (await run('anvil_issues_by_ids', issues, [POSTGRES.list(ids)])).rows as unknown as IssueRow[],
    issueByIndex: async (repoId, index) =>
      ((await run('anvil_issue_by_index', ISSUE_BY_INDEX_SQL, [repoId, index])).rows[0] as IssueRow | undefined) ??
      null,
    pullsOfIssues: async (issueIds) =>
      (await run('anvil_pulls_of_issues', pulls, [POSTGRES.list(issueIds)])).rows as unknown as PullRequestRow[],
    lastCommentsOf: async (issueIds, type) =>
      (await run('anvil_last_comments_by_index', lastComments, [type, POSTGRES.list(issueIds)]))
        .rows as unknown as CommentRow[],
    async issueRecords(ids, type) {
      const { rows } = await run('anvil_issue_records', POSTGRES_ISSUE_RECORDS_SQL, [POSTGRES.list(ids), type]);
      const records: IssueRecordRows = { issues: [], pulls: [], lastComments: [] };
      for (const row of rows) {
        records.issues.push(prefixedPostgresRow<IssueRow>(ISSUE, row, '')!);
        const pull = prefixedPostgresRow<PullRequestRow>(PULL_REQUEST, row, 'pull_');
        if (pull) records.pulls.push(pull);
        const comment = prefixedPostgresRow<CommentRow>(COMMENT, row, 'comment_');
        if (comment) records.lastComments.push(comment);
      }
      return records;
    },
  };
}
