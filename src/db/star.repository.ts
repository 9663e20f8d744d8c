// Who starred which repository (Star rows), with the counters Forgejo keeps beside them: the repository's
// num_stars and the user's num_stars, changed in the same transaction as the row.
import type { DbClient, User } from './prisma.ts';

export class StarRepository {
  constructor(private readonly client: DbClient) {}

  find(userId: number, repoId: number) {
    return this.client.star.findUnique({ where: { userId_repoId: { userId, repoId } } });
  }

  async create(userId: number, repoId: number): Promise<void> {
    await this.client.star.create({ data: { userId, repoId } });
    await this.changeCounts(userId, repoId, 1);
  }

  async delete(userId: number, repoId: number): Promise<void> {
    const { count } = await this.client.star.deleteMany({ where: { userId, repoId } });
    if (count > 0) await this.changeCounts(userId, repoId, -1);
  }

  /** Ids of the repositories a user starred. */
  async listRepoIds(userId: number): Promise<number[]> {
    const stars = await this.client.star.findMany({ where: { userId }, select: { repoId: true } });
    return stars.map((star) => star.repoId);
  }

  /** One page of the users who starred a repository, oldest star first. */
  async listStargazers(repoId: number, skip: number, take: number): Promise<{ users: User[]; total: number }> {
    const [stars, total] = await Promise.all([
      this.client.star.findMany({ where: { repoId }, orderBy: { id: 'asc' }, skip, take, select: { userId: true } }),
      this.client.star.count({ where: { repoId } }),
    ]);
    const users = await this.client.user.findMany({ where: { id: { in: stars.map((star) => star.userId) } } });
    const byId = new Map(users.map((user) => [user.id, user]));
    return { users: stars.flatMap((star) => byId.get(star.userId) ?? []), total };
  }

  private async changeCounts(userId: number, repoId: number, delta: 1 | -1): Promise<void> {
    await this.client.repository.update({ where: { id: repoId }, data: { numStars: { increment: delta } } });
    await this.client.user.update({ where: { id: userId }, data: { numStars: { increment: delta } } });
  }
}
