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

/** The row of a PostgreSQL join read with prefixedSelect; null when the join found none (its id is null). */
export function prefixedPostgresRow<M>(
  columns: Pick<ModelColumns, 'names'>,
  row: Record<string, unknown>,
  prefix: string,
): M | null {
  if (row[`${prefix}id`] === null) return null;
  const model: Record<string, unknown> = {};
  for (const name of columns.names) model[name] = row[prefix + name];
  return model as M;
}
