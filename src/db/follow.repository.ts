// Who follows whom (Follow rows: userId follows followId), with the counters Forgejo keeps beside them: the
// follower's num_following and the followed user's num_followers, changed in the same transaction as the row.
import { visibleOwnersWhere } from './access-filters.ts';
import type { Viewer } from '../domain/access/owner-visibility.ts';
import type { DbClient, User } from './prisma.ts';

export class FollowRepository {
  constructor(private readonly client: DbClient) {}

  async exists(userId: number, followId: number): Promise<boolean> {
    const row = await this.client.follow.findUnique({
      where: { userId_followId: { userId, followId } },
      select: { id: true },
    });
    return row !== null;
  }

  async create(userId: number, followId: number): Promise<void> {
    await this.client.follow.create({ data: { userId, followId } });
    await this.changeCounts(userId, followId, 1);
  }

  async delete(userId: number, followId: number): Promise<void> {
    const { count } = await this.client.follow.deleteMany({ where: { userId, followId } });
    if (count > 0) await this.changeCounts(userId, followId, -1);
  }

  /** One page of the followers of a user (`side` 'followers') or of whom they follow, as the viewer may see them. */
  async list(
    userId: number,
    side: 'followers' | 'following',
    viewer: Viewer | null,
    skip: number,
    take: number,
  ): Promise<{ users: User[]; total: number }> {
    const rows =
      side === 'followers'
        ? (await this.client.follow.findMany({ where: { followId: userId }, select: { userId: true } })).map(
            (row) => row.userId,
          )
        : (await this.client.follow.findMany({ where: { userId }, select: { followId: true } })).map(
            (row) => row.followId,
          );
    const where = { AND: [{ id: { in: rows } }, visibleOwnersWhere(viewer)] };
    const [users, total] = await Promise.all([
      this.client.user.findMany({ where, orderBy: { id: 'asc' }, skip, take }),
      this.client.user.count({ where }),
    ]);
    return { users, total };
  }

  private async changeCounts(userId: number, followId: number, delta: 1 | -1): Promise<void> {
    await this.client.user.update({ where: { id: userId }, data: { numFollowing: { increment: delta } } });
    await this.client.user.update({ where: { id: followId }, data: { numFollowers: { increment: delta } } });
  }
}
