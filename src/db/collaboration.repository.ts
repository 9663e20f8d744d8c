// A repository's collaborators: users given an access mode on it directly (Forgejo: models/repo/collaboration.go).
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, User } from './prisma.ts';

export class CollaborationRepository {
  constructor(private readonly client: DbClient) {}

  async list(repoId: number, page: ListOptions): Promise<{ items: User[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.client.collaboration.findMany({
        where: { repoId },
        orderBy: { id: 'asc' },
        skip: page.skip,
        take: page.limit,
        select: { userId: true },
      }),
      this.client.collaboration.count({ where: { repoId } }),
    ]);
    const users = await this.client.user.findMany({ where: { id: { in: rows.map((row) => row.userId) } } });
    const byId = new Map(users.map((user) => [user.id, user]));
    return { items: rows.flatMap((row) => byId.get(row.userId) ?? []), total };
  }

  async find(repoId: number, userId: number): Promise<{ accessMode: number } | null> {
    return this.client.collaboration.findUnique({
      where: { repoId_userId: { repoId, userId } },
      select: { accessMode: true },
    });
  }

  /** Adds the collaborator, or changes the mode of one already there. */
  async save(repoId: number, userId: number, accessMode: number): Promise<void> {
    await this.client.collaboration.upsert({
      where: { repoId_userId: { repoId, userId } },
      create: { repoId, userId, accessMode },
      update: { accessMode },
    });
  }

  async remove(repoId: number, userId: number): Promise<void> {
    await this.client.collaboration.deleteMany({ where: { repoId, userId } });
  }
}
