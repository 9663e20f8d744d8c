import { RevisionCache } from '../../src/packages/core/revision-cache.ts';

describe('RevisionCache', () => {
  it('keeps a value while its revision is current and builds it again at a new one', async () => {
    const cache = new RevisionCache<string>({ maxSize: 1000, sizeOf: (value) => value.length });
    let builds = 0;
    const build = (value: string) => () => Promise.resolve(`${value}${++builds}`);
    expect(await cache.get('a', 1, build('x'))).toBe('x1');
    expect(await cache.get('a', 1, build('x'))).toBe('x1');
    expect(await cache.get('a', 2, build('x'))).toBe('x2');
    expect(await cache.get('a', '2', build('x'))).toBe('x3');
  });

  it('shares one build between concurrent requests and keeps no failure', async () => {
    const cache = new RevisionCache<number>({ maxSize: 10 });
    let builds = 0;
    const slow = () => new Promise<number>((resolve) => setTimeout(() => resolve(++builds), 10));
    const [a, b] = await Promise.all([cache.get('k', 1, slow), cache.get('k', 1, slow)]);
    expect([a, b, builds]).toEqual([1, 1, 1]);
    await expect(cache.get('f', 1, () => Promise.reject(new Error('no')))).rejects.toThrow('no');
    expect(await cache.get('f', 1, () => Promise.resolve(7))).toBe(7);
  });

  it('does not keep a value larger than a quarter of its bound', async () => {
    const cache = new RevisionCache<string>({ maxSize: 100, sizeOf: (value) => value.length });
    let builds = 0;
    const build = (length: number) => () => Promise.resolve('y'.repeat(length + 0 * ++builds));
    await cache.get('small', 1, build(20));
    await cache.get('big', 1, build(30));
    await new Promise((resolve) => setImmediate(resolve));
    await cache.get('small', 1, build(20));
    await cache.get('big', 1, build(30));
    expect(builds).toBe(3);
  });
});
