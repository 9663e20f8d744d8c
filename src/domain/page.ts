// One page of a list: what services and repositories take and give; src/http/pagination.ts reads it from the
// query and writes X-Total-Count and Link.

export interface ListOptions {
  page: number;
  limit: number;
  skip: number;
}

export interface Page<T> {
  items: T[];
  total: number;
}

/** The page of a list already in memory (git refs, files of a diff), with the list's length as the total. */
export function pageOf<T>(all: readonly T[], page: ListOptions): Page<T> {
  return { items: all.slice(page.skip, page.skip + page.limit), total: all.length };
}
