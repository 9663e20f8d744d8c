// A value made at its first use and kept: what a process may never need (a package registry, its service, a
// library) is not built at start.
export function onFirstUse<T>(make: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= make());
}

/** An object whose every property is made by its maker at the first read, then kept. */
export function builtAtFirstUse<Makers extends Record<string, () => unknown>>(
  makers: Makers,
): { readonly [Name in keyof Makers]: ReturnType<Makers[Name]> } {
  const built = {};
  for (const [name, make] of Object.entries(makers)) {
    Object.defineProperty(built, name, { get: onFirstUse(make), enumerable: true });
  }
  return built as { readonly [Name in keyof Makers]: ReturnType<Makers[Name]> };
}
