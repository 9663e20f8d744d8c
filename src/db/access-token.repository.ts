// Personal access tokens, always scoped by the user who owns them.
import { translated } from '../infra/database/errors.ts';
import type { FoundToken, HotQueries } from './hot-queries.ts';
import type { AccessToken, DbClient } from './prisma.ts';

export interface AccessTokenFields {
  name: string;
  tokenHash: string;
  tokenLastEight: string;
  scope: string;
}

export class AccessTokenRepository {
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /** The token with this digest and its user, by a prepared statement (every token-authenticated request). */
  findByHash(tokenHash: string): Promise<FoundToken | null> {
    return this.hot.tokenByHash(tokenHash);
  }

  /** Records the token's last use. */
  touch(id: number, at: Date): Promise<void> {
    return this.hot.touchToken(id, at);
  }

  create(userId: number, fields: AccessTokenFields): Promise<AccessToken> {
    return translated({ taken: 'access token name' }, () =>
      this.client.accessToken.create({ data: { userId, ...fields } }),
    );
  }

  listByUser(userId: number, page: { skip: number; limit: number }): Promise<AccessToken[]> {
    return this.client.accessToken.findMany({
      where: { userId },
      orderBy: { id: 'asc' },
      skip: page.skip,
      take: page.limit,
    });
  }

  countByUser(userId: number): Promise<number> {
    return this.client.accessToken.count({ where: { userId } });
  }

  /** Ids of the user's tokens with this id (when given) or this name. */
  async findIdsByIdOrName(userId: number, id: number | null, name: string): Promise<number[]> {
    const rows = await this.client.accessToken.findMany({
      where: { userId, OR: [...(id !== null ? [{ id }] : []), { name }] },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  async delete(userId: number, id: number): Promise<void> {
    await this.client.accessToken.deleteMany({ where: { id, userId } });
  }
}
