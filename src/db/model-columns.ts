// A table's columns as a hot statement reads them, checked at compile time against the Prisma model (a column added
// to the model must be listed, or the hot rows would lack it), and how SQLite's answers become the model's types.
import { sqliteDate } from './sqlite-values.ts';

export interface ModelColumns {
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
