// Visibility checked for a few rows at once: of content rows (issues, notification threads) already read, those the
// reader may see. Paging through candidates and counting by repository use it instead of the full filter over the
// whole table, which PostgreSQL took 40–280 ms to plan and up to a second to run at 100,000 rows.
// Up to MAX_DECIDED_REPOSITORIES repositories, the pure rule decides from each repository and the viewer's facts on
// it, read by prepared statements: one by one for one to three (a Prisma query cost ~1 ms of CPU per notification
// poll), together for more (the SQL filter among even 60 repositories took PostgreSQL 14 ms to plan). Beyond that,
// the SQL filter of content-access-filters.ts asks among their ids. The repositories read are kept for the read, so
// what it shows beside its rows is not read again. tests/api/content-access-agreement.test.ts proves the ways agree.
import { type ContentUnit, readerSeesContent } from '../domain/access/content-visibility.ts';
import { type ContentReader, contentRepositoriesWhere } from './content-access-filters.ts';
import type { DbClient } from './prisma.ts';
import type { RepoAccessRepository } from './repo-access.repository.ts';
import { permissionsOnRepos, permissionWithFacts } from './repo-permissions.ts';
import type { RepoPermission } from '../domain/access/repo-permission.ts';
import type { RepoWithOwner } from './repository-details.ts';
import type { RepositoryHotQueries } from './hot-repository-queries.ts';

/** Prepared statements for single repositories and the access facts read through them (outside transactions). */
export interface FewRepositories {
  hot: RepositoryHotQueries;
  access: RepoAccessRepository;
  /** Repositories decided already in the same read (a count, then its page), by id. */
  decided?: Map<number, Promise<DecidedRepository | null>>;
}

interface DecidedRepository {
  repo: RepoWithOwner;
  permission: RepoPermission;
}

/** The same FewRepositories for one read: each repository is decided once across its count and its page. */
export function forOneRead(few: FewRepositories): FewRepositories {
  return { ...few, decided: new Map() };
}

/** The repositories a read loaded to decide visibility, by id, so what it shows beside its rows is not read again. */
export async function loadedRepositories(few: FewRepositories | undefined): Promise<Map<number, RepoWithOwner>> {
  const seen = new Map<number, RepoWithOwner>();
  for (const decided of few?.decided?.values() ?? []) {
    const found = await decided;
    if (found) seen.set(found.repo.id, found.repo);
  }
  return seen;
}

/** Repositories read one by one through prepared statements; more are read together. */
export const FEW_REPOSITORIES = 3;
/**
 * Up to this many repositories, the pure rule decides; beyond (a count over thousands of repositories), the SQL filter
 * does, whose plan PostgreSQL takes some 14 ms to make even among 60 repositories.
 */
const MAX_DECIDED_REPOSITORIES = 500;

/** Where a row of content lives: its repository and the unit it belongs to. */
export interface ContentPlace {
  repoId: number;
  unit: ContentUnit;
}

/** The rows `reader` may see, in the order given. */
export async function visibleContent<R>(
  client: DbClient,
  reader: ContentReader,
  rows: readonly R[],
  placeOf: (row: R) => ContentPlace,
  few?: FewRepositories,
): Promise<R[]> {
  const places = rows.map(placeOf);
  const repoIds = new Set(places.map((place) => place.repoId));
  if (few && repoIds.size <= MAX_DECIDED_REPOSITORIES) {
    const sees = await seesIn(few, reader, [...repoIds]);
    return rows.filter((_, i) => sees(places[i]));
  }
  const reposByUnit = new Map<ContentUnit, Set<number>>();
  for (const { repoId, unit } of places) {
    const repos = reposByUnit.get(unit) ?? new Set<number>();
    repos.add(repoId);
    reposByUnit.set(unit, repos);
  }
  const visible = new Map<ContentUnit, Set<number>>();
  for (const [unit, repos] of reposByUnit) {
    const ids = [...repos];
    const seen = new Set<number>();
    for (let start = 0; start < ids.length; start += REPOS_PER_QUERY) {
      const found = await client.repository.findMany({
        where: {
          AND: [{ id: { in: ids.slice(start, start + REPOS_PER_QUERY) } }, contentRepositoriesWhere(reader, unit)],
        },
        select: { id: true },
      });
      for (const repo of found) seen.add(repo.id);
    }
    visible.set(unit, seen);
  }
  return rows.filter((_, i) => visible.get(places[i].unit)!.has(places[i].repoId));
}

