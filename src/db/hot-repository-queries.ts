// The repository lookups every repository-scoped request makes, and the viewer's access facts on it, as prepared
// statements for hot-queries.ts: a repository with its owner and units took three Prisma queries and the viewer's
// access three more, about 0.25 ms of CPU each; a prepared statement costs a few µs. On PostgreSQL a repository's
// units (and, by id, its owner) come in its own statement, and so do the viewer's facts on an org repository (each
// statement is a round trip and CPU on both sides). Rows come back in the Prisma model's shape. Only outside a
// transaction: they read committed rows.
import type BetterSqlite3 from 'better-sqlite3';
import type { Models, User } from './entities.ts';
import type { RepoWithOwner } from './repository-details.ts';
import { positionalSql, sqliteDate } from './sqlite-values.ts';
import { POSTGRES, type PostgresRun, SQLITE } from './sql-dialects.ts';
import { USER_COLUMN_LIST } from './hot-user-rows.ts';
import { prefixedPostgresRow } from './model-columns.ts';
import {
  REPOSITORY_COLUMN_NAMES,
  BOOLEAN_COLUMNS,
  BIGINT_COLUMNS,
  DATE_COLUMNS,
  SQLITE_REPOSITORY_IN_OWNER_SQL,
  SQLITE_REPOSITORY_BY_ID_SQL,
  SQLITE_UNITS_SQL,
  SQLITE_REPOSITORIES_BY_IDS_SQL,
  SQLITE_UNITS_OF_REPOSITORIES_SQL,
  POSTGRES_REPOSITORY_BY_OWNER_AND_NAME_SQL,
  POSTGRES_REPOSITORY_IN_OWNER_SQL,
  OWNER_PREFIX,
  POSTGRES_REPOSITORY_BY_ID_SQL,
  POSTGRES_REPOSITORIES_BY_IDS_SQL,
  RELEASE_COUNT_SQL,
  COLLABORATION_SQL,
  SQLITE_COLLABORATIONS_SQL,
  POSTGRES_COLLABORATIONS_SQL,
  ORG_MEMBER_SQL,
  SQLITE_MEMBER_ORG_IDS_SQL,
  POSTGRES_MEMBER_ORG_IDS_SQL,
  MEMBER_TEAMS_SQL,
  MEMBER_TEAM_UNIT_MODES_SQL,
  TEAM_UNITS_SQL,
  TEAM_HOLDS_REPOSITORY_SQL,
  POSTGRES_ORG_REPOSITORY_FACTS_SQL,
  POSTGRES_REPOSITORY_BY_ID_WITH_FACTS_SQL,
  POSTGRES_REPOSITORIES_BY_IDS_WITH_FACTS_SQL,
  POSTGRES_REPOSITORY_IN_ORG_WITH_FACTS_SQL,
  BLOCKS_SQL,
} from './hot-repository-statements.ts';

type Repository = Omit<RepoWithOwner, 'owner' | 'units'>;

/** A team of the org the viewer belongs to, as it gives access (its units and repositories are asked apart). */
export interface ViewerTeamRow {
  id: number;
  orgId: number;
  accessMode: number;
  includesAllRepositories: boolean;
}

/** A team of the org the viewer belongs to with its unit modes, and whether it holds the repository asked about. */
export interface ViewerTeamOnRepositoryRow extends ViewerTeamRow {
  units: Array<{ type: number; accessMode: number }>;
  holdsRepository: boolean;
}

/** The viewer's access facts on one repository of an organization. */
export interface OrgRepositoryFactsRow {
  collaboration: number | null;
  member: boolean;
  teams: ViewerTeamOnRepositoryRow[];
}

