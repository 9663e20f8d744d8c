// Visibility checked for a few rows at once: of content rows (issues, notification threads) already read, those the
// reader may see, by asking the rule of content-access-filters.ts for their repositories alone (one small query per
// unit among them). Paging through candidates uses it instead of the full filter over the whole table.
import type { ContentUnit } from '../domain/access/content-visibility.ts';
import { type ContentReader, contentRepositoriesWhere } from './content-access-filters.ts';
import type { DbClient } from './prisma.ts';

/** A row of content: its id, its repository and the unit it belongs to. */
export interface ContentRow {
  id: number;
  repoId: number;
  unit: ContentUnit;
}

/** The ids of `rows` that `reader` may see, in the order given. */
export async function visibleContentIds(
  client: DbClient,
  reader: ContentReader,
  rows: readonly ContentRow[],
): Promise<number[]> {
  const reposByUnit = new Map<ContentUnit, Set<number>>();
  for (const row of rows) {
    const repos = reposByUnit.get(row.unit) ?? new Set<number>();
    repos.add(row.repoId);
    reposByUnit.set(row.unit, repos);
  }
  const visible = new Map<ContentUnit, Set<number>>();
  for (const [unit, repos] of reposByUnit) {
    const found = await client.repository.findMany({
      where: { AND: [{ id: { in: [...repos] } }, contentRepositoriesWhere(reader, unit)] },
      select: { id: true },
    });
    visible.set(unit, new Set(found.map((repo) => repo.id)));
  }
  return rows.filter((row) => visible.get(row.unit)!.has(row.repoId)).map((row) => row.id);
}
