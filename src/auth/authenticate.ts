// Resolves the credentials of a request, in Forgejo's order: query token, Authorization token/Bearer, Basic.
// A credential that is supplied but wrong is a 401 on every route; no credential means anonymous.
import type { Request, Response } from 'express';
import type { FoundToken } from '../db/hot-queries.ts';
import type { User } from '../db/entities.ts';
import { ForbiddenError, TooManyRequestsError, UnauthorizedError } from '../domain/errors.ts';
import { looksLikeAccessToken, RecentTokenDigests } from './access-token.ts';
import type { AuthMethod, Caller } from './caller.ts';
import type { PasswordHasher } from './password.ts';
import { InvalidScopeError, parseScope, type TokenScope } from './scopes.ts';
import type { SignInThrottle } from './sign-in-throttle.ts';
import { isIndividual } from '../domain/access/owner-visibility.ts';
import { userNotFound } from '../domain/name-not-found.ts';

/** The token and account lookups authentication makes (the access token and user services). */
export interface AuthenticatorDeps {
  tokens: {
    findByDigest(tokenHash: string): Promise<FoundToken | null>;
    markUsed(id: number, at: Date): Promise<void>;
  };
  users: { byName(name: string): Promise<User | null> };
  passwords: PasswordHasher;
  throttle: SignInThrottle;
  allowQueryToken: boolean;
}

const TOKEN_TOUCH_INTERVAL_MS = 60_000;
const BAD_CREDENTIALS = 'user does not exist';

export type Authenticator = (req: Request, res: Response) => Promise<Caller | null>;

export function authenticator(deps: AuthenticatorDeps): Authenticator {
  const { tokens, users, passwords, throttle, allowQueryToken } = deps;
  const recentDigests = new RecentTokenDigests();

  async function byToken(token: string): Promise<{ user: User; scope: TokenScope } | null> {
    if (!looksLikeAccessToken(token)) return null;
    const digest = recentDigests.digestOf(token);
    const found = await tokens.findByDigest(digest);
    if (!found) return null;
    recentDigests.remember(token, digest);
    const now = new Date();
    // Writing on every use would make every read a write; a minute's precision is enough.
    if (now.getTime() - found.tokenUpdatedAt.getTime() > TOKEN_TOUCH_INTERVAL_MS) {
      await tokens.markUsed(found.tokenId, now);
    }
    let scope: TokenScope;
    try {
      scope = parseScope(found.scope);
    } catch (error) {
      if (error instanceof InvalidScopeError) throw new ForbiddenError(error.message);
      throw error;
    }
    return { user: found.user, scope };
  }

  /** Known and unknown accounts take the same path and the same time; only a throttled one is answered early. */
  async function byPassword(username: string, password: string, address: string): Promise<User> {
    const account = username.toLowerCase();
    const attempt = await throttle.reserve(address, account);
    if ('retryAfter' in attempt) {
      throw new TooManyRequestsError('too many failed sign-in attempts, try again later', attempt.retryAfter);
    }
    const found = await users.byName(account);
    const user = found && isIndividual(found) ? found : null;
    const matches = await passwords.verify(user?.passwordHash ?? null, password);
    if (user && matches) {
      await attempt.succeeded();
      return user;
    }
    throw new UnauthorizedError(BAD_CREDENTIALS);
  }

  async function signIn(
    req: Request,
    res: Response,
  ): Promise<{ user: User; method: AuthMethod; scope: TokenScope | null } | null> {
    const queryToken = allowQueryToken
      ? (firstString(req.query.token) ?? firstString(req.query.access_token))
      : undefined;
    if (queryToken !== undefined) {
      res.setHeader(
        'Warning',
        '299 - "token and access_token API authentication is deprecated and will be removed; use the Authorization header"',
      );
      const found = await byToken(queryToken);
      if (!found) throw new UnauthorizedError(BAD_CREDENTIALS);
      return { ...found, method: 'token' };
    }
    const header = req.headers.authorization;
    if (!header) return null;
    const space = header.indexOf(' ');
    const kind = space < 0 ? header : header.slice(0, space);
    const value = space < 0 ? '' : header.slice(space + 1).trim();
    if (kind === 'token' || kind.toLowerCase() === 'bearer') {
      const found = await byToken(value);
      if (!found) throw new UnauthorizedError(BAD_CREDENTIALS);
      return { ...found, method: 'token' };
    }
    if (kind.toLowerCase() === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      const username = colon < 0 ? decoded : decoded.slice(0, colon);
      const password = colon < 0 ? '' : decoded.slice(colon + 1);
      if (password === '' || password === 'x-oauth-basic') {
        const found = await byToken(username);
        if (!found) throw new UnauthorizedError(BAD_CREDENTIALS);
        return { ...found, method: 'basic-token' };
      }
      const asToken = await byToken(password);
      // As in Forgejo, a token given as the password signs in its owner whatever the user name says.
      if (asToken) return { ...asToken, method: 'basic-token' };
      return {
        user: await byPassword(username, password, req.ip ?? req.socket.remoteAddress ?? ''),
        method: 'basic-password',
        scope: null,
      };
    }
    // An Authorization header Anvil does not understand is no credential at all.
    return null;
  }

  return async function authenticate(req, res) {
    const signedIn = await signIn(req, res);
    if (!signedIn) return null;
    const { user } = signedIn;
    if (!user.isActive || user.prohibitLogin)
      throw new ForbiddenError(
        'This account is prohibited from signing in, please contact your site administrator.',
        true,
      );
    if (user.mustChangePassword)
      throw new ForbiddenError('You must change your password. Change it at: /user/change_password', true);

    const sudoName = firstString(req.query.sudo) ?? (req.headers.sudo as string | undefined);
    if (sudoName) {
      if (!user.isAdmin) throw new ForbiddenError('Only administrators allowed to sudo.', true);
      const target = await users.byName(sudoName);
      if (!target || !isIndividual(target)) throw userNotFound(sudoName);
      return { user: target, authenticated: user, method: signedIn.method, scope: signedIn.scope };
    }
    return { user, authenticated: user, method: signedIn.method, scope: signedIn.scope };
  };
}

function firstString(value: unknown): string | undefined {
  if (Array.isArray(value)) return firstString(value[0]);
  return typeof value === 'string' ? value : undefined;
}
