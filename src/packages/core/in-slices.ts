// Long synchronous work of an index rebuild (an entry for each of thousands of packages) done in slices, with a turn
// of the event loop between them: a rebuild that held the loop for seconds let node's keep-alive timers fire before
// the requests already waiting on those connections were read, and node reset the connections (clients saw
// ECONNRESET), besides stalling every request meanwhile.

/** How long one slice may run before the loop gets a turn. */
const SLICE_MS = 15;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items.map(fn)`, giving the event loop a turn whenever a slice's time is up. */
export async function mapInSlices<T, R>(items: readonly T[], fn: (item: T, index: number) => R): Promise<R[]> {
  const out = new Array<R>(items.length);
  let sliceStart = performance.now();
  for (let i = 0; i < items.length; i++) {
    out[i] = fn(items[i]!, i);
    if (performance.now() - sliceStart >= SLICE_MS) {
      await turn();
      sliceStart = performance.now();
    }
  }
  return out;
}
