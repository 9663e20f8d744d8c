// A type guard for "one of these literal values", for the vocabularies declared `as const`.

export function memberOf<T extends string>(values: readonly T[]): (value: string) => value is T {
  const known = new Set<string>(values);
  return (value: string): value is T => known.has(value);
}
