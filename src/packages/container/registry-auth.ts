// Who calls the registry and what they may do with an image (Forgejo: routers/api/packages/container auth.go,
// ReqContainerAccess, services/context/package.go). Credentials: a registry token from /v2/token, or whatever the
// API accepts (basic with a password or an access token, an access token). A request without any is challenged.
// The owner is found and its visibility and package access decided by the API's own rules (owner visibility,
// packageAccessMode, token scopes and public-only reach): an owner the caller may not see is unknown (404), or
// challenged (401) when the caller is anonymous; what it sees but may not do is DENIED (403).
import type { Request, Response } from 'express';
import type { AppContext } from '../../app/app-context.ts';
import type { Authenticator } from '../../auth/authenticate.ts';
import type { Caller } from '../../auth/caller.ts';
import { isPublicOnly } from '../../auth/caller.ts';
import { missingCategories, parseScope } from '../../auth/scopes.ts';
import type { User } from '../../db/entities.ts';
import { AccessMode } from '../../domain/access/modes.ts';
import { tokenReachesOwner } from '../../domain/access/token-reach.ts';
import { ForbiddenError, UnauthorizedError } from '../../domain/errors.ts';
import type { ImageTarget } from './blob.service.ts';
import { nameInvalid, nameUnknown } from './oci-error.ts';
import { isImageName, splitRepositoryName } from './references.ts';
import { GHOST_USER_ID, type RegistryTokens } from '../core/registry-token.ts';

/** The caller of a registry request; `credentialed` is false only when no credential at all came. */
export interface RegistryCaller {
  caller: Caller | null;
  credentialed: boolean;
}

const BEARER = /^bearer\s+(\S+)$/i;

export async function identify(
  app: AppContext,
  tokens: RegistryTokens,
  authenticate: Authenticator,
  req: Request,
  res: Response,
): Promise<RegistryCaller> {
  const bearer = BEARER.exec(req.headers.authorization ?? '')?.[1];
  const claims = bearer ? tokens.verify(bearer) : null;
  if (claims) {
    if (claims.userId === GHOST_USER_ID) return { caller: null, credentialed: true };
    const user = await app.services.users.byId(claims.userId);
    if (!user || !user.isActive || user.prohibitLogin)
      throw new UnauthorizedError('the token no longer names an account');
    const scope = claims.scope === null ? null : parseScope(claims.scope);
    return { caller: { user, authenticated: user, method: 'token', scope }, credentialed: true };
  }
  const caller = await authenticate(req, res);
  return { caller, credentialed: caller !== null };
}

/**
 * ReqContainerAccess: a registry request comes with a credential; an anonymous token counts unless the site
 * requires signing in to view.
 */
export function requireCredential(app: AppContext, who: RegistryCaller): void {
  if (!who.credentialed) throw new UnauthorizedError('authentication required');
  if (!who.caller && app.settings.service.REQUIRE_SIGNIN_VIEW) throw new UnauthorizedError('sign in required');
}

/** A registry token's read:package or write:package for the request's method (403 without it). */
function requirePackageScope(caller: Caller | null, method: string): void {
  if (!caller?.scope) return;
  if (missingCategories(caller.scope, method, ['package']).length === 0) return;
  const level = method === 'GET' || method === 'HEAD' ? 'read' : 'write';
  throw new ForbiddenError(`token does not have at least one of required scope(s): [${level}:package]`);
}

/**
 * Whose view of the owners a catalog request lists: a credential and read:package as for any pull; a public-only
 * token, or none, sees public owners only.
 */
export function catalogViewer(app: AppContext, who: RegistryCaller, method: string): User | null {
  requireCredential(app, who);
  requirePackageScope(who.caller, method);
  return isPublicOnly(who.caller) ? null : (who.caller?.user ?? null);
}

/**
 * `{owner}/{image}` resolved for a request needing `needed` on the owner's packages. `name` is the path's
 * repository name; the image part must be a valid image name.
 */
export async function resolveImage(
  app: AppContext,
  who: RegistryCaller,
  name: string,
  needed: 'read' | 'write',
  method: string,
): Promise<ImageTarget> {
  const split = splitRepositoryName(name);
  if (!split || !isImageName(split.image)) throw nameInvalid(name);
  requireCredential(app, who);
  const owner = await findVisibleOwner(app, who.caller, split.owner);
  if (!owner) {
    if (!who.caller) throw new UnauthorizedError('authentication required');
    throw nameUnknown(name);
  }
  requirePackageScope(who.caller, method);
  if (!tokenReachesOwner(isPublicOnly(who.caller), owner))
    throw new ForbiddenError('token scope is limited to public owners');
  await requirePackageAccess(app, who.caller, owner, needed);
  return { owner, image: split.image };
}

async function findVisibleOwner(app: AppContext, caller: Caller | null, name: string): Promise<User | null> {
  const viewer = caller?.user ?? null;
  const owner = await app.services.users.byName(name);
  if (!owner || !(await app.services.ownerAccess.canSee(viewer, owner))) return null;
  return owner;
}

/** Forgejo's reqPackageAccess: site admins always; others by the owner's package access mode. */
export async function requirePackageAccess(
  app: AppContext,
  caller: Caller | null,
  owner: User,
  needed: 'read' | 'write',
): Promise<void> {
  const viewer = caller?.user ?? null;
  if (viewer?.isAdmin) return;
  if ((await app.services.packages.accessMode(viewer, owner)) >= AccessMode[needed]) return;
  if (!viewer) throw new UnauthorizedError('sign in to use packages');
  throw new ForbiddenError('user should have specific permission or be a site admin');
}

/** Whether the caller may read the owner's packages (for a mount's source), without throwing. */
export async function mayRead(app: AppContext, caller: Caller | null, ownerName: string): Promise<User | null> {
  const owner = await findVisibleOwner(app, caller, ownerName);
  if (!owner || !tokenReachesOwner(isPublicOnly(caller), owner)) return null;
  try {
    await requirePackageAccess(app, caller, owner, 'read');
    return owner;
  } catch {
    return null;
  }
}
