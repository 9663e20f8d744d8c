// The sliced map the index builders write their entries with: the same result as a map, in order, with turns of
// the event loop between slices, so requests waiting on a rebuild's process are read (and not reset).
import { mapInSlices } from '../../src/packages/core/in-slices.ts';

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

describe('mapInSlices', () => {
  it('answers what map answers, in order, with each index', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => i);
    await expect(mapInSlices(items, (item, index) => `${item}:${index}`)).resolves.toEqual(
      items.map((item, index) => `${item}:${index}`),
    );
  });

  it('lets other callbacks run while long work goes on', async () => {
    let ranBetween = false;
    let mapping = true;
    setImmediate(() => (ranBetween = mapping));
    await mapInSlices([1, 2, 3], (item) => {
      busy(20);
      return item;
    });
    mapping = false;
    expect(ranBetween).toBe(true);
  });

  it('answers an empty list for an empty list', async () => {
    await expect(mapInSlices([], () => 1)).resolves.toEqual([]);
  });
});
