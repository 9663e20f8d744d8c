import type { components } from '../../generated/api.d.ts';
import type { AccessToken } from '../db/prisma.ts';

/** The secret is shown only in the answer to the create call. */
export function toAccessToken(token: AccessToken, secret = ''): components['schemas']['AccessToken'] {
  return {
    id: token.id,
    name: token.name,
    sha1: secret,
    token_last_eight: token.tokenLastEight,
    scopes: token.scope === '' ? [] : token.scope.split(','),
  };
}
