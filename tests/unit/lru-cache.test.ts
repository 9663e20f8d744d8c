import { LruCache } from '../../src/domain/lru-cache.ts';

it('keeps at most its capacity, forgetting the entry used longest ago', () => {
  const cache = new LruCache<number, string>(2);
  cache.set(1, 'one');
  cache.set(2, 'two');
  expect(cache.get(1)).toBe('one'); // 2 is now the oldest
  cache.set(3, 'three');
  expect([cache.get(1), cache.get(2), cache.get(3), cache.size]).toEqual(['one', undefined, 'three', 2]);
  cache.delete(1);
  expect(cache.size).toBe(1);
});
