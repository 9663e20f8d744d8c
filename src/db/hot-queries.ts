// The lookups nearly every request makes, as prepared statements: a Prisma query costs ~0.5 ms of CPU,
// a prepared statement ~0.01 ms. Rows come back in the Prisma model's shape. Only the repositories use them
// (users, orgs, access tokens, health); the layers above call those.
import type BetterSqlite3 from 'better-sqlite3';
import { isSqliteBusy } from '../infra/database/errors.ts';
import { literalLimit } from '../infra/database/sqlite-statement-cache.ts';
import { LRUCache } from 'lru-cache';
import { positionalSql, sqliteDate, sqliteTimestamp } from './sqlite-values.ts';
import { postgresUser, sqliteUserFromValues, USER_COLUMNS } from './hot-user-rows.ts';
import type pg from 'pg';
import type { User } from './prisma.ts';
import { CountCache } from './count-cache.ts';
import { pageWindow } from './page-window.ts';
import { orgListSql, type PageSql, type UserListQuery, userListSql } from './user-list-sql.ts';
import {
  PACKAGE_FILE_SQL,
  PACKAGE_REVISION_SQL,
  OWNER_PACKAGES_REVISION_SQL,
  ownerPackagesRevision,
  type PackageFileDownload,
  type PackageFileKey,
  packageFileDownload,
  packageFileValues,
} from './hot-package-queries.ts';
import { type ContentHotQueries, postgresContentQueries, sqliteContentQueries } from './hot-content-queries.ts';
import { type EventHotQueries, postgresEventQueries, sqliteEventQueries } from './hot-event-queries.ts';
import { type AudienceHotQueries, postgresAudienceQueries, sqliteAudienceQueries } from './hot-audience-queries.ts';
import {
  postgresRepositoryQueries,
  type RepositoryHotQueries,
  sqliteRepositoryQueries,
} from './hot-repository-queries.ts';

export type { PackageFileDownload, PackageFileKey } from './hot-package-queries.ts';
export type { UserListOrder, UserListQuery } from './user-list-sql.ts';

export interface FoundToken {
  tokenId: number;
  scope: string;
  tokenUpdatedAt: Date;
  user: User;
}

/** A container image's manifest: its version's metadata and its bytes' size and address. */
export interface FoundManifest {
  metadataJson: string;
  size: number;
  hashSha256: string;
}

/** Which manifest of an image: a tag (lower-cased), or a digest's algorithm and hex. */
export type ManifestReference = { tag: string } | { algorithm: 'sha256' | 'sha512'; hex: string };

export interface HotQueries extends RepositoryHotQueries, ContentHotQueries, EventHotQueries, AudienceHotQueries {
  /** Counts kept until anything is committed (lists' X-Total-Count). */
  readonly counts: CountCache;
  /** The manifest of a container image by tag or digest (every pull starts with it). */
  containerManifest(ownerId: number, lowerImage: string, reference: ManifestReference): Promise<FoundManifest | null>;
  /** One page of individual users and the total, for the admin user list. */
  listIndividualUsers(query: UserListQuery): Promise<{ users: User[]; total: number }>;
  /** One page of every organization by name and the total, for the admin organization list. */
  listOrganizations(limit: number, offset: number): Promise<{ orgs: User[]; total: number }>;
  /** The token with this digest, and its user. */
  tokenByHash(tokenHash: string): Promise<FoundToken | null>;
  userByLowerName(lowerName: string): Promise<User | null>;
  userById(id: number): Promise<User | null>;
  repositoryExists(ownerId: number, lowerName: string): Promise<boolean>;
  /** A file of a visible package version, by lower-case names, with what a download needs. */
  packageFile(file: PackageFileKey): Promise<PackageFileDownload | null>;
  /** A package's id and revision (Package.revision), by which a kept index document is known current. */
  packageRevision(ownerId: number, type: string, lowerName: string): Promise<{ id: number; revision: number } | null>;
  /** A token that changes with any change of the owner's packages of a type (owner-wide index documents). */
  ownerPackagesRevision(ownerId: number, type: string): Promise<string>;
  touchToken(id: number, at: Date): Promise<void>;
  /** A trivial query: rejects when the database does not answer. */
  ping(): Promise<void>;
}

