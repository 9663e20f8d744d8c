// Chef's credential: a request that names its user in X-Ops-Userid is signed with that user's key (Forgejo:
// routers/api/packages/chef/auth.go). The user's public key (src/packages/chef/chef-keys.service.ts) checks the
// signature; an unknown user, a user without a key, a stale timestamp or a wrong signature answer 401.
import type { Request } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Caller } from '../../auth/caller.ts';
import { ForbiddenError, UnauthorizedError } from '../../domain/errors.ts';
import { verifySignedRequest } from './chef-signature.ts';

export async function chefSignedCaller(app: AppContext, req: Request): Promise<Caller | null> {
  const userId = req.headers['x-ops-userid'];
  if (typeof userId !== 'string' || userId === '') return null;
  // Users and organizations alike: Forgejo gives both a key pair on their package settings.
  const user = await app.services.users.byName(userId);
  const key = user ? await app.services.chefKeys.publicKey(user) : null;
  if (!user || !key) throw new UnauthorizedError('the signed request is refused: the user has no Chef public key');
  const path = req.originalUrl.split('?')[0];
  verifySignedRequest({ method: req.method, path, headers: req.headers }, key, new Date());
  if (!user.isActive || user.prohibitLogin) {
    throw new ForbiddenError('This account is prohibited from signing in, please contact your site administrator.');
  }
  return { user, authenticated: user, method: 'signed-request', scope: null };
}
