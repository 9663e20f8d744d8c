// A table's columns as a hot statement reads them, checked at compile time against the Prisma model (a column added
// to the model must be listed, or the hot rows would lack it), and how SQLite's answers become the model's types.
import { sqliteDate } from './sqlite-values.ts';

export interface ModelColumns {
  /** The column names, in order. */
  readonly names: readonly string[];
  /** The quoted column list for SELECT. */
  readonly select: string;
  /** Columns SQLite answers as 0/1. */
  readonly booleans: readonly string[];
  /** Columns SQLite answers as text. */
  readonly dates: readonly string[];
}

type Missing<M, L extends readonly string[]> = Exclude<keyof M, L[number]>;

/** `modelColumns<Model>()(every column, { booleans, dates })`; leaving a column of the model out does not compile. */
export function modelColumns<M>() {
  return <const L extends ReadonlyArray<keyof M & string>>(
    names: [Missing<M, L>] extends [never] ? L : { missing: Missing<M, L> },
    types: { booleans?: ReadonlyArray<L[number]>; dates?: ReadonlyArray<L[number]> },
  ): ModelColumns => ({
    names: names as L,
    select: (names as L).map((name) => `"${name}"`).join(', '),
    booleans: types.booleans ?? [],
    dates: types.dates ?? [],
  });
}

/** A row SQLite answered, in the model's types (the row is changed in place). */
export function sqliteModelRow<M>(columns: ModelColumns, row: Record<string, unknown>): M {
  for (const column of columns.booleans) row[column] = row[column] === 1;
  for (const column of columns.dates) row[column] = sqliteDate(row[column]);
  return row as M;
}

/** The columns of table `alias`, each named `prefix` and the column: a row read beside another table's in a join. */
export function prefixedSelect(columns: Pick<ModelColumns, 'names'>, alias: string, prefix: string): string {
  return columns.names.map((name) => `${alias}."${name}" AS "${prefix}${name}"`).join(', ');
}

/** Each prefix's column keys, per column list: made once, not per row and column (that cost more than the copy). */
const prefixedKeys = new WeakMap<readonly string[], Map<string, { id: string; keys: readonly string[] }>>();

function keysWithPrefix(names: readonly string[], prefix: string): { id: string; keys: readonly string[] } {
  let byPrefix = prefixedKeys.get(names);
  if (!byPrefix) prefixedKeys.set(names, (byPrefix = new Map()));
  let found = byPrefix.get(prefix);
  if (!found) byPrefix.set(prefix, (found = { id: `${prefix}id`, keys: names.map((name) => prefix + name) }));
  return found;
}

/** The row of a PostgreSQL join read with prefixedSelect; null when the join found none (its id is null). */
export function prefixedPostgresRow<M>(
  columns: Pick<ModelColumns, 'names'>,
  row: Record<string, unknown>,
  prefix: string,
): M | null {
  const { id, keys } = keysWithPrefix(columns.names, prefix);
  if (row[id] === null) return null;
  const { names } = columns;
  const model: Record<string, unknown> = {};
  for (let i = 0; i < names.length; i++) model[names[i]] = row[keys[i]];
  return model as M;
}
