// Bulk seeding for the list benches: rows written straight into the database in multi-row INSERTs, on SQLite
// (better-sqlite3, one transaction) or PostgreSQL (pg, one transaction), never through the API.
// seedLists grows the lists from one size to a larger one, so one database serves the 1,000- and 100,000-row runs.
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { hashAccessToken, lastEight, newAccessToken } from '../src/auth/access-token.ts';

/** Rows per INSERT: under PostgreSQL's 65,535 bound parameters and SQLite's 32,766 at ten columns. */
const BATCH = 1_000;
/** Threads of each other user, so the table holds ten times the measured user's list. */
const OTHER_THREADS_PER_USER = 9;
/** Repositories of the big organization that hold the issues. */
const ISSUE_REPOS = 100;

type Value = string | number | boolean | Date | null;

/** A database the seeder writes to: multi-row INSERTs and single queries. */
export interface BulkDatabase {
  provider: 'sqlite' | 'postgresql';
  insert(table: string, columns: string[], rows: Value[][]): Promise<void>;
  /** Ids of the inserted rows, in order (one INSERT … RETURNING). */
  insertReturningIds(table: string, columns: string[], rows: Value[][]): Promise<number[]>;
  query<T>(sql: string, values?: Value[]): Promise<T[]>;
  transaction(fn: () => Promise<void>): Promise<void>;
  /** Refreshes the planner's statistics. */
  analyze(): Promise<void>;
  close(): Promise<void>;
}

function insertSql(table: string, columns: string[], rows: number, numbered: boolean): string {
  let n = 0;
  const tuple = () => `(${columns.map(() => (numbered ? `$${++n}` : '?')).join(', ')})`;
  return `INSERT INTO "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${Array.from({ length: rows }, tuple).join(', ')}`;
}

function sqliteValue(value: Value): string | number | null {
  if (typeof value === 'boolean') return value ? 1 : 0;
  // The same text form the Prisma adapter writes.
  if (value instanceof Date) return value.toISOString().replace('Z', '+00:00');
  return value;
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) out.push(rows.slice(i, i + BATCH));
  return out;
}

export function sqliteBulk(file: string): BulkDatabase {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare(sql)));
    return statement;
  };
  return {
    provider: 'sqlite',
    async insert(table, columns, rows) {
      for (const chunk of chunks(rows))
        prepared(insertSql(table, columns, chunk.length, false)).run(...chunk.flat().map(sqliteValue));
    },
    async insertReturningIds(table, columns, rows) {
      const ids: number[] = [];
      for (const chunk of chunks(rows)) {
        const sql = `${insertSql(table, columns, chunk.length, false)} RETURNING "id"`;
        ids.push(
          ...(prepared(sql)
            .pluck()
            .all(...chunk.flat().map(sqliteValue)) as number[]),
        );
      }
      return ids;
    },
    async query<T>(sql: string, values: Value[] = []) {
      return db.prepare(sql.replace(/\$\d+/g, '?')).all(...values.map(sqliteValue)) as T[];
    },
    async transaction(fn) {
      db.exec('BEGIN');
      try {
        await fn();
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    },
    async analyze() {
      db.exec('ANALYZE');
      db.pragma('optimize');
    },
    async close() {
      db.close();
    },
  };
}

