// A short-lived per-process cache of the repository a request names, with the viewer's access facts on it when an
// organization owns it. On PostgreSQL that is a round trip of every repository-scoped request: in the CI-bot mix,
// one statement in five. Any write to the rows those lookups read (the repository, its units, collaborations, the
// org's members and teams, or any account) empties it (lookup-invalidation.ts), and so does a message from another
// process (the shared Redis); the TTL bounds what another process may still serve when no Redis tells it.
import { LRUCache } from 'lru-cache';
import { ClearedOnWrite } from './cleared-on-write.ts';
import type { OrgRepositoryFactsRow } from './hot-repository-queries.ts';
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

export class RepositoryLookupCache extends ClearedOnWrite {
  private readonly inOwner: LRUCache<string, RepoWithOwner>;
  private readonly inOrgWithFacts: LRUCache<string, RepositoryWithFacts>;

  constructor(readonly ttlMs: number) {
    super();
    this.inOwner = new LRUCache({ max: ENTRIES, ttl: ttlMs });
    this.inOrgWithFacts = new LRUCache({ max: ENTRIES, ttl: ttlMs });
  }

  async repositoryInOwner(
    ownerId: number,
    lowerName: string,
    load: () => Promise<RepoWithOwner | null>,
  ): Promise<RepoWithOwner | null> {
    const key = `${ownerId}/${lowerName}`;
    const hit = this.inOwner.get(key);
    if (hit) return copyRepository(hit);
    return this.loadAndKeep(load, (found) => this.inOwner.set(key, copyRepository(found)));
  }

  async repositoryInOrgWithFacts(
    orgId: number,
    lowerName: string,
    viewerId: number,
    load: () => Promise<RepositoryWithFacts | null>,
  ): Promise<RepositoryWithFacts | null> {
    const key = `${orgId}/${lowerName}/${viewerId}`;
    const hit = this.inOrgWithFacts.get(key);
    if (hit) return copyWithFacts(hit);
    return this.loadAndKeep(load, (found) => this.inOrgWithFacts.set(key, copyWithFacts(found)));
  }

  protected empty(): void {
    this.inOwner.clear();
    this.inOrgWithFacts.clear();
  }
}