/** Whether the reader sees a place in these repositories, from each repository and the viewer's facts on it. */
async function seesIn(
  few: FewRepositories,
  reader: ContentReader,
  repoIds: number[],
): Promise<(place: ContentPlace) => boolean> {
  const decided = few.decided ?? new Map<number, Promise<DecidedRepository | null>>();
  const undecided = repoIds.filter((id) => !decided.has(id));
  if (undecided.length <= FEW_REPOSITORIES) {
    for (const id of undecided) decided.set(id, decideOne(few, reader, id));
  } else {
    const batch = decideMany(few, reader, undecided);
    for (const id of undecided)
      decided.set(
        id,
        batch.then((byId) => byId.get(id) ?? null),
      );
  }
  const byId = new Map(await Promise.all(repoIds.map(async (id) => [id, await decided.get(id)!] as const)));
  return ({ repoId, unit }) => {
    const found = byId.get(repoId);
    return !!found && readerSeesContent(reader.publicOnly, found.repo, found.permission, unit);
  };
}

/** One repository through prepared statements (a viewer's facts read with it). */
async function decideOne(few: FewRepositories, reader: ContentReader, id: number): Promise<DecidedRepository | null> {
  const { viewer } = reader;
  if (viewer && !viewer.isAdmin) {
    const found = await few.access.repositoryByIdWithFacts(id, viewer.id);
    return found && { repo: found.repo, permission: permissionWithFacts(viewer, found.repo, found.facts) };
  }
  const repo = await few.hot.repositoryById(id);
  const permission = repo && (await permissionsOnRepos(few.access, reader.viewer, [repo])).get(id)!;
  return repo && permission ? { repo, permission } : null;
}

/** Many repositories together, in a fixed number of statements (the list of ids is one parameter). */
async function decideMany(
  few: FewRepositories,
  reader: ContentReader,
  ids: number[],
): Promise<Map<number, DecidedRepository>> {
  const { viewer } = reader;
  if (viewer && !viewer.isAdmin) {
    // Each repository with the viewer's facts on it: one statement on PostgreSQL, where the facts apart were three.
    const found = await few.access.repositoriesByIdsWithFacts(ids, viewer.id);
    return new Map(
      found.map(({ repo, facts }) => [repo.id, { repo, permission: permissionWithFacts(viewer, repo, facts) }]),
    );
  }
  const repos = await few.hot.repositoriesByIds(ids);
  const permissions = await permissionsOnRepos(few.access, reader.viewer, repos);
  return new Map(repos.map((repo) => [repo.id, { repo, permission: permissions.get(repo.id)! }]));
}

/** Repositories per visibility query: an IN list well under either database's bound on parameters. */
const REPOS_PER_QUERY = 1_000;
/** Beyond this many (repository, unit) groups, counting through the full filter is the cheaper way. */
export const MAX_COUNTED_GROUPS = 5_000;

/**
 * The rows `reader` may see, counted from rows grouped by repository and unit (each group with its count); null when
 * there are more than MAX_COUNTED_GROUPS groups.
 */
export async function visibleCount<G>(
  client: DbClient,
  reader: ContentReader,
  groups: readonly G[],
  placeOf: (group: G) => ContentPlace,
  countOf: (group: G) => number,
  few?: FewRepositories,
): Promise<number | null> {
  if (groups.length > MAX_COUNTED_GROUPS) return null;
  const kept = await visibleContent(client, reader, groups, placeOf, few);
  return kept.reduce((sum, group) => sum + countOf(group), 0);
}
