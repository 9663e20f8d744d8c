// Topic names (Topic rows) for their ids and times; how many repositories carry one is counted from the
// repositories' own topic lists, so it cannot drift.
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';

export type TopicRow = Models.TopicModel;

export class TopicRepository {
  constructor(private readonly client: DbClient) {}

  /** Records names not seen before; a name another request records at the same time is kept once. */
  async remember(names: readonly string[]): Promise<void> {
    for (const name of names) {
      await this.client.topic.upsert({ where: { name }, create: { name }, update: {} });
    }
  }

  /** Names containing `keyword` (all of them when empty), the most used first, then by name. */
  async search(
    keyword: string,
    skip: number,
    take: number,
  ): Promise<{ topics: (TopicRow & { repoCount: number })[]; total: number }> {
    const where = keyword ? { name: { contains: keyword.toLowerCase() } } : {};
    const [rows, total] = await Promise.all([
      this.client.topic.findMany({ where, orderBy: { name: 'asc' } }),
      this.client.topic.count({ where }),
    ]);
    const counted = await Promise.all(
      rows.map(async (row) => ({
        ...row,
        repoCount: await this.client.repository.count({ where: { topics: { contains: JSON.stringify(row.name) } } }),
      })),
    );
    counted.sort((a, b) => b.repoCount - a.repoCount || a.name.localeCompare(b.name));
    return { topics: counted.slice(skip, skip + take), total };
  }
}
