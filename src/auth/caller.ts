import type { User } from '../db/entities.ts';
import type { TokenScope } from './scopes.ts';

export type AuthMethod = 'token' | 'basic-token' | 'basic-password';

/** Who a request acts as. With sudo, `user` is the impersonated user and `authenticated` the administrator. */
export interface Caller {
  readonly user: User;
  readonly authenticated: User;
  readonly method: AuthMethod;
  /** The token's scopes; null when signed in with a password, which is unrestricted. */
  readonly scope: TokenScope | null;
}

export function isPublicOnly(caller: Caller | null): boolean {
  return caller?.scope?.publicOnly === true;
}
