// The guards of registry routes, in the API's vocabulary (src/api/assignment.ts, src/api/guards.ts) and over the
// same rules: the owner is resolved first and one the caller may not see is 404 before any other check; then the
// token's package scope, a public-only token's reach, and the caller's access mode on the owner's packages
// (Forgejo: routers/api/packages/api.go reqPackageAccess, services/context/package.go).
import { isPublicOnly } from '../../auth/caller.ts';
import { missingCategories } from '../../auth/scopes.ts';
import { AccessMode } from '../../domain/access/modes.ts';
import { tokenReachesOwner } from '../../domain/access/token-reach.ts';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../domain/errors.ts';
import type { RegistryGuard } from './registry-route.ts';

export interface OwnerOptions {
  /**
   * An anonymous caller is challenged (401) instead of told 404, whether the owner is hidden or missing (so the
   * answer tells nothing): for clients that send credentials only when challenged, as Maven does on reads.
   */
  challengeAnonymous?: boolean;
}

/**
 * `{owner}`: a user or organization the caller may see, else 404 (anonymous callers too: package clients send
 * their credentials on every request, unless `challengeAnonymous`). With REQUIRE_SIGNIN_VIEW an anonymous caller
 * is challenged instead.
 */
export function ownerAssignment(options: OwnerOptions = {}): RegistryGuard {
  return async (ctx) => {
    const viewer = ctx.caller?.user ?? null;
    if (!viewer && ctx.app.settings.service.REQUIRE_SIGNIN_VIEW) throw new UnauthorizedError('sign in required');
    const { users, ownerAccess } = ctx.app.services;
    const name = ctx.ownerName;
    const owner = viewer?.lowerName === name.toLowerCase() ? viewer : await users.byName(name);
    if (!owner || !(await ownerAccess.canSee(viewer, owner))) {
      if (!viewer && options.challengeAnonymous) throw new UnauthorizedError('authentication required');
      throw new NotFoundError('owner does not exist');
    }
    ctx.assignedOwner = owner;
  };
}

/** Signed in by any method (basic with a password or a token, `token …`, `Bearer …`). */
export function reqToken(): RegistryGuard {
  return (ctx) => {
    if (!ctx.caller) throw new UnauthorizedError('authentication required');
  };
}

/**
 * `needed` on the owner's packages: a token needs `read:package` (`write:package` to change anything) and, when
 * public-only, a public owner; then site admins always, others by their access mode. An anonymous caller without
 * it is challenged (401), a signed-in one refused (403).
 */
export function reqPackageAccess(needed: 'read' | 'write'): RegistryGuard {
  return async (ctx) => {
    const { caller } = ctx;
    const owner = ctx.owner();
    if (caller?.scope && missingCategories(caller.scope, needed === 'read' ? 'GET' : 'PUT', ['package']).length > 0) {
      throw new ForbiddenError(`token does not have at least one of required scope(s): [${needed}:package]`);
    }
    if (!tokenReachesOwner(isPublicOnly(caller), owner)) {
      throw new ForbiddenError('token scope is limited to public users and organizations');
    }
    const viewer = caller?.user ?? null;
    if (viewer?.isAdmin) return;
    if ((await ctx.app.services.packages.accessMode(viewer, owner)) >= AccessMode[needed]) return;
    if (!viewer) throw new UnauthorizedError('sign in to use packages');
    throw new ForbiddenError('user should have specific permission or be a site admin');
  };
}

/** What every registry route starts with: the owner, then `needed` on its packages. */
export function packageReader(options: OwnerOptions = {}): RegistryGuard[] {
  return [ownerAssignment(options), reqPackageAccess('read')];
}

export function packageWriter(options: OwnerOptions = {}): RegistryGuard[] {
  return [ownerAssignment(options), reqToken(), reqPackageAccess('write')];
}
