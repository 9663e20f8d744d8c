// The repository lookups every repository-scoped request makes, and the viewer's access facts on it, as prepared
// statements for hot-queries.ts: a repository with its owner and units took three Prisma queries and the viewer's
// access three more, about 0.25 ms of CPU each; a prepared statement costs a few µs. Rows come back in the Prisma
// model's shape. Only outside a transaction: they read committed rows.
import type BetterSqlite3 from 'better-sqlite3';
import type { Models, User } from './entities.ts';
import type { RepoWithOwner } from './repository-details.ts';
import { positionalSql, sqliteDate } from './sqlite-values.ts';
import { type Dialect, POSTGRES, type PostgresRun, SQLITE } from './sql-dialects.ts';

type Repository = Omit<RepoWithOwner, 'owner' | 'units'>;

/** A team of the org the viewer belongs to, as it gives access (its units and repositories are asked apart). */
export interface ViewerTeamRow {
  id: number;
  orgId: number;
  accessMode: number;
  includesAllRepositories: boolean;
}

export interface RepositoryHotQueries {
  repositoryByOwnerAndName(ownerLowerName: string, lowerName: string): Promise<RepoWithOwner | null>;
  repositoryInOwner(ownerId: number, lowerName: string): Promise<RepoWithOwner | null>;
  repositoryById(id: number): Promise<RepoWithOwner | null>;
  /** The repositories of those ids that exist (with their owners), in no particular order. */
  repositoriesByIds(ids: readonly number[]): Promise<RepoWithOwner[]>;
  releaseCount(repoId: number): Promise<number>;
  /** The user's collaboration mode on the repository, or null. */
  collaboration(userId: number, repoId: number): Promise<number | null>;
  isOrgMember(userId: number, orgId: number): Promise<boolean>;
  memberTeams(userId: number, orgId: number): Promise<ViewerTeamRow[]>;
  /** The user's teams in the org: each one's access mode and its mode on one unit (0 without it). */
  memberTeamUnitModes(userId: number, orgId: number, unitType: number): Promise<TeamUnitMode[]>;
  /** Whether one user blocks another (a comment asks of the repository's owner and of the poster). */
  blocks(blockerId: number, blockeeId: number): Promise<boolean>;
}

export interface TeamUnitMode {
  accessMode: number;
  unitMode: number;
}

