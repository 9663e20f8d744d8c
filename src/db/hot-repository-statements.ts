// The texts of the repository statements of hot-repository-queries.ts, and the Repository columns they read.
import type { RepoWithOwner } from './repository-details.ts';
import { type Dialect, POSTGRES, SQLITE } from './sql-dialects.ts';
import { USER_COLUMN_LIST } from './hot-user-rows.ts';
import { prefixedSelect } from './model-columns.ts';

type Repository = Omit<RepoWithOwner, 'owner' | 'units'>;

export const REPOSITORY_COLUMN_NAMES = [
  'id',
  'ownerId',
  'ownerName',
  'name',
  'lowerName',
  'description',
  'website',
  'originalUrl',
  'defaultBranch',
  'topics',
  'avatar',
  'isPrivate',
  'isEmpty',
  'isArchived',
  'isMirror',
  'isTemplate',
  'isFork',
  'forkId',
  'size',
  'gitSize',
  'lfsSize',
  'numStars',
  'numForks',
  'numWatches',
  'numIssues',
  'numClosedIssues',
  'numPulls',
  'numClosedPulls',
  'settings',
  'archivedAt',
  'createdAt',
  'updatedAt',
] as const satisfies ReadonlyArray<keyof Repository>;
// Compile-time guard: a column added to Repository must be listed above, or these lookups would leave it out.
const everyColumnListed: [Exclude<keyof Repository, (typeof REPOSITORY_COLUMN_NAMES)[number]>] extends [never]
  ? true
  : false = true;
void everyColumnListed;

export const BOOLEAN_COLUMNS = ['isPrivate', 'isEmpty', 'isArchived', 'isMirror', 'isTemplate', 'isFork'] as const;
export const BIGINT_COLUMNS = ['size', 'gitSize', 'lfsSize'] as const;
export const DATE_COLUMNS = ['archivedAt', 'createdAt', 'updatedAt'] as const;

const columns = (alias: string) => REPOSITORY_COLUMN_NAMES.map((name) => `${alias}"${name}"`).join(', ');
export const SQLITE_REPOSITORY_IN_OWNER_SQL = `SELECT ${columns('')} FROM "Repository" WHERE "ownerId" = $1 AND "lowerName" = $2`;
export const SQLITE_REPOSITORY_BY_ID_SQL = `SELECT ${columns('')} FROM "Repository" WHERE "id" = $1`;
export const SQLITE_UNITS_SQL = `SELECT "id", "repoId", "type", "config", "createdAt" FROM "RepoUnit" WHERE "repoId" = $1`;
export const SQLITE_REPOSITORIES_BY_IDS_SQL = `SELECT ${columns('')} FROM "Repository" WHERE ${SQLITE.inList('"id"', '$1')}`;
export const SQLITE_UNITS_OF_REPOSITORIES_SQL = `SELECT "id", "repoId", "type", "config", "createdAt" FROM "RepoUnit"
  WHERE ${SQLITE.inList('"repoId"', '$1')}`;
/** PostgreSQL reads a repository's units in the statement that reads the repository (`r`), as JSON. */
const UNITS_AS_JSON = `COALESCE((SELECT json_agg(json_build_object('id', u."id", 'repoId', u."repoId", 'type', u."type",
  'config', u."config", 'createdAt', u."createdAt")) FROM "RepoUnit" u WHERE u."repoId" = r."id"), '[]'::json) AS "units"`;
export const POSTGRES_REPOSITORY_BY_OWNER_AND_NAME_SQL = `SELECT ${columns('r.')}, ${UNITS_AS_JSON} FROM "Repository" r
  JOIN "User" o ON o."id" = r."ownerId" WHERE o."lowerName" = $1 AND r."lowerName" = $2`;
export const POSTGRES_REPOSITORY_IN_OWNER_SQL = `SELECT ${columns('r.')}, ${UNITS_AS_JSON} FROM "Repository" r
  WHERE r."ownerId" = $1 AND r."lowerName" = $2`;
/** By id, PostgreSQL reads the owner in the same statement too (`OWNER_PREFIX` names its columns). */
export const OWNER_PREFIX = 'owner_';
const WITH_OWNER_COLUMNS = prefixedSelect(USER_COLUMN_LIST, 'o', OWNER_PREFIX);
const WITH_OWNER = `${WITH_OWNER_COLUMNS} FROM "Repository" r JOIN "User" o ON o."id" = r."ownerId"`;
export const POSTGRES_REPOSITORY_BY_ID_SQL = `SELECT ${columns('r.')}, ${UNITS_AS_JSON}, ${WITH_OWNER} WHERE r."id" = $1`;
/**
 * Repositories by ids ($1), each owner's columns on the first of its rows only (null on the others): fifty
 * repositories of one org would carry the org fifty times, every column of it parsed each time.
 */
const byIdsWithOwnersOnce = (more = '') => `SELECT ${columns('r.')}, ${UNITS_AS_JSON}, ${WITH_OWNER_COLUMNS}${more}
  FROM (SELECT *, row_number() OVER (PARTITION BY "ownerId" ORDER BY "id") AS "ownerRow" FROM "Repository"
    WHERE ${POSTGRES.inList('"id"', '$1')}) r
  LEFT JOIN "User" o ON o."id" = r."ownerId" AND r."ownerRow" = 1`;
