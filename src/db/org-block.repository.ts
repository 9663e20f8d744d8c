// Users an organization blocks (UserBlocking rows whose blocker is the organization) and what a block ends.
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export class OrgBlockRepository {
  constructor(private readonly client: DbClient) {}

  async list(orgId: number, page: ListOptions): Promise<{ items: Prisma.UserBlockingModel[]; total: number }> {
    const where = { blockerId: orgId };
    const [items, total] = await Promise.all([
      this.client.userBlocking.findMany({ where, orderBy: { id: 'asc' }, skip: page.skip, take: page.limit }),
      this.client.userBlocking.count({ where }),
    ]);
    return { items, total };
  }

  async isBlocked(orgId: number, userId: number): Promise<boolean> {
    const block = await this.client.userBlocking.findUnique({
      where: { blockerId_blockeeId: { blockerId: orgId, blockeeId: userId } },
      select: { id: true },
    });
    return block !== null;
  }

  /** The block, and the follows both ways, the user's watches of the organization's repositories and collaborations on them. */
  async blockAndSever(orgId: number, userId: number): Promise<void> {
    const repoIds = (await this.client.repository.findMany({ where: { ownerId: orgId }, select: { id: true } })).map(
      (repo) => repo.id,
    );
    await Promise.all([
      this.client.userBlocking.create({ data: { blockerId: orgId, blockeeId: userId } }),
      this.client.follow.deleteMany({
        where: {
          OR: [
            { userId, followId: orgId },
            { userId: orgId, followId: userId },
          ],
        },
      }),
      this.client.watch.deleteMany({ where: { userId, repoId: { in: repoIds } } }),
      this.client.collaboration.deleteMany({ where: { userId, repoId: { in: repoIds } } }),
    ]);
  }

  async unblock(orgId: number, userId: number): Promise<void> {
    await this.client.userBlocking.deleteMany({ where: { blockerId: orgId, blockeeId: userId } });
  }
}
