// Pages read from the nearer end and through candidates answer what the plain offset answers; counts are kept per version.
import { CountCache } from '../../src/db/count-cache.ts';
import { pageWindow, readPage } from '../../src/db/page-window.ts';

type Order = { n: 'asc' | 'desc' };
const rows = Array.from({ length: 23 }, (_, i) => i + 1);

/** A table of 1…23 where even numbers are hidden; candidates come from the whole table. */
function reader(calls: string[]) {
  const sorted = (orderBy: Order[]) => (orderBy[0].n === 'asc' ? [...rows] : [...rows].reverse());
  return {
    read: async (orderBy: Order[], skip: number, take: number) => {
      calls.push(`read ${orderBy[0].n} ${skip} ${take}`);
      return sorted(orderBy)
        .filter((n) => n % 2 === 1)
        .slice(skip, skip + take);
    },
    candidates: async (orderBy: Order[], count: number) => {
      const scanned = sorted(orderBy).slice(0, count);
      calls.push(`candidates ${count}`);
      return { scanned: scanned.length, kept: scanned.filter((n) => n % 2 === 1) };
    },
  };
}

describe('pageWindow', () => {
  it('reads a page nearer the end in the reversed order', () => {
    expect(pageWindow(100, 0, 50)).toEqual({ skip: 0, take: 50, reversed: false });
    expect(pageWindow(100_000, 99_950, 50)).toEqual({ skip: 0, take: 50, reversed: true });
    expect(pageWindow(101, 100, 50)).toEqual({ skip: 0, take: 1, reversed: true });
    expect(pageWindow(100, 100, 50)).toBeNull();
  });
});

describe('readPage', () => {
  const visible = rows.filter((n) => n % 2 === 1);
  const order: Order[] = [{ n: 'asc' }];

  it('answers every page as the plain offset would, from either end, with and without candidates', async () => {
    for (const take of [1, 2, 5, 12]) {
      for (let skip = 0; skip < visible.length + 2; skip += take) {
        const expected = visible.slice(skip, skip + take);
        const calls: string[] = [];
        const { read, candidates } = reader(calls);
        await expect(readPage(visible.length, skip, take, order, read)).resolves.toEqual(expected);
        await expect(readPage(visible.length, skip, take, order, read, candidates)).resolves.toEqual(expected);
      }
    }
  });

  it('reads the last page backwards and from candidates', async () => {
    const calls: string[] = [];
    const { read, candidates } = reader(calls);
    await expect(readPage(visible.length, 10, 2, order, read, candidates)).resolves.toEqual([21, 23]);
    expect(calls).toEqual(['candidates 4']);
  });

  it('reads twice the rows before the page end as candidates, and more when too few of them are visible', async () => {
    const calls: string[] = [];
    const { read } = reader(calls);
    // Only every fourth row is visible among these candidates.
    const sparse = async (orderBy: Order[], count: number) => {
      calls.push(`candidates ${count}`);
      const scanned = (orderBy[0].n === 'asc' ? rows : [...rows].reverse()).slice(0, count);
      return { scanned: scanned.length, kept: scanned.filter((n) => n % 4 === 1) };
    };
    await expect(readPage(6, 2, 2, order, read, sparse)).resolves.toEqual([9, 13]);
    expect(calls).toEqual(['candidates 8', 'candidates 32']);
  });
});

describe('CountCache', () => {
  it('keeps a large count until the version changes', async () => {
    let version = 1;
    let counted = 100_000;
    const cache = new CountCache(async () => version);
    const count = () => cache.count('k', async () => ++counted);
    await expect(count()).resolves.toBe(100_001);
    await expect(count()).resolves.toBe(100_001);
    version = 2;
    await expect(count()).resolves.toBe(100_002);
  });

  it('counts a small count afresh each time, without reading the version again', async () => {
    let versionsRead = 0;
    let counted = 0;
    const cache = new CountCache(async () => ++versionsRead);
    const count = () => cache.count('k', async () => ++counted);
    await expect(count()).resolves.toBe(1);
    await expect(count()).resolves.toBe(2);
    await expect(count()).resolves.toBe(3);
    expect(versionsRead).toBe(1);
  });

  it('goes back to keeping a count that grew large', async () => {
    let version = 1;
    let total = 5;
    let counted = 0;
    const cache = new CountCache(async () => version);
    const count = () => cache.count('k', async () => (counted++, total));
    await count();
    version = 2;
    total = 50_000;
    await expect(count()).resolves.toBe(50_000);
    await expect(count()).resolves.toBe(50_000);
    await expect(count()).resolves.toBe(50_000);
    expect(counted).toBe(3);
    version = 3;
    total = 50_001;
    await expect(count()).resolves.toBe(50_001);
  });
});
