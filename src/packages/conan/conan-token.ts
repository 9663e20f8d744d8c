// Conan's token exchange (Forgejo: routers/api/packages/conan auth.go, services/packages/auth.go): the client signs
// in once with basic credentials at users/authenticate and gets the registry's bearer token (the container
// registry's, signed with the at-rest key, carrying the credential's token scope), which it sends on every request
// after. A bearer that is not such a token is left to the API's authenticator (an access token as Bearer).
import type { Request } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Caller } from '../../auth/caller.ts';
import { parseScope } from '../../auth/scopes.ts';
import { loadAtRestKey } from '../../crypto/at-rest-key.ts';
import { UnauthorizedError } from '../../domain/errors.ts';
import { GHOST_USER_ID, RegistryTokens, scopeText } from '../core/registry-token.ts';

const BEARER = /^bearer\s+(\S+)$/i;
const signers = new WeakMap<AppContext, RegistryTokens>();

function tokensOf(app: AppContext): RegistryTokens {
  let tokens = signers.get(app);
  if (!tokens) {
    const { SECRET_KEY } = app.settings.security;
    tokens = new RegistryTokens(loadAtRestKey(SECRET_KEY, app.settings.server.APP_DATA_PATH).key);
    signers.set(app, tokens);
  }
  return tokens;
}

/** The token users/authenticate answers for the signed-in caller. */
export function issueConanToken(app: AppContext, caller: Caller): string {
  return tokensOf(app).issue({ userId: caller.user.id, scope: scopeText(caller.scope) });
}

/** The caller a Conan bearer token names; null when the request carries none. */
export async function conanTokenCaller(app: AppContext, req: Request): Promise<Caller | null> {
  const bearer = BEARER.exec(req.headers.authorization ?? '')?.[1];
  const claims = bearer ? tokensOf(app).verify(bearer) : null;
  if (!claims || claims.userId === GHOST_USER_ID) return null;
  const user = await app.services.users.byId(claims.userId);
  if (!user || !user.isActive || user.prohibitLogin)
    throw new UnauthorizedError('the token no longer names an account');
  const scope = claims.scope === null ? null : parseScope(claims.scope);
  return { user, authenticated: user, method: 'token', scope };
}
