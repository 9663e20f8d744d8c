// The authorization matrix (tests/api/authorization-matrix/) and the route table say the same thing. Every cell of
// the matrix — operation × owner visibility × repository visibility × caller — is run through what dispatch runs
// before a handler: the token's scopes, then the route's guard list (src/api/routes/*.routes.ts), over a model of
// the matrix's world whose answers come from the pure rules of src/domain/access/. A guard that refuses must give
// the status the matrix expects; where the guards let the caller through, the matrix may expect 401 or 403 only
// for the few decisions a handler makes (HANDLER_DECIDED, each with why). Dropping a guard from a route table, or
// a rule that stops matching the matrix, fails here without an HTTP request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OPERATIONS, type OperationId } from '../../generated/operations.ts';
import { refuseMissingScopes } from '../../src/api/dispatch.ts';
import { REGISTRY } from '../../src/api/registry.ts';
import { OperationContext } from '../../src/api/request-context.ts';
import type { AppContext } from '../../src/app/app-context.ts';
import type { Caller } from '../../src/auth/caller.ts';
import { parseScope } from '../../src/auth/scopes.ts';
import { loadSettings } from '../../src/config/settings.ts';
import type { Team, User } from '../../src/db/prisma.ts';
import { AccessMode, UnitType } from '../../src/domain/access/modes.ts';
import { canSeeOwner, type Owner } from '../../src/domain/access/owner-visibility.ts';
import { packageAccessMode } from '../../src/domain/access/package-access.ts';
import { repoPermission, type ViewerTeam } from '../../src/domain/access/repo-permission.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { DEFAULT_UNITS } from '../../src/domain/default-units.ts';
import { ALL_ROWS } from '../api/authorization-matrix/all-rows.ts';
import {
  CALLERS,
  OWNER_VISIBILITIES,
  REPO_VISIBILITIES,
  type CallerName,
  type MatrixRow,
  type OwnerVisibility,
  type RepoVisibility,
  type Row,
} from '../api/authorization-matrix/matrix.ts';

/**
 * Refusals (401/403) the matrix expects past every guard: decisions that need what only the handler loads. The
 * services that make them say so in a comment.
 */
const HANDLER_DECIDED: Readonly<Partial<Record<OperationId, string>>> = {
  orgPublicizeMember: "only one's own membership, after the {username} lookup (an unknown name is 404 first)",
  orgConcealMember: "only one's own membership, after the {username} lookup (an unknown name is 404 first)",
  issueEditComment: "its poster or a writer of its issue's unit: the comment and its issue are loaded then",
  issueEditCommentDeprecated: "its poster or a writer of its issue's unit: the comment and its issue are loaded then",
  issueDeleteComment: "its poster or a writer of its issue's unit: the comment and its issue are loaded then",
  issueDeleteCommentDeprecated: "its poster or a writer of its issue's unit: the comment and its issue are loaded then",
  issueAddLabel: "a writer of the issue's unit: whether it is a pull request is known once it is loaded",
  issueReplaceLabels: "a writer of the issue's unit: whether it is a pull request is known once it is loaded",
  issueClearLabels: "a writer of the issue's unit: whether it is a pull request is known once it is loaded",
  issueRemoveLabel: "a writer of the issue's unit: whether it is a pull request is known once it is loaded",
  repoGetRepoPermissions: 'about oneself, or as a repository admin: the user named is loaded then',
  issueEditIssue: 'its poster or a writer of its unit: the issue, and whether it is a pull request, are loaded then',
  issueEditIssueDeadline: 'a writer of its unit: the issue, and whether it is a pull request, are loaded then',
  notifyGetThread: "the thread's own user or a site admin: the thread is loaded then",
  notifyReadThread: "the thread's own user or a site admin: the thread is loaded then",
  userCurrentDeleteKey: "only the key's owner: whose key it is is known once the key is loaded",
};

/** A signed-in caller's credentials, as the matrix's world makes them. */
const READ_EVERYTHING =
  'read:activitypub,read:admin,read:issue,read:misc,read:notification,read:organization,read:package,' +
  'read:repository,read:user';

