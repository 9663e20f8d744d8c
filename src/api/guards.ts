// Role guards over what the assignment guards resolved (src/api/assignment.ts), named after Forgejo's
// middleware chain (routers/api/v1/api.go). A route's guard list is the one place its access rule is stated.
import { grantsAdmin } from '../auth/scopes.ts';
import { canCreateOrganization, isSelfOrAdmin } from '../domain/access/account.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { ForbiddenError, NotFoundError, RepoArchivedError, UnauthorizedError } from '../domain/errors.ts';
import {
  canReadCode,
  canReadUnit,
  canWriteCode,
  canWriteUnit,
  hasAccess,
  isRepoAdmin,
  isRepoOwner,
  type RepoPermission,
} from '../domain/access/repo-permission.ts';
import type { Guard, RequestContext } from './route.ts';

/** Signed in by any method. */
export function reqToken(): Guard {
  return (ctx) => {
    if (!ctx.caller) throw new UnauthorizedError('token is required');
  };
}

export function reqSiteAdmin(): Guard {
  return (ctx) => {
    if (!ctx.caller) throw new UnauthorizedError('token is required');
    if (!ctx.caller.user.isAdmin) throw new ForbiddenError('You are not a site administrator.');
  };
}

/**
 * Signed in with the account's password over basic auth (Forgejo: reqBasicOrRevProxyAuth), so no token, whatever
 * its scopes and however it is sent, can mint or remove tokens.
 */
export function reqBasicAuth(): Guard {
  return (ctx) => {
    if (ctx.caller?.method !== 'basic-password') throw new UnauthorizedError('auth method not allowed');
  };
}

/**
 * The `{username}` of the path is the caller, or the caller is a site admin whose credential carries the admin
 * scope at the request's level (a password carries every scope; a public-only token none).
 */
export function reqSelfOrAdmin(): Guard {
  return (ctx) => {
    const caller = ctx.caller;
    if (!caller) throw new UnauthorizedError('token is required');
    const account = { id: caller.user.id, isAdmin: caller.user.isAdmin && grantsAdmin(caller, ctx.req.method) };
    if (!isSelfOrAdmin(account, ctx.user().id)) {
      throw new ForbiddenError('doer should be the site admin or be same as the contextUser');
    }
  };
}

/** Site admins, and users allowed to create organizations while the site lets regular users (Forgejo: CreateOrg). */
export function reqOrgCreator(): Guard {
  return (ctx) => {
    const disabled = ctx.app.settings.admin.DISABLE_REGULAR_ORG_CREATION;
    if (!canCreateOrganization(ctx.doer(), disabled)) throw new ForbiddenError('Create organization not allowed');
  };
}

/** Sections that can be switched off: their routes then do not exist. */
export function reqFeature(feature: 'quota' | 'federation'): Guard {
  return (ctx) => {
    if (!ctx.app.settings[feature].ENABLED) throw new NotFoundError();
  };
}

/** Outside an organization's path (`/teams/{id}`), a role the caller lacks hides the team: 404, not 403. */
function refuseInOrg(ctx: RequestContext, message: string): never {
  if (ctx.assigned.team) throw new NotFoundError();
  throw new ForbiddenError(message);
}

export function reqOrgMembership(): Guard {
  return async (ctx) => {
    if (ctx.doer().isAdmin) return;
    if (!(await ctx.orgRole()).member) refuseInOrg(ctx, 'Must be an organization member');
  };
}

export function reqOrgOwnership(): Guard {
  return async (ctx) => {
    if (ctx.doer().isAdmin) return;
    if (!(await ctx.orgRole()).owner) refuseInOrg(ctx, 'Must be an organization owner');
  };
}

/** Org owners and members of a team that may create repositories (Forgejo: CreateOrgRepo); site admins always. */
export function reqOrgRepoCreator(): Guard {
  return async (ctx) => {
    const doer = ctx.doer();
    const org = ctx.org();
    if (doer.isAdmin || (await ctx.app.services.orgs.canCreateRepo(org.id, doer.id))) return;
    throw new ForbiddenError(`Given user is not allowed to create repository in organization ${org.name}.`);
  };
}

