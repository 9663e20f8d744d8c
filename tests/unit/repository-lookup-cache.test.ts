// The repository lookup cache hands out copies, and keeps nothing a lookup read across a change.
import type { OrgRepositoryFactsRow } from '../../src/db/hot-repository-queries.ts';
import type { RepoWithOwner } from '../../src/db/repository-details.ts';
import { RepositoryLookupCache } from '../../src/db/repository-lookup-cache.ts';

const repository = (description: string) =>
  ({
    id: 3,
    description,
    owner: { id: 1, name: 'org' },
    units: [{ id: 1, type: 1 }],
  }) as unknown as RepoWithOwner;
const facts: OrgRepositoryFactsRow = {
  collaboration: null,
  member: true,
  teams: [{ id: 5, orgId: 1, accessMode: 1, includesAllRepositories: false, units: [], holdsRepository: true }],
};

describe('RepositoryLookupCache', () => {
  it('answers the second lookup from the cache, with copies the caller may change', async () => {
    const cache = new RepositoryLookupCache(60_000);
    const load = jest.fn(async () => ({ repo: repository('kept'), facts }));
    const first = (await cache.repositoryInOrgWithFacts(1, 'repo', 9, load))!;
    first.repo.description = 'changed by a caller';
    first.repo.owner.name = 'changed too';
    first.repo.units.pop();
    first.facts.teams[0].holdsRepository = false;
    const second = (await cache.repositoryInOrgWithFacts(1, 'repo', 9, load))!;
    expect(second.repo).toMatchObject({ description: 'kept', owner: { name: 'org' }, units: [{ type: 1 }] });
    expect(second.facts.teams[0].holdsRepository).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it("keeps each viewer's facts apart", async () => {
    const cache = new RepositoryLookupCache(60_000);
    await cache.repositoryInOrgWithFacts(1, 'repo', 9, async () => ({ repo: repository('a'), facts }));
    const other = jest.fn(async () => ({ repo: repository('a'), facts: { ...facts, member: false, teams: [] } }));
    expect((await cache.repositoryInOrgWithFacts(1, 'repo', 10, other))!.facts.member).toBe(false);
    expect(other).toHaveBeenCalledTimes(1);
  });

  it('does not keep what a lookup read before a change it overlapped, and reads again after one', async () => {
    const cache = new RepositoryLookupCache(60_000);
    let release: () => void = () => {};
    const pending = cache.repositoryInOwner(
      1,
      'repo',
      () => new Promise<RepoWithOwner>((resolve) => (release = () => resolve(repository('old row')))),
    );
    await cache.changed();
    release();
    expect((await pending)!.description).toBe('old row');
    expect((await cache.repositoryInOwner(1, 'repo', async () => repository('new row')))!.description).toBe('new row');
    await cache.changed();
    expect((await cache.repositoryInOwner(1, 'repo', async () => repository('newer')))!.description).toBe('newer');
  });

  it('reads only the repositories of a list it does not keep, in one call', async () => {
    const cache = new RepositoryLookupCache(60_000);
    const withId = (id: number) => ({ ...repository(`repository ${id}`), id });
    await cache.repositoryById(1, async () => withId(1));
    const load = jest.fn(async (ids: number[]) => ids.filter((id) => id !== 3).map(withId));
    const found = await cache.repositoriesByIds([1, 2, 3], load);
    expect(load).toHaveBeenCalledWith([2, 3]);
    expect(found.map((repo) => repo.id).sort()).toEqual([1, 2]);
    await cache.repositoriesByIds([1, 2], load);
    expect(load).toHaveBeenCalledTimes(1);
  });
});