const TOKEN_SQL = `SELECT t."id" AS "tokenId", t."scope" AS "scope", t."updatedAt" AS "tokenUpdatedAt", u.*
  FROM "AccessToken" t JOIN "User" u ON u."id" = t."userId" WHERE t."tokenHash" = $1`;
/**
 * SQLite reads the token, then its user, in two statements: once ANALYZE has written STAT4 statistics, the join cost
 * 62 µs a run against 12 for the two lookups on the bench's database (SQLite re-prepares a statement whose bound
 * values may change a plan the statistics inform; single-table lookups by a unique key are not affected).
 */
const SQLITE_TOKEN_SQL = `SELECT "id", "scope", "updatedAt", "userId" FROM "AccessToken" WHERE "tokenHash" = $1`;
const USER_BY_NAME_SQL = `SELECT ${USER_COLUMNS} FROM "User" WHERE "lowerName" = $1`;
const USER_BY_ID_SQL = `SELECT ${USER_COLUMNS} FROM "User" WHERE "id" = $1`;
const REPOSITORY_EXISTS_SQL = `SELECT 1 AS "found" FROM "Repository" WHERE "ownerId" = $1 AND "lowerName" = $2`;
const ORG_LIST_SQL = orgListSql(USER_COLUMNS);
const MANIFEST_SQL = (match: string) => `SELECT v."metadataJson", b."size", b."hashSha256"
  FROM "Package" p JOIN "PackageVersion" v ON v."packageId" = p."id"
  JOIN "PackageFile" f ON f."versionId" = v."id" JOIN "PackageBlob" b ON b."id" = f."blobId"
  WHERE p."ownerId" = $1 AND p."type" = 'container' AND p."lowerName" = $2 AND NOT v."isInternal"
    AND f."lowerName" = 'manifest.json' AND ${match} ORDER BY f."id" LIMIT 1`;
const MANIFEST_SQL_BY = {
  tag: MANIFEST_SQL(`v."lowerVersion" = $3`),
  sha256: MANIFEST_SQL(`b."hashSha256" = $3`),
  sha512: MANIFEST_SQL(`b."hashSha512" = $3`),
};
const manifestQuery = (reference: ManifestReference) =>
  'tag' in reference
    ? { kind: 'tag' as const, value: reference.tag }
    : { kind: reference.algorithm, value: reference.hex };
const TOUCH_TOKEN_SQL = `UPDATE "AccessToken" SET "updatedAt" = $1 WHERE "id" = $2`;

