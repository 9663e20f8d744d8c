// Who watches which repository (Watch rows; mode 1 watches, mode 2 is "don't watch").
import type { DbClient, User } from './prisma.ts';

/** Modes that watch (mode 2, "don't watch", does not). */
const WATCHING = { not: 2 };

export class RepoWatchRepository {
  constructor(private readonly client: DbClient) {}

  find(userId: number, repoId: number) {
    return this.client.watch.findUnique({ where: { userId_repoId: { userId, repoId } } });
  }

  create(userId: number, repoId: number, mode: number) {
    return this.client.watch.create({ data: { userId, repoId, mode } });
  }

  setMode(id: number, mode: number) {
    return this.client.watch.update({ where: { id }, data: { mode, updatedAt: new Date() } });
  }

  delete(id: number) {
    return this.client.watch.delete({ where: { id } });
  }

  /** Ids of the repositories a user watches. */
  async listRepoIds(userId: number): Promise<number[]> {
    const watches = await this.client.watch.findMany({ where: { userId, mode: WATCHING }, select: { repoId: true } });
    return watches.map((watch) => watch.repoId);
  }

  /** One page of the users who watch a repository, oldest watch first. */
  async listWatchers(repoId: number, skip: number, take: number): Promise<{ users: User[]; total: number }> {
    const where = { repoId, mode: WATCHING };
    const [watches, total] = await Promise.all([
      this.client.watch.findMany({ where, orderBy: { id: 'asc' }, skip, take, select: { userId: true } }),
      this.client.watch.count({ where }),
    ]);
    const users = await this.client.user.findMany({ where: { id: { in: watches.map((watch) => watch.userId) } } });
    const byId = new Map(users.map((user) => [user.id, user]));
    return { users: watches.flatMap((watch) => byId.get(watch.userId) ?? []), total };
  }
}
