// How the prepared statements of hot-queries.ts write what differs between the databases: a list of ids and a date,
// each as one parameter (a statement's text stays the same whatever the list's length).
import { sqliteTimestamp } from './sqlite-values.ts';

/** How each database takes a list of ids and a date as one parameter. */
export interface Dialect {
  inList(column: string, placeholder: string): string;
  /** The list as a table `ids` of one column, `value`. */
  listTable(placeholder: string): string;
  list(values: readonly number[]): unknown;
  date(at: Date): unknown;
}

export const SQLITE: Dialect = {
  inList: (column, placeholder) => `${column} IN (SELECT value FROM json_each(${placeholder}))`,
  listTable: (placeholder) => `json_each(${placeholder}) AS ids`,
  list: (values) => JSON.stringify(values),
  date: sqliteTimestamp,
};

export const POSTGRES: Dialect = {
  inList: (column, placeholder) => `${column} = ANY(${placeholder}::int[])`,
  listTable: (placeholder) => `unnest(${placeholder}::int[]) AS ids(value)`,
  list: (values) => [...values],
  date: (at) => at,
};

/** Runs a named (prepared) PostgreSQL statement: parsed once per connection and reused. */
export type PostgresRun = (
  name: string,
  text: string,
  values: unknown[],
) => Promise<{ rows: Array<Record<string, unknown>> }>;
