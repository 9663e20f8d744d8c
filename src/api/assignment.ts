// Assignment guards: each resolves one resource named by the path, once, and puts it on the request context.
// A name that no longer exists but was renamed answers 307 to the current name — only to callers who may see
// the target; everyone else gets the 404 a missing name gets. What the caller may not see is 404 before any
// sign-in or role requirement (Forgejo: routers/api/v1/api.go repoAssignment, orgAssignment; services/context).
// A public-only token reaches public resources only (Forgejo: checkTokenPublicOnly): 403 past the visibility check.
import { OPERATIONS } from '../../generated/operations.ts';
import { isPublicOnly } from '../auth/caller.ts';
import type { User } from '../db/entities.ts';
import { tokenReachesOwner, tokenReachesRepo } from '../domain/access/token-reach.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { hasAccess } from '../domain/access/repo-permission.ts';
import {
  ForbiddenError,
  NotFoundError,
  RenamedRedirect,
  UnauthorizedError,
  ValidationError,
} from '../domain/errors.ts';
import { urlWithParams } from './redirect.ts';
import type { Guard, RequestContext } from './route.ts';
import { orgNotFound, userNotFound } from '../domain/name-not-found.ts';

type OwnerParam = 'username' | 'org' | 'owner';

/** git names the repository with a .git suffix. */
const GIT_SUFFIX = /\.git$/i;

function pathParam(ctx: RequestContext, name: string): string {
  return String((ctx.params as Record<string, unknown>)[name] ?? '');
}

function redirectTo(ctx: RequestContext, replacements: Record<string, string>): void {
  const location = urlWithParams(ctx.req, OPERATIONS[ctx.operationId].path, replacements);
  if (location) throw new RenamedRedirect(location);
}

/**
 * The owner a path parameter names and whether the name is an old one (followed only for callers who may see the
 * renamed owner). Null when nothing by that name exists for this caller.
 */
async function findOwner(ctx: RequestContext, param: OwnerParam): Promise<{ owner: User; renamed: boolean } | null> {
  const name = pathParam(ctx, param);
  if (name === '' || name.includes('\0')) return null;
  const viewer = ctx.caller?.user ?? null;
  const { ownerAccess, users } = ctx.app.services;
  const owner = viewer?.lowerName === name.toLowerCase() ? viewer : await users.byName(name);
  if (owner) return (await ownerAccess.canSee(viewer, owner)) ? { owner, renamed: false } : null;
  const renamed = await users.renamedTo(name);
  return renamed && (await ownerAccess.canSee(viewer, renamed)) ? { owner: renamed, renamed: true } : null;
}

function refusePublicOnly(ctx: RequestContext, owner: User): void {
  if (tokenReachesOwner(isPublicOnly(ctx.caller), owner)) return;
  throw new ForbiddenError(
    isOrganization(owner) ? 'token scope is limited to public orgs' : 'token scope is limited to public users',
  );
}

/**
 * `{username}` (or another owner parameter): a user or an organization the caller may see; with
 * `individualOnly`, an organization's name is as missing as any other.
 */
export function userAssignment(param: OwnerParam = 'username', options: { individualOnly?: boolean } = {}): Guard {
  return async (ctx) => {
    const found = await findOwner(ctx, param);
    if (!found || (options.individualOnly && isOrganization(found.owner))) throw userNotFound(pathParam(ctx, param));
    const user = found.owner;
    if (found.renamed) redirectTo(ctx, { [param]: user.name });
    refusePublicOnly(ctx, user);
    ctx.assigned.user = user;
  };
}

/**
 * `{userId}` (federation): the user with that id, when the caller may see them; the actor of a user the caller may not
 * see is as missing as an unknown id (Forgejo serves any id's actor, which shows limited and private users to anyone).
 */
export function userIdAssignment(): Guard {
  return async (ctx) => {
    const id = Number((ctx.params as { userId?: number }).userId);
    const user = await ctx.app.services.users.byId(id);
    if (!user || !(await ctx.app.services.ownerAccess.canSee(ctx.caller?.user ?? null, user)))
      throw new NotFoundError();
    refusePublicOnly(ctx, user);
    ctx.assigned.user = user;
  };
}