export interface RepositoryHotQueries {
  repositoryByOwnerAndName(ownerLowerName: string, lowerName: string): Promise<RepoWithOwner | null>;
  /** `owner`, when the caller has it (the owner of `ownerId`), is not read again. */
  repositoryInOwner(ownerId: number, lowerName: string, owner?: User): Promise<RepoWithOwner | null>;
  repositoryById(id: number): Promise<RepoWithOwner | null>;
  /** The repositories of those ids that exist (with their owners), in no particular order. */
  repositoriesByIds(ids: readonly number[]): Promise<RepoWithOwner[]>;
  releaseCount(repoId: number): Promise<number>;
  /** The user's collaboration mode on the repository, or null. */
  collaboration(userId: number, repoId: number): Promise<number | null>;
  /** The user's collaborations on any of these repositories. */
  collaborations(userId: number, repoIds: readonly number[]): Promise<Array<{ repoId: number; accessMode: number }>>;
  isOrgMember(userId: number, orgId: number): Promise<boolean>;
  /** Which of these orgs the user belongs to. */
  memberOrgIds(userId: number, orgIds: readonly number[]): Promise<number[]>;
  memberTeams(userId: number, orgId: number): Promise<ViewerTeamRow[]>;
  /** Collaboration, membership and teams on one repository of an org: one statement on PostgreSQL, not five. */
  orgRepositoryFacts(userId: number, repoId: number, orgId: number): Promise<OrgRepositoryFactsRow>;
  /**
   * A repository of an org by name with the viewer's facts on it (`org` is its owner): one statement on
   * PostgreSQL, where a repository request otherwise asks twice.
   */
  repositoryInOrgWithFacts(
    org: User,
    lowerName: string,
    viewerId: number,
  ): Promise<{ repo: RepoWithOwner; facts: OrgRepositoryFactsRow } | null>;
  /** A repository by id with the viewer's facts on it, as orgRepositoryFacts reads them with its owner as the org. */
  repositoryByIdWithFacts(
    id: number,
    viewerId: number,
  ): Promise<{ repo: RepoWithOwner; facts: OrgRepositoryFactsRow } | null>;
  /** The repositories of those ids that exist, each with the viewer's facts on it as repositoryByIdWithFacts reads them. */
  repositoriesByIdsWithFacts(
    ids: readonly number[],
    viewerId: number,
  ): Promise<Array<{ repo: RepoWithOwner; facts: OrgRepositoryFactsRow }>>;
  /** The user's teams in the org: each one's access mode and its mode on one unit (0 without it). */
  memberTeamUnitModes(userId: number, orgId: number, unitType: number): Promise<TeamUnitMode[]>;
  /** Whether one user blocks another (a comment asks of the repository's owner and of the poster). */
  blocks(blockerId: number, blockeeId: number): Promise<boolean>;
}

