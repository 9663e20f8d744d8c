// Merges scheduled to run once the head's checks pass (PullAutoMerge rows), one per pull request.
import type { Models } from './entities.ts';
import type { DbClient } from './prisma.ts';
import type { EventHotQueries } from './hot-event-queries.ts';

export type PullAutoMergeRow = Models.PullAutoMergeModel;

export interface NewPullAutoMerge {
  pullId: number;
  doerId: number;
  mergeStyle: string;
  message: string;
  deleteBranchAfterMerge: boolean;
}

export class PullAutoMergeRepository {
  constructor(
    private readonly client: DbClient,
    /** Asks whether any merge waits in a repository by a prepared statement; absent inside a transaction. */
    private readonly hot?: EventHotQueries,
  ) {}

  create(data: NewPullAutoMerge): Promise<PullAutoMergeRow> {
    return this.client.pullAutoMerge.create({ data });
  }

  findByPull(pullId: number): Promise<PullAutoMergeRow | null> {
    return this.client.pullAutoMerge.findUnique({ where: { pullId } });
  }

  async remove(pullId: number): Promise<void> {
    await this.client.pullAutoMerge.deleteMany({ where: { pullId } });
  }

  /** The schedules of a repository's unmerged pull requests; the table holds only pending merges, so it is small. */
  async pendingIn(repoId: number) {
    if (this.hot && !(await this.hot.pendingAutoMergeExists(repoId))) return [];
    const schedules = await this.client.pullAutoMerge.findMany({ orderBy: { id: 'asc' } });
    if (schedules.length === 0) return [];
    const pulls = await this.client.pullRequest.findMany({
      where: { id: { in: schedules.map((s) => s.pullId) }, baseRepoId: repoId, hasMerged: false },
    });
    const byId = new Map(pulls.map((pull) => [pull.id, pull]));
    return schedules.flatMap((schedule) => {
      const pull = byId.get(schedule.pullId);
      return pull ? [{ schedule, pull }] : [];
    });
  }
}
