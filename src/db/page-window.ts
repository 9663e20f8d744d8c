// Offset pages read from the nearer end: the last page of 100,000 rows read as the first page of the reversed order,
// so it walks 50 rows instead of 99,950. Needs the total first, and an order that is total (ends with a unique key).
// Lists filtered by visibility can also page through candidates: the first rows of the order under every filter but
// visibility (read from an index), then visibility checked for those rows' repositories alone (visible-content.ts).
// The big visibility filter then never meets the big table in one query: on PostgreSQL planning that query alone took
// 40–280 ms, for a page that executes in 2 ms.

/** What to ask the database for: skip and take in the given order, or in the reversed order (then reverse the rows). */
export interface PageWindow {
  skip: number;
  take: number;
  reversed: boolean;
}

/** The window for rows [skip, skip + take) of `total`; null when the page is past the end. */
export function pageWindow(total: number, skip: number, take: number): PageWindow | null {
  if (skip >= total || take <= 0) return null;
  const end = Math.min(total, skip + take);
  const fromEnd = total - end;
  return fromEnd < skip
    ? { skip: fromEnd, take: end - skip, reversed: true }
    : { skip, take: end - skip, reversed: false };
}

type Direction = 'asc' | 'desc';

/** A Prisma orderBy list with every direction turned. */
export function reversedOrder<T extends Record<string, unknown>>(orderBy: readonly T[]): T[] {
  return orderBy.map(
    (entry) =>
      Object.fromEntries(
        Object.entries(entry).map(([column, direction]) => [
          column,
          (direction as Direction) === 'asc' ? 'desc' : 'asc',
        ]),
      ) as T,
  );
}

/** Reads `take` rows after `skip` in `orderBy` under the full filter. */
export type PageReader<T, O> = (orderBy: O[], skip: number, take: number) => Promise<T[]>;
/**
 * The first `count` rows in `orderBy` under a filter that keeps every row the full filter keeps: how many there were
 * (`scanned`), and those the full filter keeps, in order.
 */
export type CandidateReader<T, O> = (orderBy: O[], count: number) => Promise<{ scanned: number; kept: T[] }>;

/** Candidates beyond this many are not worth reading: the page is read with the full filter alone. */
const MAX_CANDIDATES = 2_000;

async function throughCandidates<T, O>(
  orderBy: O[],
  skip: number,
  take: number,
  read: PageReader<T, O>,
  candidates: CandidateReader<T, O>,
): Promise<T[]> {
  // The page is among the first `count` candidates once they hold skip + take rows the full filter keeps.
  for (let count = 2 * (skip + take); count <= MAX_CANDIDATES; count *= 4) {
    const { scanned, kept } = await candidates(orderBy, count);
    if (kept.length >= skip + take || scanned < count) return kept.slice(skip, skip + take);
  }
  return read(orderBy, skip, take);
}

/** One page through `read`, from whichever end is nearer (through `candidates` when given). */
export async function readPage<T, O extends Record<string, unknown>>(
  total: number,
  skip: number,
  take: number,
  orderBy: readonly O[],
  read: PageReader<T, O>,
  candidates?: CandidateReader<T, O>,
): Promise<T[]> {
  const window = pageWindow(total, skip, take);
  if (!window) return [];
  const order = window.reversed ? reversedOrder(orderBy) : [...orderBy];
  const rows = candidates
    ? await throughCandidates(order, window.skip, window.take, read, candidates)
    : await read(order, window.skip, window.take);
  return window.reversed ? rows.reverse() : rows;
}
