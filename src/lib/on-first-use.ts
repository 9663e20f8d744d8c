// A value made at its first use and kept: what a process may never need (a package registry, its service, a
// library) is not built at start.
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}