export function sqliteHotQueries(db: BetterSqlite3.Database): HotQueries {
  const positional = (sql: string) => db.prepare(positionalSql(sql));
  const tokens = positional(SQLITE_TOKEN_SQL).raw(true);
  const userByName = positional(USER_BY_NAME_SQL).raw(true);
  const userById = positional(USER_BY_ID_SQL).raw(true);
  const repositoryExists = positional(REPOSITORY_EXISTS_SQL);
  const packageRevision = positional(PACKAGE_REVISION_SQL);
  const ownerRevision = positional(OWNER_PACKAGES_REVISION_SQL);
  const packageFile = positional(PACKAGE_FILE_SQL);
  const touch = positional(TOUCH_TOKEN_SQL);
  const ping = db.prepare('SELECT 1');
  const manifests = {
    tag: positional(MANIFEST_SQL_BY.tag).raw(true),
    sha256: positional(MANIFEST_SQL_BY.sha256).raw(true),
    sha512: positional(MANIFEST_SQL_BY.sha512).raw(true),
  };
  // This connection's only write is touchToken, which no count reads: its own commits do not change data_version.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  const counts = new CountCache(async () => dataVersion.get());
  // Page sizes and filters make texts of their own: a bounded set of them is kept prepared.
  const statements = new LRUCache<string, BetterSqlite3.Statement>({ max: 500 });
  const cached = (sql: string, raw = false) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = raw ? db.prepare(sql).raw(true) : db.prepare(sql)));
    return statement;
  };
  const page = async (sql: PageSql, values: unknown[], limit: number, offset: number) => {
    const total = await counts.count(`${sql.count}\0${JSON.stringify(values)}`, async () =>
      Number(
        cached(positionalSql(sql.count))
          .pluck()
          .get(...values),
      ),
    );
    const window = pageWindow(total, offset, limit);
    if (!window) return { users: [], total };
    // The page size written into the text: a bound LIMIT makes SQLite prepare the statement again on every run.
    const [text, args] = literalLimit(positionalSql(window.reversed ? sql.reversed : sql.forward), [
      ...values,
      window.take,
      window.skip,
    ]);
    const rows = cached(text, true).all(...args) as unknown[][];
    if (window.reversed) rows.reverse();
    return { users: rows.map(sqliteUserFromValues), total };
  };
  const hotUserById = async (id: number) => {
    const row = userById.get(id) as unknown[] | undefined;
    return row ? sqliteUserFromValues(row) : null;
  };
  const hotUserByLowerName = async (lowerName: string) => {
    const row = userByName.get(lowerName) as unknown[] | undefined;
    return row ? sqliteUserFromValues(row) : null;
  };
  return {
    ...sqliteRepositoryQueries(db, { userById: hotUserById, userByLowerName: hotUserByLowerName }),
    ...sqliteContentQueries(db),
    ...sqliteEventQueries(db),
    ...sqliteAudienceQueries(db),
    counts,
    async listIndividualUsers(query) {
      const { values, sql } = userListSql(USER_COLUMNS, query);
      return page(sql, values, query.limit, query.offset);
    },
    async listOrganizations(limit, offset) {
      const { users, total } = await page(ORG_LIST_SQL, [], limit, offset);
      return { orgs: users, total };
    },
    async tokenByHash(tokenHash) {
      const token = tokens.get(tokenHash) as [number, string, string, number] | undefined;
      const user = token && (userById.get(token[3]) as unknown[] | undefined);
      return user
        ? {
            tokenId: token[0],
            scope: token[1],
            tokenUpdatedAt: sqliteDate(token[2])!,
            user: sqliteUserFromValues(user),
          }
        : null;
    },
    userByLowerName: hotUserByLowerName,
    userById: hotUserById,
    async containerManifest(ownerId, lowerImage, reference) {
      const { kind, value } = manifestQuery(reference);
      const row = manifests[kind].get(ownerId, lowerImage, value) as [string, number | bigint, string] | undefined;
      return row ? { metadataJson: row[0], size: Number(row[1]), hashSha256: row[2] } : null;
    },
    async repositoryExists(ownerId, lowerName) {
      return repositoryExists.get(ownerId, lowerName) !== undefined;
    },
    async packageFile(key) {
      const row = packageFile.get(...packageFileValues(key)) as Record<string, unknown> | undefined;
      return row ? packageFileDownload(row) : null;
    },
    async packageRevision(ownerId, type, lowerName) {
      return (packageRevision.get(ownerId, type, lowerName) as { id: number; revision: number } | undefined) ?? null;
    },
    async ownerPackagesRevision(ownerId, type) {
      return ownerPackagesRevision(ownerRevision.get(ownerId, type) as Record<string, unknown> | undefined);
    },
    async touchToken(id, at) {
      // Prisma's connection may hold the write lock across awaits (an open transaction). Waiting for it here would
      // stop the event loop, and that transaction with it, for the whole busy timeout: a busy database skips the
      // touch instead, and the token's next request tries again.
      const busyTimeout = db.pragma('busy_timeout', { simple: true }) as number;
      db.pragma('busy_timeout = 0');
      try {
        touch.run(sqliteTimestamp(at), id);
      } catch (error) {
        if (!isSqliteBusy(error)) throw error;
      } finally {
        db.pragma(`busy_timeout = ${busyTimeout}`);
      }
    },
    async ping() {
      ping.get();
    },
  };
}

