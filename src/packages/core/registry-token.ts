// The bearer tokens of the container registry's `GET /v2/token` and Conan's `users/authenticate` (Forgejo:
// services/packages/auth.go, one token for both): a JWT signed with HMAC-SHA256 naming
// the user (the ghost user, -1, for an anonymous caller) and the scope of the access token it was made from. The
// key is derived from the at-rest key, so every process on the same data directory (or SECRET_KEY) accepts it.
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { SCOPE_CATEGORIES, type TokenScope } from '../../auth/scopes.ts';

/** Forgejo's lifetime of a registry token. */
const TOKEN_LIFETIME_SECS = 24 * 3600;
export const GHOST_USER_ID = -1;

export interface RegistryTokenClaims {
  userId: number;
  /** The access token's scope text; null for a password, which is unrestricted. */
  scope: string | null;
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');
const HEADER = base64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }));

export class RegistryTokens {
  private readonly key: Buffer;

  constructor(atRestKey: Buffer) {
    this.key = Buffer.from(hkdfSync('sha256', atRestKey, 'anvil', 'anvil container registry token v1', 32));
  }

  private sign(text: string): Buffer {
    return createHmac('sha256', this.key).update(text).digest();
  }

  issue(claims: RegistryTokenClaims, now = Date.now()): string {
    const seconds = Math.floor(now / 1000);
    const payload = {
      uid: claims.userId,
      scope: claims.scope,
      iat: seconds,
      nbf: seconds,
      exp: seconds + TOKEN_LIFETIME_SECS,
    };
    const body = `${HEADER}.${base64url(JSON.stringify(payload))}`;
    return `${body}.${base64url(this.sign(body))}`;
  }

  /** The claims of a token this key signed that is in its lifetime; null for anything else. */
  verify(token: string, now = Date.now()): RegistryTokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== HEADER) return null;
    const given = Buffer.from(parts[2], 'base64url');
    const expected = this.sign(`${parts[0]}.${parts[1]}`);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let payload: { uid?: unknown; scope?: unknown; nbf?: unknown; exp?: unknown };
    try {
      payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8')) as typeof payload;
    } catch {
      return null;
    }
    const seconds = now / 1000;
    if (typeof payload.uid !== 'number' || typeof payload.exp !== 'number' || typeof payload.nbf !== 'number')
      return null;
    if (seconds >= payload.exp || seconds + 60 < payload.nbf) return null;
    return { userId: payload.uid, scope: typeof payload.scope === 'string' ? payload.scope : null };
  }
}

/** The scope's text, as a registry token carries it on. */
export function scopeText(scope: TokenScope | null): string | null {
  if (!scope) return null;
  const items = [...(scope.all ? ['all'] : []), ...(scope.publicOnly ? ['public-only'] : [])];
  for (const category of SCOPE_CATEGORIES) {
    if (scope.write.has(category)) items.push(`write:${category}`);
    else if (scope.read.has(category)) items.push(`read:${category}`);
  }
  return items.join(',');
}
