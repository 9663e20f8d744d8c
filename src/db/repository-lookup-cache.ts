// A short-lived per-process cache of what nearly every repository request looks up about the repository it names:
// the repository (by owner and name, or by id) with the viewer's access facts on it when an organization owns it,
// its release count, and whether a hook or a scheduled merge may follow an event on it; and the viewer's teams in an
// org (a package download asks). On PostgreSQL each is a round trip: in the CI-bot mix they were 4 statements in 10.
// Any write to the rows those lookups read (the repository, its units, collaborations, the org's members and teams,
// releases, hooks, pull requests and their merges, or any account) empties it (lookup-invalidation.ts), and so does a
// message from another process (the shared Redis); the TTL bounds what another process may still serve when no Redis
// tells it.
import { LRUCache } from 'lru-cache';
import { ClearedOnWrite } from './cleared-on-write.ts';
import type { OrgRepositoryFactsRow, TeamUnitMode } from './hot-repository-queries.ts';
import type { RepoWithOwner } from './repository-details.ts';

const ENTRIES = 5000;

export interface RepositoryWithFacts {
  repo: RepoWithOwner;
  facts: OrgRepositoryFactsRow;
}

/** Copies down to the rows, so a caller that changes what it was given changes nothing kept. */
const copyRepository = (repo: RepoWithOwner): RepoWithOwner => ({
  ...repo,
  owner: { ...repo.owner },
  units: repo.units.map((unit) => ({ ...unit })),
});
const copyFacts = (facts: OrgRepositoryFactsRow): OrgRepositoryFactsRow => ({
  ...facts,
  teams: facts.teams.map((team) => ({ ...team, units: team.units.map((unit) => ({ ...unit })) })),
});
const copyWithFacts = (found: RepositoryWithFacts): RepositoryWithFacts => ({
  repo: copyRepository(found.repo),
  facts: copyFacts(found.facts),
});

/** Keys of one repository: by owner and lower name, or by id; with facts, the viewer's too. */
const byName = (ownerId: number, lowerName: string) => `${ownerId}/${lowerName}`;
const byId = (id: number) => `#${id}`;
const ofViewer = (key: string, viewerId: number) => `${key}@${viewerId}`;

export class RepositoryLookupCache extends ClearedOnWrite {
  private readonly repositories: LRUCache<string, RepoWithOwner>;
  private readonly withFacts: LRUCache<string, RepositoryWithFacts>;
  /** Release counts and whether hooks or merges wait on events, by `kind#repository id`. */
  private readonly answers: LRUCache<string, number | boolean>;
  private readonly teamUnitModes: LRUCache<string, TeamUnitMode[]>;

  constructor(readonly ttlMs: number) {
    super();
    this.repositories = new LRUCache({ max: ENTRIES, ttl: ttlMs });
    this.withFacts = new LRUCache({ max: ENTRIES, ttl: ttlMs });
    this.answers = new LRUCache({ max: ENTRIES, ttl: ttlMs });
    this.teamUnitModes = new LRUCache({ max: ENTRIES, ttl: ttlMs });
  }

  async memberTeamUnitModes(
    userId: number,
    orgId: number,
    unitType: number,
    load: () => Promise<TeamUnitMode[]>,
  ): Promise<TeamUnitMode[]> {
    const copy = (modes: TeamUnitMode[]) => modes.map((mode) => ({ ...mode }));
    return (await this.one(this.teamUnitModes, `${userId}/${orgId}/${unitType}`, copy, load)) ?? [];
  }

  releaseCount(repoId: number, load: () => Promise<number>): Promise<number> {
    return this.answer(`releases#${repoId}`, load);
  }

  activeHookExists(repoId: number, load: () => Promise<boolean>): Promise<boolean> {
    return this.answer(`hooks#${repoId}`, load);
  }

  pendingAutoMergeExists(repoId: number, load: () => Promise<boolean>): Promise<boolean> {
    return this.answer(`auto-merge#${repoId}`, load);
  }

  repositoryInOwner(
    ownerId: number,
    lowerName: string,
    load: () => Promise<RepoWithOwner | null>,
  ): Promise<RepoWithOwner | null> {
    return this.one(this.repositories, byName(ownerId, lowerName), copyRepository, load);
  }

  repositoryById(id: number, load: () => Promise<RepoWithOwner | null>): Promise<RepoWithOwner | null> {
    return this.one(this.repositories, byId(id), copyRepository, load);
  }

  /** The repositories of those ids that exist: those not kept are read with one call of `load`. */
  repositoriesByIds(
    ids: readonly number[],
    load: (missing: number[]) => Promise<RepoWithOwner[]>,
  ): Promise<RepoWithOwner[]> {
    return this.many(this.repositories, ids, byId, copyRepository, load, (repo) => repo.id);
  }

  repositoryInOrgWithFacts(
    orgId: number,
    lowerName: string,
    viewerId: number,
    load: () => Promise<RepositoryWithFacts | null>,
  ): Promise<RepositoryWithFacts | null> {
    return this.one(this.withFacts, ofViewer(byName(orgId, lowerName), viewerId), copyWithFacts, load);
  }

  repositoryByIdWithFacts(
    id: number,
    viewerId: number,
    load: () => Promise<RepositoryWithFacts | null>,
  ): Promise<RepositoryWithFacts | null> {
    return this.one(this.withFacts, ofViewer(byId(id), viewerId), copyWithFacts, load);
  }

  repositoriesByIdsWithFacts(
    ids: readonly number[],
    viewerId: number,
    load: (missing: number[]) => Promise<RepositoryWithFacts[]>,
  ): Promise<RepositoryWithFacts[]> {
    const key = (id: number) => ofViewer(byId(id), viewerId);
    return this.many(this.withFacts, ids, key, copyWithFacts, load, (found) => found.repo.id);
  }

  protected empty(): void {
    this.repositories.clear();
    this.withFacts.clear();
    this.answers.clear();
    this.teamUnitModes.clear();
  }

  private async answer<T extends number | boolean>(key: string, load: () => Promise<T>): Promise<T> {
    const hit = this.answers.get(key);
    if (hit !== undefined) return hit as T;
    return this.loadAndKeep(load, (found) => this.answers.set(key, found));
  }

  private async one<T extends object>(
    kept: LRUCache<string, T>,
    key: string,
    copy: (found: T) => T,
    load: () => Promise<T | null>,
  ): Promise<T | null> {
    const hit = kept.get(key);
    if (hit) return copy(hit);
    return this.loadAndKeep(load, (found) => kept.set(key, copy(found)));
  }

  private async many<T extends object>(
    kept: LRUCache<string, T>,
    ids: readonly number[],
    key: (id: number) => string,
    copy: (found: T) => T,
    load: (missing: number[]) => Promise<T[]>,
    idOf: (found: T) => number,
  ): Promise<T[]> {
    const hits: T[] = [];
    const missing: number[] = [];
    for (const id of ids) {
      const hit = kept.get(key(id));
      if (hit) hits.push(copy(hit));
      else missing.push(id);
    }
    if (missing.length === 0) return hits;
    const loaded = await this.loadAndKeep(
      () => load(missing),
      (found) => {
        for (const each of found) kept.set(key(idOf(each)), copy(each));
      },
    );
    return [...hits, ...loaded];
  }
}