export async function postgresBulk(url: string): Promise<BulkDatabase> {
  const client = new pg.Client({ connectionString: url });
  // A connection ended by the server (the bench dropping its database after a failure) is not a crash.
  client.on('error', () => undefined);
  await client.connect();
  return {
    provider: 'postgresql',
    async insert(table, columns, rows) {
      for (const chunk of chunks(rows)) await client.query(insertSql(table, columns, chunk.length, true), chunk.flat());
    },
    async insertReturningIds(table, columns, rows) {
      const ids: number[] = [];
      for (const chunk of chunks(rows)) {
        const sql = `${insertSql(table, columns, chunk.length, true)} RETURNING "id"`;
        ids.push(...(await client.query(sql, chunk.flat())).rows.map((row) => Number(row.id)));
      }
      return ids;
    },
    async query<T>(sql: string, values: Value[] = []) {
      return (await client.query(sql, values)).rows as T[];
    },
    async transaction(fn) {
      await client.query('BEGIN');
      try {
        await fn();
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
    },
    async analyze() {
      await client.query('VACUUM ANALYZE');
    },
    async close() {
      await client.end();
    },
  };
}

/** Who the list benches read as, and what they read. */
export interface ListSeed {
  /** A site administrator's token (admin lists). */
  adminToken: string;
  /** An ordinary user's token: repository and issue search, notifications. */
  readerToken: string;
  /** The organization holding the repository list. */
  orgName: string;
}

const USER_COLUMNS = ['type', 'name', 'lowerName', 'email', 'isAdmin', 'loginName', 'createdAt', 'updatedAt'];

function userRow(type: number, name: string, isAdmin: boolean, at: Date): Value[] {
  return [type, name, name.toLowerCase(), type === 0 ? `${name}@example.com` : '', isAdmin, name, at, at];
}

async function tokenFor(db: BulkDatabase, userId: number, at: Date): Promise<string> {
  const token = newAccessToken();
  await db.insert(
    'AccessToken',
    ['userId', 'name', 'tokenHash', 'tokenLastEight', 'scope', 'createdAt', 'updatedAt'],
    [[userId, 'bench-lists', hashAccessToken(token), lastEight(token), 'all', at, at]],
  );
  return token;
}

/** The administrator, the reader and the organization every list is read through; once per database. */
export async function seedListOwners(db: BulkDatabase): Promise<ListSeed & { orgId: number; readerId: number }> {
  const at = new Date(Date.UTC(2020, 0, 1));
  let ids: number[] = [];
  await db.transaction(async () => {
    ids = await db.insertReturningIds('User', USER_COLUMNS, [
      userRow(0, 'benchadmin', true, at),
      userRow(0, 'benchreader', false, at),
      userRow(1, 'benchorg', false, at),
    ]);
  });
  const [adminId, readerId, orgId] = ids;
  return {
    adminToken: await tokenFor(db, adminId, at),
    readerToken: await tokenFor(db, readerId, at),
    orgName: 'benchorg',
    orgId,
    readerId,
  };
}

/**
 * Grows every list from `from` rows to `to`: individual users and organizations (admin lists), repositories of the
 * organization (its list and the repository search), issues over its first ISSUE_REPOS repositories (issue search),
 * and notification threads: one per issue for the reader, OTHER_THREADS_PER_USER for each other user.
 */
export async function seedLists(
  db: BulkDatabase,
  owners: { orgId: number; readerId: number },
  from: number,
  to: number,
): Promise<number> {
  const started = performance.now();
  const base = Date.UTC(2021, 0, 1);
  const at = (i: number) => new Date(base + i * 1000);
  const range = (map: (i: number) => Value[]) => Array.from({ length: to - from }, (_, k) => map(from + k));
  await db.transaction(async () => {
    const userIds = await db.insertReturningIds(
      'User',
      USER_COLUMNS,
      range((i) => userRow(0, `luser${i}`, false, at(i))),
    );
    await db.insert(
      'User',
      USER_COLUMNS,
      range((i) => userRow(1, `lorg${i}`, false, at(i))),
    );
    const repoIds = await db.insertReturningIds(
      'Repository',
      ['ownerId', 'ownerName', 'name', 'lowerName', 'isPrivate', 'createdAt', 'updatedAt'],
      range((i) => [owners.orgId, 'benchorg', `repo${i}`, `repo${i}`, false, at(i), at(i)]),
    );
    await db.insert(
      'RepoUnit',
      ['repoId', 'type'],
      repoIds.flatMap((id) => [1, 2, 3].map((type) => [id, type])),
    );
    const issueRepos = await db.query<{ id: number }>(
      `SELECT "id" FROM "Repository" WHERE "ownerId" = $1 ORDER BY "id" LIMIT ${ISSUE_REPOS}`,
      [owners.orgId],
    );
    const issueIds = await db.insertReturningIds(
      'Issue',
      ['repoId', 'index', 'posterId', 'title', 'isClosed', 'createdAt', 'updatedAt'],
      range((i) => [
        Number(issueRepos[i % issueRepos.length].id),
        Math.floor(i / issueRepos.length) + 1,
        owners.readerId,
        `issue ${i} word${i % 1000}`,
        i % 5 === 0,
        at(i),
        at(i),
      ]),
    );
    const firstIssue = await db.query<{ id: number }>(`SELECT MIN("id") AS "id" FROM "Issue"`);
    const issueCount = to;
    const issueRepo = (k: number) => Number(issueRepos[k % issueRepos.length].id);
    const threads: Value[][] = issueIds.map((issueId, k) => {
      const i = from + k;
      return [owners.readerId, issueRepo(i), i % 3 === 0 ? 2 : 1, 1, issueId, at(i), at(i)];
    });
    userIds.forEach((userId, k) => {
      for (let t = 0; t < OTHER_THREADS_PER_USER; t++) {
        const issue = ((from + k) * OTHER_THREADS_PER_USER + t) % issueCount;
        threads.push([userId, issueRepo(issue), 1, 1, Number(firstIssue[0].id) + issue, at(issue), at(issue)]);
      }
    });
    await db.insert(
      'Notification',
      ['userId', 'repoId', 'status', 'source', 'issueId', 'createdAt', 'updatedAt'],
      threads,
    );
  });
  await db.analyze();
  return (performance.now() - started) / 1000;
}
