// A user's access to one repository and the maths on it (Forgejo: models/perm/access Permission).
import { AccessMode, UnitType } from './access.ts';

export interface RepoPermission {
  /** Overall access mode (0 none … 4 owner). */
  readonly mode: number;
  /** Access per unit type; null means every enabled unit at `mode`. */
  readonly unitModes: ReadonlyMap<number, number> | null;
  /** Unit types enabled on the repository. */
  readonly units: readonly number[];
}

export function unitMode(permission: RepoPermission, unitType: number): number {
  if (permission.unitModes === null) return permission.units.includes(unitType) ? permission.mode : AccessMode.none;
  return permission.unitModes.get(unitType) ?? AccessMode.none;
}

/** Read access to at least one unit: the repository is visible. */
export function hasAccess(permission: RepoPermission): boolean {
  if (permission.unitModes === null) return permission.mode >= AccessMode.read;
  return [...permission.unitModes.values()].some((mode) => mode > AccessMode.none);
}

export function canReadCode(permission: RepoPermission): boolean {
  return unitMode(permission, UnitType.code) >= AccessMode.read;
}

export function canWriteCode(permission: RepoPermission): boolean {
  return unitMode(permission, UnitType.code) >= AccessMode.write;
}

export function isRepoAdmin(permission: RepoPermission): boolean {
  return permission.mode >= AccessMode.admin;
}

export function isRepoOwner(permission: RepoPermission): boolean {
  return permission.mode >= AccessMode.owner;
}
