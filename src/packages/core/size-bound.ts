// `[packages] LIMIT_SIZE_*` as the upload code takes it: -1 (Forgejo's "no limit") is no bound.
export function sizeBound(limit: number): number | undefined {
  return limit >= 0 ? limit : undefined;
}