const IDS = {
  outsider: 1,
  orgMember: 2,
  teamMember: 3,
  siteAdmin: 4,
  owner: 10,
  org: 20,
  freshUser: 30,
  userOfVisibility: 31,
};
const TEAMS = { write: 40, fresh: 41, withMember: 42, owners: 43, orgMemberTeam: 44 };
const REPO_ID = 50;

interface Cell {
  visibility: OwnerVisibility;
  repoVisibility: RepoVisibility;
  ownerKind: 'org' | 'user';
}

function person(id: number, name: string, fields: Partial<User> = {}): User {
  return {
    id,
    name,
    lowerName: name,
    type: 0,
    visibility: 0,
    isAdmin: false,
    isRestricted: false,
    allowCreateOrganization: true,
    ...fields,
  } as User;
}

/** The matrix's world for one owner visibility, with every membership the world sets up. */
function modelWorld(cell: Cell) {
  const visibility = OWNER_VISIBILITIES.indexOf(cell.visibility);
  const users = [
    person(IDS.outsider, 'outsider'),
    person(IDS.orgMember, 'orgmember'),
    person(IDS.teamMember, 'teammember'),
    person(IDS.siteAdmin, 'siteadmin', { isAdmin: true }),
    person(IDS.owner, 'owner', { visibility }),
    person(IDS.org, 'org', { type: 1, visibility }),
    person(IDS.freshUser, 'freshuser'),
    person(IDS.userOfVisibility, 'userofvisibility', { visibility }),
  ];
  const byId = (id: number) => users.find((user) => user.id === id) ?? null;
  const owner = byId(cell.ownerKind === 'user' ? IDS.owner : IDS.org)!;
  const team = (
    id: number,
    accessMode: number,
    units: Array<[number, number]>,
    members: number[],
    allRepos = false,
  ) => ({
    id,
    orgId: IDS.org,
    accessMode,
    includesAllRepositories: allRepos,
    units: new Map(units),
    members,
    canCreateOrgRepo: false,
  });
  const code = (mode: number): [number, number] => [UnitType.code, mode];
  const teams = [
    team(
      TEAMS.write,
      AccessMode.write,
      [code(AccessMode.write), [UnitType.packages, AccessMode.write]],
      [IDS.teamMember],
      true,
    ),
    team(TEAMS.fresh, AccessMode.read, [code(AccessMode.read)], []),
    team(TEAMS.withMember, AccessMode.read, [code(AccessMode.read)], [IDS.orgMember]),
    { ...team(TEAMS.owners, AccessMode.owner, [], [IDS.owner], true), canCreateOrgRepo: true },
    // The org member's team holds no repository and no unit.
    team(TEAMS.orgMemberTeam, AccessMode.read, [], [IDS.orgMember]),
  ];
  const orgMembers = new Set([IDS.orgMember, IDS.teamMember, IDS.owner]);
  const isMember = (viewer: User | null, of: Owner) =>
    viewer !== null && of.id === IDS.org && orgMembers.has(viewer.id);
  const teamsOf = (userId: number) => teams.filter((t) => t.members.includes(userId));
  const repo = {
    id: REPO_ID,
    name: 'repo',
    lowerName: 'repo',
    ownerId: owner.id,
    ownerName: owner.name,
    owner,
    isPrivate: cell.repoVisibility === 'private',
    units: DEFAULT_UNITS.map((unit) => unit.type),
  };
  const forRepo = async (viewer: User | null) => {
    const viewerTeams: ViewerTeam[] = viewer
      ? teamsOf(viewer.id).map((t) => ({ ...t, repoIds: new Set<number>() }))
      : [];
    const orgMemberships = new Set(viewer && orgMembers.has(viewer.id) ? [IDS.org] : []);
    return repoPermission(viewer, repo, { collaborations: new Map(), orgMemberships, teams: viewerTeams });
  };
  const findInOwner = async (of: User, name: string) =>
    of.id === repo.ownerId && name.toLowerCase() === repo.lowerName ? repo : null;
  const services = {
    ownerAccess: { canSee: async (viewer: User | null, of: User) => canSeeOwner(viewer, of, isMember(viewer, of)) },
    users: {
      byName: async (name: string) => users.find((user) => user.lowerName === name.toLowerCase()) ?? null,
      byId: async (id: number) => byId(id),
      renamedTo: async () => null,
    },
    repositories: {
      findInOwner,
      findInOwnerWithPermission: async (of: User, name: string, viewer: User | null) => {
        const found = await findInOwner(of, name);
        return found && { repo: found, permission: await forRepo(viewer) };
      },
      findById: async (id: number) => (id === repo.id ? repo : null),
      renamedTo: async () => null,
    },
    repoPermissions: { forRepo },
    orgs: {
      roleOf: async (_orgId: number, userId: number) => {
        const owner = teamsOf(userId).some((t) => t.accessMode >= AccessMode.owner);
        return { member: orgMembers.has(userId) || owner, owner };
      },
      canCreateRepo: async (_orgId: number, userId: number) => teamsOf(userId).some((t) => t.canCreateOrgRepo),
    },
    teams: {
      findWithOrg: async (id: number) => {
        const found = teams.find((t) => t.id === id);
        return found ? { team: { id: found.id, orgId: found.orgId } as Team, org: byId(IDS.org)! } : null;
      },
      isMember: async (teamId: number, userId: number) =>
        teams.some((t) => t.id === teamId && t.members.includes(userId)),
    },
    packages: {
      accessMode: async (viewer: User | null, of: User) => {
        const grants =
          viewer && of.type === 1
            ? teamsOf(viewer.id).map((t) => ({
                accessMode: t.accessMode,
                packagesUnit: t.units.get(UnitType.packages) ?? 0,
              }))
            : [];
        return packageAccessMode(viewer, of, grants, canSeeOwner(viewer, of, isMember(viewer, of)));
      },
    },
    quota: { assertWithin: async () => undefined },
  };
  return { users, byId, services, repo, owner };
}