export interface TeamUnitMode {
  accessMode: number;
  unitMode: number;
}

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
  const inOwner = prepare(SQLITE_REPOSITORY_IN_OWNER_SQL);
  const byId = prepare(SQLITE_REPOSITORY_BY_ID_SQL);
  const units = prepare(SQLITE_UNITS_SQL);
  const releases = prepare(RELEASE_COUNT_SQL).pluck();
  const collaboration = prepare(COLLABORATION_SQL).pluck();
  const orgMember = prepare(ORG_MEMBER_SQL).pluck();
  const collaborations = prepare(SQLITE_COLLABORATIONS_SQL);
  const memberOrgIds = prepare(SQLITE_MEMBER_ORG_IDS_SQL).pluck();
  const memberTeams = prepare(MEMBER_TEAMS_SQL);
  const memberTeamUnitModes = prepare(MEMBER_TEAM_UNIT_MODES_SQL);
  const blocks = prepare(BLOCKS_SQL).pluck();
  const teamUnits = prepare(TEAM_UNITS_SQL);
  const teamHoldsRepository = prepare(TEAM_HOLDS_REPOSITORY_SQL).pluck();
  const byIds = prepare(SQLITE_REPOSITORIES_BY_IDS_SQL);
  const unitsOfRepositories = prepare(SQLITE_UNITS_OF_REPOSITORIES_SQL);
  const withOwnerAndUnits = async (row: unknown, knownOwner?: User): Promise<RepoWithOwner | null> => {
    if (row === undefined) return null;
    const repo = sqliteRepository(row as Record<string, unknown>);
    const owner = knownOwner ?? (await users.userById(repo.ownerId));
    if (!owner) return null;
    const repoUnits = (units.all(repo.id) as Array<Record<string, unknown>>).map(sqliteUnit);
    return { ...repo, owner, units: repoUnits };
  };
  const repositoriesByIds = (ids: readonly number[]) =>
    withOwnersAndUnits(
      (byIds.all(SQLITE.list(ids)) as Array<Record<string, unknown>>).map(sqliteRepository),
      (unitsOfRepositories.all(SQLITE.list(ids)) as Array<Record<string, unknown>>).map(sqliteUnit),
      users.userById,
    );
  const sqliteMemberTeams = (userId: number, orgId: number): ViewerTeamRow[] =>
    (
      memberTeams.all(userId, orgId) as Array<
        Omit<ViewerTeamRow, 'includesAllRepositories'> & { includesAllRepositories: number }
      >
    ).map((team) => ({ ...team, includesAllRepositories: team.includesAllRepositories === 1 }));
  // SQLite answers in-process: the statements apart cost no round trips.
  const orgRepositoryFacts = (userId: number, repoId: number, orgId: number): OrgRepositoryFactsRow => ({
    collaboration: (collaboration.get(userId, repoId) as number | undefined) ?? null,
    member: orgMember.get(userId, orgId) !== undefined,
    teams: sqliteMemberTeams(userId, orgId).map((team) => ({
      ...team,
      units: teamUnits.all(team.id) as Array<{ type: number; accessMode: number }>,
      holdsRepository: teamHoldsRepository.get(team.id, repoId) !== undefined,
    })),
  });
  return {
    async repositoryByOwnerAndName(ownerLowerName, lowerName) {
      const owner = await users.userByLowerName(ownerLowerName);
      return owner && withOwnerAndUnits(inOwner.get(owner.id, lowerName), owner);
    },
    repositoryInOwner: (ownerId, lowerName, owner) => withOwnerAndUnits(inOwner.get(ownerId, lowerName), owner),
    repositoryById: (id) => withOwnerAndUnits(byId.get(id)),
    repositoriesByIds,
    releaseCount: async (repoId) => Number(releases.get(repoId)),
    collaboration: async (userId, repoId) => (collaboration.get(userId, repoId) as number | undefined) ?? null,
    collaborations: async (userId, repoIds) =>
      collaborations.all(userId, SQLITE.list(repoIds)) as Array<{ repoId: number; accessMode: number }>,
    isOrgMember: async (userId, orgId) => orgMember.get(userId, orgId) !== undefined,
    memberOrgIds: async (userId, orgIds) => memberOrgIds.all(userId, SQLITE.list(orgIds)) as number[],
    memberTeams: async (userId, orgId) => sqliteMemberTeams(userId, orgId),
    orgRepositoryFacts: async (userId, repoId, orgId) => orgRepositoryFacts(userId, repoId, orgId),
    async repositoryInOrgWithFacts(org, lowerName, viewerId) {
      const repo = await withOwnerAndUnits(inOwner.get(org.id, lowerName), org);
      return repo && { repo, facts: orgRepositoryFacts(viewerId, repo.id, org.id) };
    },
    async repositoryByIdWithFacts(id, viewerId) {
      const repo = await withOwnerAndUnits(byId.get(id));
      return repo && { repo, facts: orgRepositoryFacts(viewerId, repo.id, repo.ownerId) };
    },
    async repositoriesByIdsWithFacts(ids, viewerId) {
      return (await repositoriesByIds(ids)).map((repo) => ({
        repo,
        facts: orgRepositoryFacts(viewerId, repo.id, repo.ownerId),
      }));
    },
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

/** A unit as UNITS_AS_JSON writes it: its timestamp as text without a zone (stored as UTC). */
function postgresJsonUnit(unit: Record<string, unknown>): Models.RepoUnitModel {
  return { ...unit, createdAt: new Date(`${unit.createdAt as string}Z`) } as Models.RepoUnitModel;
}

/** A repository row read WITH_OWNER: the repository with its units and owner. */
function postgresRepositoryWithOwner(
  row: Record<string, unknown>,
  owner = prefixedPostgresRow<User>(USER_COLUMN_LIST, row, OWNER_PREFIX)!,
): RepoWithOwner {
  return {
    ...postgresRepository(prefixedPostgresRow({ names: REPOSITORY_COLUMN_NAMES }, row, '')!),
    owner,
    units: (row.units as Array<Record<string, unknown>>).map(postgresJsonUnit),
  };
}

/** A repository row with its units (UNITS_AS_JSON), apart. */
function postgresRepositoryWithUnits(row: Record<string, unknown>): {
  repo: Repository;
  units: Models.RepoUnitModel[];
} {
  const { units, ...columns } = row;
  return { repo: postgresRepository(columns), units: (units as Array<Record<string, unknown>>).map(postgresJsonUnit) };
}

/** The viewer's facts a row read with orgRepositoryFactsColumns carries. */
function factsOf(read: Record<string, unknown>): OrgRepositoryFactsRow {
  return { collaboration: read.collaboration, member: read.member, teams: read.teams } as OrgRepositoryFactsRow;
}

/** A repository row read with the viewer's facts: the repository's columns and the facts. */
function factsApart(read: Record<string, unknown>): { row: Record<string, unknown>; facts: OrgRepositoryFactsRow } {
  const { collaboration: _collaboration, member: _member, teams: _teams, ...row } = read;
  return { row, facts: factsOf(read) };
}

/** A repository read WITH_OWNER and the viewer's facts (WITH_OWNER copies the repository's own columns only). */
const withOwnerAndFacts = (read: Record<string, unknown>, owner?: User) => ({
  repo: postgresRepositoryWithOwner(read, owner),
  facts: factsOf(read),
});

/** Rows read with each owner once (byIdsWithOwnersOnce), each made with its owner; those whose owner is gone are left out. */
function withOwnersOnce<T>(
  rows: Array<Record<string, unknown>>,
  make: (row: Record<string, unknown>, owner: User) => T,
) {
  const owners = new Map<number, User>();
  for (const row of rows) {
    const owner = prefixedPostgresRow<User>(USER_COLUMN_LIST, row, OWNER_PREFIX);
    if (owner) owners.set(owner.id, owner);
  }
  return rows.flatMap((row) => {
    const owner = owners.get(row.ownerId as number);
    return owner ? [make(row, owner)] : [];
  });
}

/** `run` runs a named (prepared) statement; `userById` is the hot User lookup. */
export function postgresRepositoryQueries(
  run: PostgresRun,
  userById: (id: number) => Promise<User | null>,
): RepositoryHotQueries {
  const withOwner = async (rows: Array<Record<string, unknown>>, knownOwner?: User): Promise<RepoWithOwner | null> => {
    if (rows.length === 0) return null;
    const { repo, units } = postgresRepositoryWithUnits(rows[0]);
    const owner = knownOwner ?? (await userById(repo.ownerId));
    return owner ? { ...repo, owner, units } : null;
  };
  return {
    repositoryByOwnerAndName: async (ownerLowerName, lowerName) =>
      withOwner(
        (
          await run('anvil_repository_by_owner_and_name', POSTGRES_REPOSITORY_BY_OWNER_AND_NAME_SQL, [
            ownerLowerName,
            lowerName,
          ])
        ).rows,
      ),
    repositoryInOwner: async (ownerId, lowerName, owner) =>
      withOwner(
        (await run('anvil_repository_in_owner', POSTGRES_REPOSITORY_IN_OWNER_SQL, [ownerId, lowerName])).rows,
        owner,
      ),
    repositoryById: async (id) => {
      const { rows } = await run('anvil_repository_by_id', POSTGRES_REPOSITORY_BY_ID_SQL, [id]);
      return rows.length > 0 ? postgresRepositoryWithOwner(rows[0]) : null;
    },
    repositoriesByIds: async (ids) =>
      withOwnersOnce(
        (await run('anvil_repositories_by_ids', POSTGRES_REPOSITORIES_BY_IDS_SQL, [POSTGRES.list(ids)])).rows,
        postgresRepositoryWithOwner,
      ),
    releaseCount: async (repoId) =>
      Number((await run('anvil_release_count', RELEASE_COUNT_SQL, [repoId])).rows[0].count),
    collaboration: async (userId, repoId) =>
      ((await run('anvil_collaboration', COLLABORATION_SQL, [userId, repoId])).rows[0]?.accessMode as
        number | undefined) ?? null,
    collaborations: async (userId, repoIds) =>
      (await run('anvil_collaborations', POSTGRES_COLLABORATIONS_SQL, [userId, POSTGRES.list(repoIds)]))
        .rows as unknown as Array<{ repoId: number; accessMode: number }>,
    isOrgMember: async (userId, orgId) =>
      (await run('anvil_org_member', ORG_MEMBER_SQL, [userId, orgId])).rows.length > 0,
    memberOrgIds: async (userId, orgIds) =>
      (await run('anvil_member_org_ids', POSTGRES_MEMBER_ORG_IDS_SQL, [userId, POSTGRES.list(orgIds)])).rows.map(
        (row) => row.orgId as number,
      ),
    memberTeams: async (userId, orgId) =>
      (await run('anvil_member_teams', MEMBER_TEAMS_SQL, [userId, orgId])).rows as unknown as ViewerTeamRow[],
    orgRepositoryFacts: async (userId, repoId, orgId) =>
      (await run('anvil_org_repository_facts', POSTGRES_ORG_REPOSITORY_FACTS_SQL, [userId, repoId, orgId]))
        .rows[0] as unknown as OrgRepositoryFactsRow,
    async repositoryInOrgWithFacts(org, lowerName, viewerId) {
      const { rows } = await run('anvil_repository_in_org_with_facts', POSTGRES_REPOSITORY_IN_ORG_WITH_FACTS_SQL, [
        org.id,
        lowerName,
        viewerId,
      ]);
      if (rows.length === 0) return null;
      const { row, facts } = factsApart(rows[0]);
      return { repo: (await withOwner([row], org))!, facts };
    },
    async repositoryByIdWithFacts(id, viewerId) {
      const { rows } = await run('anvil_repository_by_id_with_facts', POSTGRES_REPOSITORY_BY_ID_WITH_FACTS_SQL, [
        id,
        viewerId,
      ]);
      return rows.length === 0 ? null : withOwnerAndFacts(rows[0]);
    },
    async repositoriesByIdsWithFacts(ids, viewerId) {
      const { rows } = await run('anvil_repositories_by_ids_with_facts', POSTGRES_REPOSITORIES_BY_IDS_WITH_FACTS_SQL, [
        POSTGRES.list(ids),
        viewerId,
      ]);
      return withOwnersOnce(rows, withOwnerAndFacts);
    },
    memberTeamUnitModes: async (userId, orgId, unitType) =>
      (await run('anvil_member_team_unit_modes', MEMBER_TEAM_UNIT_MODES_SQL, [unitType, userId, orgId]))
        .rows as unknown as TeamUnitMode[],
    blocks: async (blockerId, blockeeId) =>
      (await run('anvil_user_blocks', BLOCKS_SQL, [blockerId, blockeeId])).rows.length > 0,
  };
}
