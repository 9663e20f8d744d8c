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