/** What a path parameter names in the model (world.ts `defaultValue` and `resolve`, for what guards look at). */
function paramValue(param: string, row: MatrixRow, cell: Cell, world: ReturnType<typeof modelWorld>): string {
  const value = row.params?.[param] ?? defaultValueOf(param, cell);
  switch (value) {
    case 'org':
      return 'org';
    case 'ownerUser':
      return 'owner';
    case 'ownerId':
      return String(IDS.owner);
    case 'orgMember':
      return 'orgmember';
    case 'teamMember':
    case 'publicMember':
      return 'teammember';
    case 'new:member':
    case 'new:user':
    case 'new:blockedUser':
    case 'new:followedUser':
      return 'freshuser';
    case 'new:ownerUserOfVisibility':
      return 'userofvisibility';
    case 'repo':
    case 'new:repo':
      return world.repo.name;
    case 'repoGit':
      return `${world.repo.name}.git`;
    case 'repoId':
      return String(REPO_ID);
    case 'team':
      return String(TEAMS.write);
    case 'new:team':
    case 'new:teamWithRepo':
      return String(TEAMS.fresh);
    case 'new:teamWithMember':
      return String(TEAMS.withMember);
    default:
      return /^\d/.test(value) ? value : '1';
  }
}

function defaultValueOf(param: string, cell: Cell): string {
  switch (param) {
    case 'org':
      return 'org';
    case 'owner':
      return cell.ownerKind === 'user' ? 'ownerUser' : 'org';
    case 'username':
      return cell.ownerKind === 'user' ? 'ownerUser' : 'orgMember';
    case 'repo':
      return 'repo';
    default:
      return 'other';
  }
}

