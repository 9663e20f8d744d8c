// Activity feed rows (Action) as repository changes touch them.
import type { DbClient } from './prisma.ts';

export class FeedActionRepository {
  constructor(private readonly client: DbClient) {}

  /** Feed entries copy their repository's privacy so feeds filter without a join. */
  setRepoPrivacy(repoId: number, isPrivate: boolean) {
    return this.client.action.updateMany({ where: { repoId }, data: { isPrivate } });
  }

  deleteOlderThan(cutoff: Date) {
    return this.client.action.deleteMany({ where: { createdAt: { lt: cutoff } } });
  }
}
