// Visibility checked for a few rows at once: of content rows (issues, notification threads) already read, those the
// reader may see, by asking the rule of content-access-filters.ts for their repositories alone (one small query per
// unit among them). Paging through candidates uses it instead of the full filter over the whole table.
import type { ContentUnit } from '../domain/access/content-visibility.ts';
import { type ContentReader, contentRepositoriesWhere } from './content-access-filters.ts';
import type { DbClient } from './prisma.ts';

/** Where a row of content lives: its repository and the unit it belongs to. */
export interface ContentPlace {
  repoId: number;
  unit: ContentUnit;
}

/** The rows `reader` may see, in the order given. */
export async function visibleContent<R>(
  client: DbClient,
  reader: ContentReader,
  rows: readonly R[],
  placeOf: (row: R) => ContentPlace,
): Promise<R[]> {
  const places = rows.map(placeOf);
  const reposByUnit = new Map<ContentUnit, Set<number>>();
  for (const { repoId, unit } of places) {
    const repos = reposByUnit.get(unit) ?? new Set<number>();
    repos.add(repoId);
    reposByUnit.set(unit, repos);
  }
  const visible = new Map<ContentUnit, Set<number>>();
  for (const [unit, repos] of reposByUnit) {
    const found = await client.repository.findMany({
      where: { AND: [{ id: { in: [...repos] } }, contentRepositoriesWhere(reader, unit)] },
      select: { id: true },
    });
    visible.set(unit, new Set(found.map((repo) => repo.id)));
  }
  return rows.filter((_, i) => visible.get(places[i].unit)!.has(places[i].repoId));
}
