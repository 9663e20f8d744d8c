// Personal access tokens (/users/{username}/tokens). Who may manage them is the routes' rule (reqSelfOrAdmin,
// and reqBasicAuth for creating and deleting).
import { hashAccessToken, lastEight, newAccessToken } from '../auth/access-token.ts';
import { InvalidScopeError, normaliseScopes } from '../auth/scopes.ts';
import type { AccessToken, User } from '../db/entities.ts';
import { BadRequestError, NameTakenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { AccessTokenRepository } from '../db/access-token.repository.ts';
import type { FoundToken } from '../db/hot-queries.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewAccessToken {
  token: AccessToken;
  secret: string;
}

export class AccessTokenService {
  private readonly tokens: AccessTokenRepository;

  constructor(deps: ServiceDeps) {
    this.tokens = deps.repos.accessTokens;
  }

  async create(owner: User, name: string, scopes: readonly string[] = []): Promise<NewAccessToken> {
    if (name.trim() === '') throw new ValidationError('[name]: Required');
    let scope: string;
    try {
      scope = normaliseScopes(scopes);
    } catch (error) {
      if (error instanceof InvalidScopeError) throw new BadRequestError(error.message);
      throw error;
    }
    const secret = newAccessToken();
    try {
      const token = await this.tokens.create(owner.id, {
        name,
        tokenHash: hashAccessToken(secret),
        tokenLastEight: lastEight(secret),
        scope,
      });
      return { token, secret };
    } catch (error) {
      if (error instanceof NameTakenError) throw new BadRequestError('access token name has been used already');
      throw error;
    }
  }

  /** The token with this digest and its user (every token-authenticated request asks). */
  findByDigest(tokenHash: string): Promise<FoundToken | null> {
    return this.tokens.findByHash(tokenHash);
  }

  /** Records that the token was used at `at`. */
  markUsed(id: number, at: Date): Promise<void> {
    return this.tokens.touch(id, at);
  }

  async list(owner: User, page: ListOptions): Promise<{ tokens: AccessToken[]; total: number }> {
    const [tokens, total] = await Promise.all([
      this.tokens.listByUser(owner.id, page),
      this.tokens.countByUser(owner.id),
    ]);
    return { tokens, total };
  }

  /** Deletes a token named by id or by name. */
  async delete(owner: User, idOrName: string): Promise<void> {
    const id = /^\d+$/.test(idOrName) ? Number(idOrName) : null;
    // Ids beyond the integer column cannot match and would make the query fail.
    const matches = await this.tokens.findIdsByIdOrName(
      owner.id,
      id !== null && id <= 2 ** 31 - 1 ? id : null,
      idOrName,
    );
    if (matches.length === 0) throw new NotFoundError('access token does not exist');
    if (matches.length > 1) throw new ValidationError('multiple matches for token name');
    await this.tokens.delete(owner.id, matches[0]);
  }
}
