// Who hears of an issue event: the issue's watchers and unwatchers, the repository's watchers, its participants, and
// who among them blocks the actor (Forgejo: models/activities/notification_list.go, models/user/block.go).
import type { HotQueries } from './hot-queries.ts';
import { CommentType, type IssueRow } from './issue.repository.ts';
import type { DbClient, User } from './prisma.ts';

export class IssueAudienceRepository {
  constructor(
    private readonly client: DbClient,
    /** Prepared statements; absent inside a transaction, where they would not see its own writes. */
    private readonly hot?: HotQueries,
  ) {}

  /**
   * Who looks at an event of the issue: its watch rows (watching true, or an explicit unwatch), the repository's
   * watchers in a mode that hears of issues (normal and auto watches), and the poster and everyone who commented
   * (Forgejo: GetParticipantIDsByIssue).
   */
  async issueAudience(issue: IssueRow): Promise<{
    watches: Array<{ userId: number; isWatching: boolean }>;
    repoWatcherIds: number[];
    participantIds: number[];
  }> {
    if (this.hot) {
      const rows = await this.hot.issueAudience(issue.id, issue.repoId, CommentType.comment);
      return { ...rows, participantIds: [issue.posterId, ...rows.commenterIds] };
    }
    const [watches, watchers, commenters] = await Promise.all([
      this.client.issueWatch.findMany({ where: { issueId: issue.id }, select: { userId: true, isWatching: true } }),
      this.client.watch.findMany({ where: { repoId: issue.repoId, mode: { in: [1, 3] } }, select: { userId: true } }),
      // Grouped in the database: `distinct` would read every comment of the issue and drop the repeats here.
      this.client.comment.groupBy({ by: ['posterId'], where: { issueId: issue.id, type: CommentType.comment } }),
    ]);
    return {
      watches,
      repoWatcherIds: watchers.map((row) => row.userId),
      participantIds: [issue.posterId, ...commenters.map((row) => row.posterId)],
    };
  }

  /** The users of these ids who do not block `actorId`. */
  async usersNotBlocking(actorId: number, userIds: readonly number[]): Promise<User[]> {
    if (userIds.length === 0) return [];
    if (this.hot) return this.hot.usersNotBlocking(actorId, userIds);
    const blockers = await this.blockerIds(actorId, userIds);
    return this.client.user.findMany({ where: { id: { in: userIds.filter((id) => !blockers.includes(id)) } } });
  }

  /** Of `userIds`, those who blocked `actorId`. */
  async blockerIds(actorId: number, userIds: readonly number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    if (this.hot) return this.hot.blockerIds(actorId, userIds);
    const rows = await this.client.userBlocking.findMany({
      where: { blockeeId: actorId, blockerId: { in: [...userIds] } },
      select: { blockerId: true },
    });
    return rows.map((row) => row.blockerId);
  }

  async isBlocked(blockerId: number, blockeeId: number): Promise<boolean> {
    if (this.hot) return this.hot.blocks(blockerId, blockeeId);
    return (await this.client.userBlocking.count({ where: { blockerId, blockeeId } })) > 0;
  }
}
