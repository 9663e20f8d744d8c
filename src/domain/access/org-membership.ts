// Who sees an organization's concealed side — every member, every team, its members' whole activity — and who
// its public side only (Forgejo: routers/api/v1/org/member.go, org/team.go SearchTeam).
import type { Account } from './account.ts';

/** Members and site administrators; anonymous callers and outsiders see the public side. */
export function seesConcealedMembership(viewer: Account | null, isMember: boolean): boolean {
  return viewer !== null && (viewer.isAdmin || isMember);
}
