// The access rules of src/domain/owner-visibility.ts and src/domain/repo-permission.ts as Prisma filters, so
// lists and counts never show what a lookup would hide. tests/api/access-agreement.test.ts proves both agree.
import { AccessMode, Visibility } from '../domain/access.ts';
import { ORG_TYPE, USER_TYPE, type Viewer } from '../domain/owner-visibility.ts';
import type { Prisma } from './prisma.ts';

/** The users and organizations the viewer may see (canSeeOwner). */
export function visibleOwnersWhere(viewer: Viewer | null): Prisma.UserWhereInput {
  if (!viewer) return { visibility: Visibility.public };
  if (viewer.isAdmin) return {};
  const memberOfOrg: Prisma.UserWhereInput = { type: ORG_TYPE, orgMembers: { some: { userId: viewer.id } } };
  const others: Prisma.UserWhereInput = viewer.isRestricted
    ? { OR: [{ type: USER_TYPE, visibility: Visibility.public }, memberOfOrg] }
    : { OR: [{ visibility: { in: [Visibility.public, Visibility.limited] } }, memberOfOrg] };
  return { OR: [{ id: viewer.id }, others] };
}

/**
 * The repositories the viewer can read (hasAccess of repoPermission). `publicOnly` (a public-only token) further
 * keeps only public repositories of public owners.
 */
export function readableRepositoriesWhere(viewer: Viewer | null, publicOnly = false): Prisma.RepositoryWhereInput {
  const everyone: Prisma.RepositoryWhereInput = { isPrivate: false, owner: { visibility: Visibility.public } };
  if (!viewer) return everyone;
  if (publicOnly) return { AND: [everyone, readableRepositoriesWhere(viewer)] };
  if (viewer.isAdmin) return {};
  const userId = viewer.id;
  const teamGivesAccess: Prisma.TeamWhereInput = { members: { some: { userId } }, accessMode: { gt: AccessMode.none } };
  const throughTeam: Prisma.RepositoryWhereInput = {
    OR: [
      { teamRepos: { some: { team: teamGivesAccess } } },
      { owner: { type: ORG_TYPE, teams: { some: { includesAllRepositories: true, ...teamGivesAccess } } } },
    ],
  };
  return {
    OR: [
      { ownerId: userId },
      { collaborators: { some: { userId } } },
      { AND: [{ owner: visibleOwnersWhere(viewer) }, viewer.isRestricted ? throughTeam : { OR: [{ isPrivate: false }, throughTeam] }] },
    ],
  };
}