/**
 * `{org}`: an organization the caller may see. The deprecated `POST /org/{org}/repos` answers 422 for a missing
 * one (`missing: 'invalid'`).
 */
export function orgAssignment(options: { missing?: 'notFound' | 'invalid' } = {}): Guard {
  return async (ctx) => {
    const found = await findOwner(ctx, 'org');
    const org = found?.owner;
    if (!org || !isOrganization(org)) {
      const name = pathParam(ctx, 'org');
      if (options.missing === 'invalid') throw new ValidationError(`org does not exist [name: ${name}]`);
      throw orgNotFound(name);
    }
    if (found.renamed) redirectTo(ctx, { org: org.name });
    refusePublicOnly(ctx, org);
    ctx.assigned.org = org;
  };
}

/**
 * `/teams/{id}`: the team and its organization; a missing team, or one of an organization the caller may not see,
 * is 404 for anyone (reqTeamMembership decides the rest).
 */
export function teamAssignment(): Guard {
  return async (ctx) => {
    const id = Number((ctx.params as { id?: number }).id);
    const found = await ctx.app.services.teams.findWithOrg(id);
    // A team of an organization the caller may not see is as missing as one that does not exist.
    if (!found || !(await ctx.app.services.ownerAccess.canSee(ctx.caller?.user ?? null, found.org))) {
      throw new NotFoundError('GetTeamById', [`team does not exist [org_id 0, team_id ${id}, name: ]`]);
    }
    ctx.assigned.team = found.team;
    ctx.assigned.org = found.org;
    refusePublicOnly(ctx, found.org);
  };
}

/**
 * `{owner}/{repo}`: the repository with the caller's permission; invisible is 404. For git (`git: true`) the
 * repository is named with `.git`, and an anonymous caller who cannot read it is challenged (401) instead, so
 * git asks for credentials.
 */
export function repoAssignment(options: { git?: boolean } = {}): Guard {
  return async (ctx) => {
    const param = pathParam(ctx, 'repo');
    const suffix = options.git ? (GIT_SUFFIX.exec(param)?.[0] ?? '') : '';
    const repoName = param.slice(0, param.length - suffix.length);
    const invisible = () =>
      options.git && !ctx.caller ? new UnauthorizedError('authentication required') : new NotFoundError();
    const found = await findOwner(ctx, 'owner');
    if (!found || repoName === '' || repoName.includes('\0')) throw invisible();
    const { owner, renamed: ownerRenamed } = found;
    const { repositories, repoPermissions } = ctx.app.services;
    const viewer = ctx.caller?.user ?? null;
    const seen = await repositories.findInOwnerWithPermission(owner, repoName, viewer);
    if (!seen) {
      const target = await repositories.renamedTo(owner.id, repoName);
      if (target && hasAccess(await repoPermissions.forRepo(viewer, target))) {
        redirectTo(ctx, { owner: target.ownerName, repo: target.name + suffix });
      }
    }
    // Under an old owner name, the owner part alone redirects: it reveals nothing the new name does not.
    if (ownerRenamed) redirectTo(ctx, { owner: owner.name });
    if (!seen) throw invisible();
    const { repo, permission } = seen;
    if (!hasAccess(permission)) throw invisible();
    if (!tokenReachesRepo(isPublicOnly(ctx.caller), repo)) {
      throw new ForbiddenError('token scope is limited to public repos');
    }
    ctx.assigned.repo = { repo, permission };
  };
}

/** `/repositories/{id}`: the repository with that id and the caller's permission; invisible is 404 as unknown. */
export function repoIdAssignment(): Guard {
  return async (ctx) => {
    const id = Number((ctx.params as { id?: number }).id);
    const { repositories, repoPermissions } = ctx.app.services;
    const repo = Number.isSafeInteger(id) ? await repositories.findById(id) : null;
    const permission = repo && (await repoPermissions.forRepo(ctx.caller?.user ?? null, repo));
    if (!repo || !permission || !hasAccess(permission)) throw new NotFoundError();
    if (!tokenReachesRepo(isPublicOnly(ctx.caller), repo))
      throw new ForbiddenError('token scope is limited to public repos');
    ctx.assigned.repo = { repo, permission };
  };
}