const REPOSITORY_COLUMN_NAMES = [
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

const BOOLEAN_COLUMNS = ['isPrivate', 'isEmpty', 'isArchived', 'isMirror', 'isTemplate', 'isFork'] as const;
const BIGINT_COLUMNS = ['size', 'gitSize', 'lfsSize'] as const;
const DATE_COLUMNS = ['archivedAt', 'createdAt', 'updatedAt'] as const;

const columns = (alias: string) => REPOSITORY_COLUMN_NAMES.map((name) => `${alias}"${name}"`).join(', ');
const REPOSITORY_BY_OWNER_AND_NAME_SQL = `SELECT ${columns('r.')} FROM "Repository" r
  JOIN "User" o ON o."id" = r."ownerId" WHERE o."lowerName" = $1 AND r."lowerName" = $2`;
const REPOSITORY_IN_OWNER_SQL = `SELECT ${columns('')} FROM "Repository" WHERE "ownerId" = $1 AND "lowerName" = $2`;
const REPOSITORY_BY_ID_SQL = `SELECT ${columns('')} FROM "Repository" WHERE "id" = $1`;
const UNITS_SQL = `SELECT "id", "repoId", "type", "config", "createdAt" FROM "RepoUnit" WHERE "repoId" = $1`;
const repositoriesByIdsSql = (dialect: Dialect) =>
  `SELECT ${columns('')} FROM "Repository" WHERE ${dialect.inList('"id"', '$1')}`;
const unitsOfRepositoriesSql = (dialect: Dialect) =>
  `SELECT "id", "repoId", "type", "config", "createdAt" FROM "RepoUnit" WHERE ${dialect.inList('"repoId"', '$1')}`;
const RELEASE_COUNT_SQL = `SELECT COUNT(*) AS "count" FROM "Release" WHERE "repoId" = $1`;
const COLLABORATION_SQL = `SELECT "accessMode" FROM "Collaboration" WHERE "userId" = $1 AND "repoId" = $2`;
const ORG_MEMBER_SQL = `SELECT 1 AS "member" FROM "OrgUser" WHERE "userId" = $1 AND "orgId" = $2`;
const MEMBER_TEAMS_SQL = `SELECT t."id", t."orgId", t."accessMode", t."includesAllRepositories" FROM "Team" t
  WHERE EXISTS (SELECT 1 FROM "TeamUser" m WHERE m."teamId" = t."id" AND m."userId" = $1) AND t."orgId" = $2`;
const MEMBER_TEAM_UNIT_MODES_SQL = `SELECT t."accessMode", COALESCE(u."accessMode", 0) AS "unitMode" FROM "Team" t
  LEFT JOIN "TeamUnit" u ON u."teamId" = t."id" AND u."type" = $1
  WHERE EXISTS (SELECT 1 FROM "TeamUser" m WHERE m."teamId" = t."id" AND m."userId" = $2) AND t."orgId" = $3`;
const BLOCKS_SQL = `SELECT 1 AS "blocked" FROM "UserBlocking" WHERE "blockerId" = $1 AND "blockeeId" = $2`;

/** SQLite answers booleans as 0/1, BIGINTs as numbers and dates as text. */
function sqliteRepository(row: Record<string, unknown>): Repository {
  for (const column of BOOLEAN_COLUMNS) row[column] = row[column] === 1;
  for (const column of BIGINT_COLUMNS) row[column] = BigInt(row[column] as number);
  for (const column of DATE_COLUMNS) row[column] = sqliteDate(row[column]);
  return row as unknown as Repository;
}

function sqliteUnit(row: Record<string, unknown>): Models.RepoUnitModel {
  row.createdAt = sqliteDate(row.createdAt);
  return row as unknown as Models.RepoUnitModel;
}

/** Repositories with their units and owners (each owner read once); those whose owner is gone are left out. */
async function withOwnersAndUnits(
  repos: Repository[],
  units: Models.RepoUnitModel[],
  userById: (id: number) => Promise<User | null>,
): Promise<RepoWithOwner[]> {
  const owners = new Map(
    await Promise.all(
      [...new Set(repos.map((repo) => repo.ownerId))].map(async (id) => [id, await userById(id)] as const),
    ),
  );
  const unitsByRepo = new Map<number, Models.RepoUnitModel[]>();
  for (const unit of units) {
    const ofRepo = unitsByRepo.get(unit.repoId);
    if (ofRepo) ofRepo.push(unit);
    else unitsByRepo.set(unit.repoId, [unit]);
  }
  return repos.flatMap((repo) => {
    const owner = owners.get(repo.ownerId);
    return owner ? [{ ...repo, owner, units: unitsByRepo.get(repo.id) ?? [] }] : [];
  });
}

/** The hot User lookups of the same connection. */
interface UserLookups {
  userById(id: number): Promise<User | null>;
  userByLowerName(lowerName: string): Promise<User | null>;
}

/**
 * By owner and name, SQLite reads the owner, then the repository in it: once ANALYZE has written STAT4 statistics,
 * SQLite prepares a join again on every run (47 µs against 11 for the lookup by the unique key).
 */
export function sqliteRepositoryQueries(db: BetterSqlite3.Database, users: UserLookups): RepositoryHotQueries {
  const prepare = (sql: string) => db.prepare(positionalSql(sql));
  const inOwner = prepare(REPOSITORY_IN_OWNER_SQL);
  const byId = prepare(REPOSITORY_BY_ID_SQL);
  const units = prepare(UNITS_SQL);
  const releases = prepare(RELEASE_COUNT_SQL).pluck();
  const collaboration = prepare(COLLABORATION_SQL).pluck();
  const orgMember = prepare(ORG_MEMBER_SQL).pluck();
  const memberTeams = prepare(MEMBER_TEAMS_SQL);
  const memberTeamUnitModes = prepare(MEMBER_TEAM_UNIT_MODES_SQL);
  const blocks = prepare(BLOCKS_SQL).pluck();
  const byIds = prepare(repositoriesByIdsSql(SQLITE));
  const unitsOfRepositories = prepare(unitsOfRepositoriesSql(SQLITE));
  const withOwnerAndUnits = async (row: unknown, knownOwner?: User): Promise<RepoWithOwner | null> => {
    if (row === undefined) return null;
    const repo = sqliteRepository(row as Record<string, unknown>);
    const owner = knownOwner ?? (await users.userById(repo.ownerId));
    if (!owner) return null;
    const repoUnits = (units.all(repo.id) as Array<Record<string, unknown>>).map(sqliteUnit);
    return { ...repo, owner, units: repoUnits };
  };
  return {
    async repositoryByOwnerAndName(ownerLowerName, lowerName) {
      const owner = await users.userByLowerName(ownerLowerName);
      return owner && withOwnerAndUnits(inOwner.get(owner.id, lowerName), owner);
    },
    repositoryInOwner: (ownerId, lowerName) => withOwnerAndUnits(inOwner.get(ownerId, lowerName)),
    repositoryById: (id) => withOwnerAndUnits(byId.get(id)),
    repositoriesByIds: (ids) =>
      withOwnersAndUnits(
        (byIds.all(SQLITE.list(ids)) as Array<Record<string, unknown>>).map(sqliteRepository),
        (unitsOfRepositories.all(SQLITE.list(ids)) as Array<Record<string, unknown>>).map(sqliteUnit),
        users.userById,
      ),
    releaseCount: async (repoId) => Number(releases.get(repoId)),
    collaboration: async (userId, repoId) => (collaboration.get(userId, repoId) as number | undefined) ?? null,
    isOrgMember: async (userId, orgId) => orgMember.get(userId, orgId) !== undefined,
    memberTeams: async (userId, orgId) =>
      (
        memberTeams.all(userId, orgId) as Array<
          Omit<ViewerTeamRow, 'includesAllRepositories'> & { includesAllRepositories: number }
        >
      ).map((team) => ({ ...team, includesAllRepositories: team.includesAllRepositories === 1 })),
    memberTeamUnitModes: async (userId, orgId, unitType) =>
      memberTeamUnitModes.all(unitType, userId, orgId) as TeamUnitMode[],
    blocks: async (blockerId, blockeeId) => blocks.get(blockerId, blockeeId) !== undefined,
  };
}

/** PostgreSQL answers BIGINTs as text (dates are parsed where the pool is made). */
function postgresRepository(row: Record<string, unknown>): Repository {
  for (const column of BIGINT_COLUMNS) row[column] = BigInt(row[column] as string);
  return row as unknown as Repository;
}

/** `run` runs a named (prepared) statement; `userById` is the hot User lookup. */
export function postgresRepositoryQueries(
  run: PostgresRun,
  userById: (id: number) => Promise<User | null>,
): RepositoryHotQueries {
  const withOwnerAndUnits = async (rows: Array<Record<string, unknown>>): Promise<RepoWithOwner | null> => {
    if (rows.length === 0) return null;
    const repo = postgresRepository(rows[0]);
    const [owner, units] = await Promise.all([
      userById(repo.ownerId),
      run('anvil_repository_units', UNITS_SQL, [repo.id]),
    ]);
    return owner ? { ...repo, owner, units: units.rows as unknown as Models.RepoUnitModel[] } : null;
  };
  return {
    repositoryByOwnerAndName: async (ownerLowerName, lowerName) =>
      withOwnerAndUnits(
        (await run('anvil_repository_by_owner_and_name', REPOSITORY_BY_OWNER_AND_NAME_SQL, [ownerLowerName, lowerName]))
          .rows,
      ),
    repositoryInOwner: async (ownerId, lowerName) =>
      withOwnerAndUnits((await run('anvil_repository_in_owner', REPOSITORY_IN_OWNER_SQL, [ownerId, lowerName])).rows),
    repositoryById: async (id) =>
      withOwnerAndUnits((await run('anvil_repository_by_id', REPOSITORY_BY_ID_SQL, [id])).rows),
    repositoriesByIds: async (ids) => {
      const [repos, units] = await Promise.all([
        run('anvil_repositories_by_ids', repositoriesByIdsSql(POSTGRES), [POSTGRES.list(ids)]),
        run('anvil_units_of_repositories', unitsOfRepositoriesSql(POSTGRES), [POSTGRES.list(ids)]),
      ]);
      return withOwnersAndUnits(
        repos.rows.map(postgresRepository),
        units.rows as unknown as Models.RepoUnitModel[],
        userById,
      );
    },
    releaseCount: async (repoId) =>
      Number((await run('anvil_release_count', RELEASE_COUNT_SQL, [repoId])).rows[0].count),
    collaboration: async (userId, repoId) =>
      ((await run('anvil_collaboration', COLLABORATION_SQL, [userId, repoId])).rows[0]?.accessMode as
        number | undefined) ?? null,
    isOrgMember: async (userId, orgId) =>
      (await run('anvil_org_member', ORG_MEMBER_SQL, [userId, orgId])).rows.length > 0,
    memberTeams: async (userId, orgId) =>
      (await run('anvil_member_teams', MEMBER_TEAMS_SQL, [userId, orgId])).rows as unknown as ViewerTeamRow[],
    memberTeamUnitModes: async (userId, orgId, unitType) =>
      (await run('anvil_member_team_unit_modes', MEMBER_TEAM_UNIT_MODES_SQL, [unitType, userId, orgId]))
        .rows as unknown as TeamUnitMode[],
    blocks: async (blockerId, blockeeId) =>
      (await run('anvil_user_blocks', BLOCKS_SQL, [blockerId, blockeeId])).rows.length > 0,
  };
}