/** Site admins, owners of the team's organization and the team's members; other org members 403, the rest 404. */
export function reqTeamMembership(): Guard {
  return async (ctx) => {
    const doer = ctx.doer();
    if (doer.isAdmin) return;
    const role = await ctx.orgRole();
    if (role.owner || (await ctx.app.services.teams.isMember(ctx.team().id, doer.id))) return;
    if (role.member) throw new ForbiddenError('Must be a team member');
    throw new NotFoundError();
  };
}

function reqRepoPermission(allowed: (permission: RepoPermission) => boolean, message: string): Guard {
  return (ctx) => {
    const { permission } = ctx.repo();
    if (!ctx.caller?.user.isAdmin && !allowed(permission)) throw new ForbiddenError(message);
  };
}

/** The owning user, an owner of the owning organization, or a site admin (Forgejo: reqOwner). */
export function reqRepoOwner(): Guard {
  return reqRepoPermission(isRepoOwner, 'Must be owner of the repository (or the organization).');
}

export function reqRepoAdmin(): Guard {
  return reqRepoPermission(isRepoAdmin, 'Must have admin access to the repository.');
}

/** Write access to one of the units (Forgejo: reqRepoWriter(unitTypes...)). */
export function reqRepoWriter(...unitTypes: number[]): Guard {
  return reqRepoPermission(
    (p) => unitTypes.some((unitType) => canWriteUnit(p, unitType)) || isRepoAdmin(p),
    'user should have a permission to write to a repo',
  );
}

export function reqRepoReader(unitType: number): Guard {
  return reqRepoPermission(
    (p) => canReadUnit(p, unitType) || isRepoAdmin(p),
    'user should have specific read permission or be a repo admin or a site admin',
  );
}

export function reqAnyRepoReader(): Guard {
  return reqRepoPermission(hasAccess, 'user should have any permission to read repository');
}

/**
 * git smart HTTP (Forgejo: routers/web/repo/githttp.go): fetching needs read on code, pushing (receive-pack,
 * or its ref advertisement) write on code and a signed-in caller. An anonymous caller who needs more is
 * challenged (401) so git asks for credentials; a signed-in one without read gets 404.
 */
export function reqGitAccess(): Guard {
  return (ctx) => {
    const push =
      ctx.operationId === 'gitReceivePack' || (ctx.query as { service?: string }).service === 'git-receive-pack';
    const { permission } = ctx.repo();
    if (!ctx.caller && (push || !canReadCode(permission))) throw new UnauthorizedError('authentication required');
    if (!canReadCode(permission)) throw new NotFoundError('Repository not found');
    if (push && !canWriteCode(permission)) throw new ForbiddenError('User permission denied for writing.');
  };
}

/**
 * Read or write on the packages of the `{owner}` the assignment resolved (Forgejo: reqPackageAccess): site admins
 * always; others by packageAccessMode. An anonymous caller without it is challenged (401), as package clients
 * only send credentials when asked; a signed-in one is refused (403).
 */
export function reqPackageAccess(needed: 'read' | 'write'): Guard {
  return async (ctx) => {
    const viewer = ctx.caller?.user ?? null;
    if (viewer?.isAdmin) return;
    if ((await ctx.app.services.packages.accessMode(viewer, ctx.user())) >= AccessMode[needed]) return;
    if (!viewer) throw new UnauthorizedError('sign in to use packages');
    throw new ForbiddenError('user should have specific permission or be a site admin');
  };
}

/** Writes to an archived repository are refused (Forgejo: mustNotBeArchived, 423). */
export function mustNotBeArchived(): Guard {
  return (ctx) => {
    const { repo } = ctx.repo();
    if (repo.isArchived) throw new RepoArchivedError(`repo is archived: ${repo.ownerName}/${repo.name}`);
  };
}
