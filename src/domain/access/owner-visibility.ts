// Who may see a user or an organization (Forgejo: models/organization HasOrgOrUserVisible).
// Public: everyone. Limited: any signed-in user who is not restricted. Private: members only.
// Restricted users see public users and the organizations they belong to. Administrators and the owner see everything.
// The same rule as SQL lives in src/db/access-filters.ts; tests/api/access-agreement.test.ts proves they agree.
import { Visibility } from './modes.ts';

export interface Viewer {
  readonly id: number;
  readonly isAdmin: boolean;
  readonly isRestricted: boolean;
}

export interface Owner {
  readonly id: number;
  /** 0 user, 1 organization */
  readonly type: number;
  readonly visibility: number;
}

export const USER_TYPE = 0;
export const ORG_TYPE = 1;

export function isOrganization(owner: Pick<Owner, 'type'>): boolean {
  return owner.type === ORG_TYPE;
}

/** A person's account: not an organization, nor any other kind of account. */
export function isIndividual(owner: Pick<Owner, 'type'>): boolean {
  return owner.type === USER_TYPE;
}

/** `isMember`: the viewer belongs to the owner (an organization); ignored for users. */
export function canSeeOwner(viewer: Viewer | null, owner: Owner, isMember: boolean): boolean {
  if (viewer && (viewer.isAdmin || viewer.id === owner.id)) return true;
  const memberOfOrg = isOrganization(owner) && isMember;
  if (viewer?.isRestricted) return isOrganization(owner) ? memberOfOrg : owner.visibility === Visibility.public;
  if (owner.visibility === Visibility.public) return true;
  if (!viewer) return false;
  if (owner.visibility === Visibility.limited) return true;
  return memberOfOrg;
}

/** Whether canSeeOwner needs to know about membership at all (saves a query). */
export function visibilityDependsOnMembership(viewer: Viewer | null, owner: Owner): boolean {
  if (!viewer || viewer.isAdmin || viewer.id === owner.id || !isOrganization(owner)) return false;
  return viewer.isRestricted || owner.visibility === Visibility.private;
}