export const POSTGRES_REPOSITORIES_BY_IDS_SQL = byIdsWithOwnersOnce();
export const RELEASE_COUNT_SQL = `SELECT COUNT(*) AS "count" FROM "Release" WHERE "repoId" = $1`;
export const COLLABORATION_SQL = `SELECT "accessMode" FROM "Collaboration" WHERE "userId" = $1 AND "repoId" = $2`;
const collaborationsSql = (dialect: Dialect) =>
  `SELECT "repoId", "accessMode" FROM "Collaboration" WHERE "userId" = $1 AND ${dialect.inList('"repoId"', '$2')}`;
export const ORG_MEMBER_SQL = `SELECT 1 AS "member" FROM "OrgUser" WHERE "userId" = $1 AND "orgId" = $2`;
const memberOrgIdsSql = (dialect: Dialect) =>
  `SELECT "orgId" FROM "OrgUser" WHERE "userId" = $1 AND ${dialect.inList('"orgId"', '$2')}`;
export const MEMBER_TEAMS_SQL = `SELECT t."id", t."orgId", t."accessMode", t."includesAllRepositories" FROM "Team" t
  WHERE EXISTS (SELECT 1 FROM "TeamUser" m WHERE m."teamId" = t."id" AND m."userId" = $1) AND t."orgId" = $2`;
export const MEMBER_TEAM_UNIT_MODES_SQL = `SELECT t."accessMode", COALESCE(u."accessMode", 0) AS "unitMode" FROM "Team" t
  LEFT JOIN "TeamUnit" u ON u."teamId" = t."id" AND u."type" = $1
  WHERE EXISTS (SELECT 1 FROM "TeamUser" m WHERE m."teamId" = t."id" AND m."userId" = $2) AND t."orgId" = $3`;
export const TEAM_UNITS_SQL = `SELECT "type", "accessMode" FROM "TeamUnit" WHERE "teamId" = $1`;
export const TEAM_HOLDS_REPOSITORY_SQL = `SELECT 1 AS "holds" FROM "TeamRepo" WHERE "teamId" = $1 AND "repoId" = $2`;
/** The viewer's facts on a repository of an org, as columns: `user`, `repo` and `org` are SQL expressions. */
const orgRepositoryFactsColumns = (user: string, repo: string, org: string) => `
  (SELECT c."accessMode" FROM "Collaboration" c WHERE c."userId" = ${user} AND c."repoId" = ${repo}) AS "collaboration",
  EXISTS (SELECT 1 FROM "OrgUser" o WHERE o."userId" = ${user} AND o."orgId" = ${org}) AS "member",
  COALESCE((SELECT json_agg(json_build_object('id', t."id", 'orgId', t."orgId", 'accessMode', t."accessMode",
      'includesAllRepositories', t."includesAllRepositories",
      'units', COALESCE((SELECT json_agg(json_build_object('type', u."type", 'accessMode', u."accessMode"))
        FROM "TeamUnit" u WHERE u."teamId" = t."id"), '[]'::json),
      'holdsRepository', EXISTS (SELECT 1 FROM "TeamRepo" tr WHERE tr."teamId" = t."id" AND tr."repoId" = ${repo})))
    FROM "Team" t
    WHERE t."orgId" = ${org} AND EXISTS (SELECT 1 FROM "TeamUser" m WHERE m."teamId" = t."id" AND m."userId" = ${user})),
    '[]'::json) AS "teams"`;
export const POSTGRES_ORG_REPOSITORY_FACTS_SQL = `SELECT ${orgRepositoryFactsColumns('$1', '$2', '$3')}`;
/** $1 the repository, $2 the viewer. */
export const POSTGRES_REPOSITORY_BY_ID_WITH_FACTS_SQL = `SELECT ${columns('r.')}, ${UNITS_AS_JSON}, ${WITH_OWNER_COLUMNS},
  ${orgRepositoryFactsColumns('$2', 'r."id"', 'r."ownerId"')}
  FROM "Repository" r JOIN "User" o ON o."id" = r."ownerId" WHERE r."id" = $1`;
/** $1 the repositories' ids, $2 the viewer. */
export const POSTGRES_REPOSITORIES_BY_IDS_WITH_FACTS_SQL = byIdsWithOwnersOnce(
  `, ${orgRepositoryFactsColumns('$2', 'r."id"', 'r."ownerId"')}`,
);
/** $1 the org, $2 the repository's lower name, $3 the viewer. */
export const POSTGRES_REPOSITORY_IN_ORG_WITH_FACTS_SQL = `SELECT ${columns('r.')}, ${UNITS_AS_JSON},
  ${orgRepositoryFactsColumns('$3', 'r."id"', 'r."ownerId"')}
  FROM "Repository" r WHERE r."ownerId" = $1 AND r."lowerName" = $2`;
export const BLOCKS_SQL = `SELECT 1 AS "blocked" FROM "UserBlocking" WHERE "blockerId" = $1 AND "blockeeId" = $2`;
export const SQLITE_COLLABORATIONS_SQL = collaborationsSql(SQLITE);
export const POSTGRES_COLLABORATIONS_SQL = collaborationsSql(POSTGRES);
export const SQLITE_MEMBER_ORG_IDS_SQL = memberOrgIdsSql(SQLITE);
export const POSTGRES_MEMBER_ORG_IDS_SQL = memberOrgIdsSql(POSTGRES);