export function postgresHotQueries(pool: pg.Pool): HotQueries {
  // Named statements are parsed once per connection and reused.
  const run = (name: string, text: string, values: unknown[]) => pool.query({ name, text, values });
  // Any commit writes to the WAL, so an unchanged insert position means nothing counted has changed.
  const counts = new CountCache(
    async () => (await run('anvil_wal_position', 'SELECT pg_current_wal_insert_lsn()::text AS "at"', [])).rows[0].at,
  );
  const page = async (name: string, sql: PageSql, values: unknown[], limit: number, offset: number) => {
    const total = await counts.count(`${sql.count}\0${JSON.stringify(values)}`, async () =>
      Number((await run(`${name}_count`, sql.count, values)).rows[0].total),
    );
    const window = pageWindow(total, offset, limit);
    if (!window) return { users: [], total };
    const { rows } = window.reversed
      ? await run(`${name}_reversed`, sql.reversed, [...values, window.take, window.skip])
      : await run(name, sql.forward, [...values, window.take, window.skip]);
    if (window.reversed) rows.reverse();
    return { users: rows.map(postgresUser), total };
  };
  const hotUserById = async (id: number) => {
    const { rows } = await run('anvil_user_by_id', USER_BY_ID_SQL, [id]);
    return rows[0] ? postgresUser(rows[0]) : null;
  };
  return {
    ...postgresRepositoryQueries(run, hotUserById),
    ...postgresContentQueries(run),
    ...postgresEventQueries(run),
    ...postgresAudienceQueries(run),
    counts,
    async listIndividualUsers(query) {
      const { key, values, sql } = userListSql(USER_COLUMNS, query);
      return page(`anvil_user_list_${key}`, sql, values, query.limit, query.offset);
    },
    async listOrganizations(limit, offset) {
      const { users, total } = await page('anvil_org_list', ORG_LIST_SQL, [], limit, offset);
      return { orgs: users, total };
    },
    async tokenByHash(tokenHash) {
      const {
        rows: [row],
      } = await run('anvil_token_by_hash', TOKEN_SQL, [tokenHash]);
      return row
        ? { tokenId: row.tokenId, scope: row.scope, tokenUpdatedAt: row.tokenUpdatedAt, user: postgresUser(row) }
        : null;
    },
    async userByLowerName(lowerName) {
      const { rows } = await run('anvil_user_by_lower_name', USER_BY_NAME_SQL, [lowerName]);
      return rows[0] ? postgresUser(rows[0]) : null;
    },
    userById: hotUserById,
    async containerManifest(ownerId, lowerImage, reference) {
      const { kind, value } = manifestQuery(reference);
      const {
        rows: [row],
      } = await run(`anvil_container_manifest_${kind}`, MANIFEST_SQL_BY[kind], [ownerId, lowerImage, value]);
      return row ? { metadataJson: row.metadataJson, size: Number(row.size), hashSha256: row.hashSha256 } : null;
    },
    async repositoryExists(ownerId, lowerName) {
      const { rows } = await run('anvil_repository_exists', REPOSITORY_EXISTS_SQL, [ownerId, lowerName]);
      return rows.length > 0;
    },
    async packageFile(key) {
      const { rows } = await run('anvil_package_file', PACKAGE_FILE_SQL, packageFileValues(key));
      return rows[0] ? packageFileDownload(rows[0] as Record<string, unknown>) : null;
    },
    async packageRevision(ownerId, type, lowerName) {
      const { rows } = await run('anvil_package_revision', PACKAGE_REVISION_SQL, [ownerId, type, lowerName]);
      return (rows[0] as { id: number; revision: number } | undefined) ?? null;
    },
    async ownerPackagesRevision(ownerId, type) {
      const { rows } = await run('anvil_owner_packages_revision', OWNER_PACKAGES_REVISION_SQL, [ownerId, type]);
      return ownerPackagesRevision(rows[0] as Record<string, unknown> | undefined);
    },
    async touchToken(id, at) {
      await run('anvil_touch_token', TOUCH_TOKEN_SQL, [at, id]);
    },
    async ping() {
      await pool.query('SELECT 1');
    },
  };
}
