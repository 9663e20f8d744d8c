// The access rules of src/domain/access/owner-visibility.ts and src/domain/access/repo-permission.ts (hasAccess,
// canReadUnit) as Prisma filters, so lists and counts never show what a lookup would hide. tests/api/access-agreement.test.ts and
// tests/api/content-access-agreement.test.ts prove both agree.
import { AccessMode, Visibility } from '../domain/access/modes.ts';
import { ORG_TYPE, USER_TYPE, type Viewer } from '../domain/access/owner-visibility.ts';
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
  // A collaboration at mode none gives nothing itself, but still opens an owner the viewer could not see.
  const collaborates: Prisma.RepositoryWhereInput = { collaborators: { some: { userId } } };
  return {
    OR: [
      { ownerId: userId },
      { collaborators: { some: { userId, accessMode: { gte: AccessMode.read } } } },
      {
        AND: [
          { OR: [collaborates, { owner: visibleOwnersWhere(viewer) }] },
          viewer.isRestricted ? throughTeam : { OR: [{ isPrivate: false }, throughTeam] },
        ],
      },
    ],
  };
}

/**
 * The repositories on which the viewer can read `unitType` (canReadUnit of repoPermission): the unit is enabled and
 * the viewer owns the repository, collaborates with read or more, or sees its owner and either reads public
 * repositories or holds it through a team of the organization that grants the unit, or is admin of it.
 */
export function unitReadableRepositoriesWhere(
  viewer: Viewer | null,
  unitType: number,
  publicOnly = false,
): Prisma.RepositoryWhereInput {
  const enabled: Prisma.RepositoryWhereInput = { units: { some: { type: unitType } } };
  const everyone: Prisma.RepositoryWhereInput = { isPrivate: false, owner: { visibility: Visibility.public } };
  if (!viewer) return { AND: [enabled, everyone] };
  if (publicOnly) return { AND: [everyone, unitReadableRepositoriesWhere(viewer, unitType)] };
  if (viewer.isAdmin) return enabled;
  const userId = viewer.id;
  const heldByTeam = (team: Prisma.TeamWhereInput): Prisma.RepositoryWhereInput => {
    const memberTeam: Prisma.TeamWhereInput = {
      members: { some: { userId } },
      accessMode: { gt: AccessMode.none },
      ...team,
    };
    return {
      owner: { type: ORG_TYPE },
      OR: [
        { teamRepos: { some: { team: memberTeam } } },
        { owner: { teams: { some: { includesAllRepositories: true, ...memberTeam } } } },
      ],
    };
  };
  const collaborates = { collaborators: { some: { userId } } };
  const grantsUnit: Prisma.TeamUnitWhereInput = { type: unitType, accessMode: { gt: AccessMode.none } };
  return {
    AND: [
      enabled,
      {
        OR: [
          { ownerId: userId },
          { collaborators: { some: { userId, accessMode: { gte: AccessMode.read } } } },
          {
            AND: [
              { OR: [collaborates, { owner: visibleOwnersWhere(viewer) }] },
              {
                OR: [
                  ...(viewer.isRestricted ? [] : [{ isPrivate: false }]),
                  heldByTeam({ OR: [{ accessMode: { gte: AccessMode.admin } }, { units: { some: grantsUnit } }] }),
                  // A collaborator whose collaboration gives nothing still reads every unit at a team's level.
                  { AND: [collaborates, heldByTeam({})] },
                ],
              },
            ],
          },
        ],
      },
    ],
  };
}
