// The RSA key pair of each user's ActivityPub actor.
import { isUniqueViolation } from '../infra/database/errors.ts';
import type { DbClient, Models } from './prisma.ts';

type UserKeyPair = Models.UserKeyPairModel;

export class UserKeyPairRepository {
  constructor(private readonly client: DbClient) {}

  find(userId: number): Promise<UserKeyPair | null> {
    return this.client.userKeyPair.findUnique({ where: { userId } });
  }

  /** Individual users (not organizations) that have no key pair yet, oldest first. */
  async listUsersWithout(limit: number): Promise<number[]> {
    const users = await this.client.user.findMany({
      where: { type: 0, keyPair: null },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return users.map((user) => user.id);
  }

  /** Stores a new pair; when another request stored one first, that one is kept and returned. */
  async createOrKeepFirst(userId: number, publicKeyPem: string, privateKeyPem: string): Promise<UserKeyPair> {
    try {
      return await this.client.userKeyPair.create({ data: { userId, publicKeyPem, privateKeyPem } });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const existing = await this.find(userId);
      if (!existing) throw error;
      return existing;
    }
  }
}
