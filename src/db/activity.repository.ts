// Feed actions (Action rows): one row per feed that shows an action, so a feed is one indexed query on userId.
import type { DbClient, Prisma } from './prisma.ts';

/** Watch modes that put a repository's actions in the watcher's feed (normal and auto watches). */
const FEED_WATCH_MODES = [1, 3];

export class ActivityRepository {
  constructor(private readonly client: DbClient) {}

  async feedWatcherIds(repoId: number): Promise<number[]> {
    const watchers = await this.client.watch.findMany({
      where: { repoId, mode: { in: FEED_WATCH_MODES } },
      select: { userId: true },
    });
    return watchers.map((watcher) => watcher.userId);
  }

  async createMany(actions: Prisma.ActionCreateManyInput[]): Promise<void> {
    await this.client.action.createMany({ data: actions });
  }
}
