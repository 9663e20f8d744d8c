// The lookup cache keeps nothing read across a change: a lookup in flight when the cache is cleared is answered
// but not kept, and a token whose row was written (its use recorded) is read again.
import type { FoundToken } from '../../src/db/hot-queries.ts';
import { LookupCache } from '../../src/db/lookup-cache.ts';
import type { User } from '../../src/db/prisma.ts';

const user = (name: string) => ({ id: 1, name, lowerName: name }) as User;
const found = (name: string): FoundToken => ({
  tokenId: 7,
  scope: 'all',
  tokenUpdatedAt: new Date(0),
  user: user(name),
});

describe('LookupCache', () => {
  it('answers the second lookup from the cache, with a copy the caller may change', async () => {
    const cache = new LookupCache(60_000);
    const load = jest.fn(async () => user('alice'));
    const first = await cache.owner('alice', load);
    first!.name = 'changed by a caller';
    expect((await cache.owner('alice', load))!.name).toBe('alice');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('does not keep what a lookup read before a change it overlapped', async () => {
    const cache = new LookupCache(60_000);
    let release: () => void = () => {};
    const pending = cache.owner(
      'alice',
      () => new Promise<User>((resolve) => (release = () => resolve(user('old row')))),
    );
    cache.clear();
    release();
    expect((await pending)!.name).toBe('old row');
    expect((await cache.owner('alice', async () => user('new row')))!.name).toBe('new row');
  });

  it('reads a token again after its row was written', async () => {
    const cache = new LookupCache(60_000);
    const load = jest.fn(async () => found('alice'));
    await cache.token('digest', load);
    await cache.token('digest', load);
    cache.forgetToken(7);
    await cache.token('digest', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps no unknown name, and tells other processes of a local change', async () => {
    const cache = new LookupCache(60_000);
    const load = jest.fn(async () => null);
    await cache.owner('nobody', load);
    await cache.owner('nobody', load);
    expect(load).toHaveBeenCalledTimes(2);
    const broadcast = jest.fn(async () => undefined);
    cache.broadcastTo(broadcast);
    await cache.changed();
    expect(broadcast).toHaveBeenCalledTimes(1);
  });
});
