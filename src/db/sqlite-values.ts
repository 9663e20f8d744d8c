// How the hot statements speak to SQLite: its placeholders, and the text form of its dates.

/** The statement with SQLite's `?` placeholders for `$1`, `$2`… (each used once, in order). */
export function positionalSql(sql: string): string {
  return sql.replace(/\$\d+/g, '?');
}

/** A DATETIME column as the Prisma adapter wrote it (text), or null. */
export function sqliteDate(value: unknown): Date | null {
  return value === null || value === undefined ? null : new Date(value as string);
}

/** A date in the text form the Prisma adapter writes (and compares). */
export function sqliteTimestamp(at: Date): string {
  return at.toISOString().replace('Z', '+00:00');
}
