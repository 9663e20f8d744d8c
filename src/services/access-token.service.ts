// Personal access tokens (/users/{username}/tokens). Tokens are created and deleted only by a caller who signed
// in with the account's password over basic auth (Forgejo's reqBasicOrRevProxyAuth), so no token, whatever its
// scopes and however it is sent, can mint more tokens or remove others.
import { hashAccessToken, lastEight, newAccessToken } from '../auth/access-token.ts';
import type { Caller } from '../auth/caller.ts';
import { InvalidScopeError, normaliseScopes } from '../auth/scopes.ts';
import type { AccessToken, User } from '../db/prisma.ts';
import { BadRequestError, ForbiddenError, NotFoundError, UnauthorizedError, ValidationError } from '../errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { AccessTokenRepository } from '../db/access-token.repository.ts';
import { isUniqueViolation } from '../db/errors.ts';
import type { ServiceDeps } from './index.ts';

export interface NewAccessToken {
  token: AccessToken;
  secret: string;
}

export class AccessTokenService {
  private readonly tokens: AccessTokenRepository;

  constructor(private readonly deps: ServiceDeps) {
    this.tokens = new AccessTokenRepository(deps.db.prisma);
  }

  /**
   * The user whose tokens are meant: the caller, or anyone for a site administrator whose credential carries
   * the admin scope at the request's level (a password carries every scope; a public-only token none).
   */
  private async ownerFor(caller: Caller, username: string, level: 'read' | 'write'): Promise<User> {
    const owner = await this.deps.db.hot.userByLowerName(username.toLowerCase());
    if (!owner || owner.type !== 0) throw new NotFoundError(`user does not exist [name: ${username}]`);
    if (owner.id !== caller.user.id && !(caller.user.isAdmin && hasAdminScope(caller, level))) {
      throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
    }
    return owner;
  }

  async create(caller: Caller, username: string, name: string, scopes: readonly string[] = []): Promise<NewAccessToken> {
    const owner = await this.ownerFor(caller, username, 'write');
    requirePassword(caller);
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
      const token = await this.tokens.create(owner.id, { name, tokenHash: hashAccessToken(secret), tokenLastEight: lastEight(secret), scope });
      return { token, secret };
    } catch (error) {
      if (isUniqueViolation(error)) throw new BadRequestError('access token name has been used already');
      throw error;
    }
  }

  async list(caller: Caller, username: string, page: ListOptions): Promise<{ tokens: AccessToken[]; total: number }> {
    const owner = await this.ownerFor(caller, username, 'read');
    const [tokens, total] = await Promise.all([this.tokens.listByUser(owner.id, page), this.tokens.countByUser(owner.id)]);
    return { tokens, total };
  }

  /** Deletes a token named by id or by name. */
  async delete(caller: Caller, username: string, idOrName: string): Promise<void> {
    const owner = await this.ownerFor(caller, username, 'write');
    requirePassword(caller);
    const id = /^\d+$/.test(idOrName) ? Number(idOrName) : null;
    // Ids beyond the integer column cannot match and would make the query fail.
    const matches = await this.tokens.findIdsByIdOrName(owner.id, id !== null && id <= 2 ** 31 - 1 ? id : null, idOrName);
    if (matches.length === 0) throw new NotFoundError('access token does not exist');
    if (matches.length > 1) throw new ValidationError('multiple matches for token name');
    await this.tokens.delete(owner.id, matches[0]);
  }
}

function requirePassword(caller: Caller): void {
  if (caller.method !== 'basic-password') throw new UnauthorizedError('auth method not allowed');
}

function hasAdminScope(caller: Caller, level: 'read' | 'write'): boolean {
  const { scope } = caller;
  if (!scope) return true;
  if (scope.publicOnly) return false;
  return scope.all || (level === 'read' ? scope.read : scope.write).has('admin');
}
