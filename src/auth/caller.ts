import type { User } from '../db/entities.ts';
import type { TokenScope } from './scopes.ts';

/** `signed-request`: a package client's request signed with the user's key (Chef's X-Ops-Authorization). */
export type AuthMethod = 'token' | 'basic-token' | 'basic-password' | 'signed-request';

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
