// Who watches which repository (Watch rows; mode 1 watches, mode 2 is "don't watch").
import type { DbClient } from './prisma.ts';

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
}
