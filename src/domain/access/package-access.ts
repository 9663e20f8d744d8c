// Who may read or write an owner's packages (Forgejo: services/context/package.go determineAccessMode).
import { AccessMode, type AccessModeValue, Visibility } from './modes.ts';
import { isOrganization, type Owner } from './owner-visibility.ts';

/** One team of the organization the viewer belongs to: its level and its level on the packages unit. */
export interface TeamPackageGrant {
  accessMode: number;
  packagesUnit: number;
}

/**
 * Organizations: the highest level of the viewer's teams, raised below write by the teams' packages unit; a viewer
 * with no team reads when the organization is visible to them. Users: the owner is owner; other signed-in viewers
 * read a public or limited user's packages, anonymous ones a public user's. Site admins are let through by the
 * guards, not here.
 */
export function packageAccessMode(
  viewer: { readonly id: number } | null,
  owner: Owner,
  teams: readonly TeamPackageGrant[],
  ownerVisible: boolean,
): AccessModeValue {
  if (isOrganization(owner)) {
    let mode = 0;
    if (viewer) {
      mode = Math.max(0, ...teams.map((team) => team.accessMode));
      if (mode < AccessMode.write) mode = Math.max(mode, ...teams.map((team) => team.packagesUnit));
    }
    if (mode === AccessMode.none && ownerVisible) mode = AccessMode.read;
    return Math.min(mode, AccessMode.owner) as AccessModeValue;
  }
  if (viewer) {
    if (viewer.id === owner.id) return AccessMode.owner;
    return owner.visibility === Visibility.public || owner.visibility === Visibility.limited
      ? AccessMode.read
      : AccessMode.none;
  }
  return owner.visibility === Visibility.public ? AccessMode.read : AccessMode.none;
}