function callerOf(name: CallerName, world: ReturnType<typeof modelWorld>): Caller | null {
  const signedIn = (user: User, scope: string): Caller => ({
    user,
    authenticated: user,
    method: 'token',
    scope: parseScope(scope),
  });
  switch (name) {
    case 'anonymous':
      return null;
    case 'outsider':
      return signedIn(world.byId(IDS.outsider)!, 'all');
    case 'orgMember':
      return signedIn(world.byId(IDS.orgMember)!, 'all');
    case 'teamMember':
      return signedIn(world.byId(IDS.teamMember)!, 'all');
    case 'siteAdmin':
      return signedIn(world.byId(IDS.siteAdmin)!, 'all');
    case 'orgOwner':
      return signedIn(world.byId(IDS.owner)!, 'all');
    case 'publicOnlyToken':
      return signedIn(world.byId(IDS.owner)!, 'all,public-only');
    case 'readOnlyToken':
      return signedIn(world.byId(IDS.owner)!, READ_EVERYTHING);
  }
}

const settings = loadSettings({
  ANVIL_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-guards-')),
  ANVIL_ROOT_URL: 'http://localhost:3000/',
  ANVIL__log__LEVEL: 'silent',
});

/** The status the scope check and the route's guards give, or `pass` when they let the caller through. */
async function guardOutcome(row: MatrixRow, cell: Cell, callerName: CallerName): Promise<number | 'pass'> {
  const world = modelWorld(cell);
  const operation = OPERATIONS[row.operation];
  const params: Record<string, string | number> = {};
  for (const [, param] of operation.path.matchAll(/\{(\w+)\}/g)) {
    const value = paramValue(param, row, cell, world);
    params[param] = (operation.integerPathParams as readonly string[]).includes(param) ? Number(value) : value;
  }
  const req = { method: operation.method.toUpperCase(), query: { ...row.query }, body: undefined, headers: {} };
  const caller = callerOf(callerName, world);
  const app = { settings, services: world.services } as unknown as AppContext;
  try {
    refuseMissingScopes(caller, row.operation, req as never);
    const ctx = new OperationContext(row.operation, params, caller, app, req as never, {} as never);
    for (const guard of REGISTRY[row.operation].guards) await guard(ctx);
    return 'pass';
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

function cellsOf(row: MatrixRow): Array<[Cell, Row]> {
  const ownerKind = row.owner ?? 'org';
  const expected = row.expected;
  if ('anyOwner' in expected)
    return [[{ visibility: 'public', repoVisibility: 'public', ownerKind }, expected.anyOwner]];
  if ('byOwner' in expected) {
    return OWNER_VISIBILITIES.map((visibility) => [
      { visibility, repoVisibility: 'public', ownerKind },
      expected.byOwner[visibility],
    ]);
  }
  return REPO_VISIBILITIES.flatMap((repoVisibility) =>
    OWNER_VISIBILITIES.map((visibility): [Cell, Row] => [
      { visibility, repoVisibility, ownerKind },
      expected.byRepo[repoVisibility][visibility],
    ]),
  );
}

describe('route guards agree with the authorization matrix', () => {
  it.each(ALL_ROWS.map((row) => [row.operation, row] as const))('%s', async (operation, row) => {
    const disagreements: string[] = [];
    let handlerRefuses = false;
    for (const [cell, expectedRow] of cellsOf(row)) {
      for (const [index, caller] of CALLERS.entries()) {
        const expected = expectedRow[index];
        const outcome = await guardOutcome(row, cell, caller);
        const where = `${caller} on a ${cell.repoVisibility} repo of a ${cell.visibility} ${cell.ownerKind}`;
        if (outcome !== 'pass' && outcome !== expected)
          disagreements.push(`${where}: guards ${outcome}, matrix ${expected}`);
        if (outcome === 'pass' && (expected === 401 || expected === 403)) {
          handlerRefuses = true;
          if (!HANDLER_DECIDED[operation]) disagreements.push(`${where}: guards let through, matrix ${expected}`);
        }
      }
    }
    if (HANDLER_DECIDED[operation] && !handlerRefuses)
      disagreements.push('listed in HANDLER_DECIDED, yet the guards decide');
    expect(disagreements).toEqual([]);
  });
});
