// A user's access to one repository, overall and per unit (Forgejo: models/perm/access GetUserRepoPermission).
// - anonymous: read on public repositories of public owners, nothing else;
// - site administrators and the owning user: owner;
// - an owner the viewer may not see hides the repository, unless the viewer is a collaborator;
// - collaborators: their access mode on every unit;
// - org repositories: teams of the org with some access that hold the repository (a TeamRepo row or
//   includesAllRepositories); the org's owner-level team makes its members owners, an admin team makes them
//   admins, other teams give their unit modes per unit;
// - a public repository gives read to every signed-in user who is not restricted.
// Visible (hasAccess) means read on the repository or on one of its units. Unlike Forgejo, a team that holds the
// repository makes it visible even when none of the team's units is enabled on it, so the rule has an exact SQL twin.
// The same rule as SQL lives in src/db/access-filters.ts; tests/api/access-agreement.test.ts proves they agree.
import { AccessMode, UnitType } from './modes.ts';
import { canSeeOwner, isOrganization, type Owner, type Viewer } from './owner-visibility.ts';

export interface RepoPermission {
  /** Overall access mode (0 none … 4 owner). */
  readonly mode: number;
  /** Access per unit type; null means every enabled unit at `mode`. */
  readonly unitModes: ReadonlyMap<number, number> | null;
  /** Unit types enabled on the repository. */
  readonly units: readonly number[];
}

export interface RepoFacts {
  readonly id: number;
  readonly ownerId: number;
  readonly isPrivate: boolean;
  readonly owner: Owner;
  /** Unit types enabled on the repository. */
  readonly units: readonly number[];
}

/** A team of the repository's organization that the viewer belongs to. */
export interface ViewerTeam {
  readonly orgId: number;
  readonly accessMode: number;
  readonly includesAllRepositories: boolean;
  readonly units: ReadonlyMap<number, number>;
  readonly repoIds: ReadonlySet<number>;
}

/** What the database knows about the viewer for a set of repositories. */
export interface ViewerFacts {
  readonly collaborations: ReadonlyMap<number, number>;
  readonly orgMemberships: ReadonlySet<number>;
  readonly teams: readonly ViewerTeam[];
}

export const NO_FACTS: ViewerFacts = { collaborations: new Map(), orgMemberships: new Set(), teams: [] };

export function repoPermission(viewer: Viewer | null, repo: RepoFacts, facts: ViewerFacts): RepoPermission {
  const units = repo.units;
  if (!viewer) {
    const visible = !repo.isPrivate && canSeeOwner(null, repo.owner, false);
    return { mode: visible ? AccessMode.read : AccessMode.none, unitModes: null, units };
  }
  if (viewer.isAdmin || viewer.id === repo.ownerId) return { mode: AccessMode.owner, unitModes: null, units };
  const collaboration = facts.collaborations.get(repo.id);
  if (collaboration === undefined && !canSeeOwner(viewer, repo.owner, facts.orgMemberships.has(repo.ownerId))) {
    return { mode: AccessMode.none, unitModes: null, units };
  }
  let mode: number = !repo.isPrivate && !viewer.isRestricted ? AccessMode.read : AccessMode.none;
  if (collaboration !== undefined) mode = Math.max(mode, collaboration);
  if (!isOrganization(repo.owner)) return { mode, unitModes: null, units };

  const repoTeams = facts.teams.filter(
    (team) =>
      team.orgId === repo.ownerId &&
      team.accessMode > AccessMode.none &&
      (team.includesAllRepositories || team.repoIds.has(repo.id)),
  );
  const topTeamMode = repoTeams.reduce<number>((top, team) => Math.max(top, team.accessMode), AccessMode.none);
  if (topTeamMode >= AccessMode.admin) return { mode: Math.max(mode, topTeamMode), unitModes: null, units };
  for (const team of repoTeams) mode = Math.max(mode, team.accessMode);

  const unitModes = new Map<number, number>();
  if (collaboration !== undefined) for (const type of units) unitModes.set(type, mode);
  for (const type of units) {
    let found = false;
    for (const team of repoTeams) {
      const teamMode = team.units.get(type) ?? AccessMode.none;
      if (teamMode > AccessMode.none) {
        unitModes.set(type, Math.max(unitModes.get(type) ?? AccessMode.none, teamMode));
        found = true;
      }
    }
    if (!found && !repo.isPrivate && !viewer.isRestricted && !unitModes.has(type)) unitModes.set(type, AccessMode.read);
  }
  return { mode, unitModes, units };
}

export function unitMode(permission: RepoPermission, unitType: number): number {
  if (permission.unitModes === null) return permission.units.includes(unitType) ? permission.mode : AccessMode.none;
  return permission.unitModes.get(unitType) ?? AccessMode.none;
}

/** Read access to the repository or to one of its units: the repository is visible. */
export function hasAccess(permission: RepoPermission): boolean {
  if (permission.mode >= AccessMode.read) return true;
  return permission.unitModes !== null && [...permission.unitModes.values()].some((mode) => mode > AccessMode.none);
}

export function canReadUnit(permission: RepoPermission, unitType: number): boolean {
  return unitMode(permission, unitType) >= AccessMode.read;
}

export function canWriteUnit(permission: RepoPermission, unitType: number): boolean {
  return unitMode(permission, unitType) >= AccessMode.write;
}

export function isRepoAdmin(permission: RepoPermission): boolean {
  return permission.mode >= AccessMode.admin;
}

/** The owning user, an owner of the owning organization, or a site administrator. */
export function isRepoOwner(permission: RepoPermission): boolean {
  return permission.mode >= AccessMode.owner;
}

export function canReadCode(permission: RepoPermission): boolean {
  return canReadUnit(permission, UnitType.code);
}

export function canWriteCode(permission: RepoPermission): boolean {
  return canWriteUnit(permission, UnitType.code);
}
