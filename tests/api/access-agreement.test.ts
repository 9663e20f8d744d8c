// The access rules exist twice: as pure functions (src/domain/access/owner-visibility.ts,
// src/domain/access/repo-permission.ts) that decide a lookup, and as SQL filters (src/db/access-filters.ts) that decide lists and counts. This test
// builds a matrix — viewer kind × owner kind and visibility × membership × team permission, units and scope ×
// repository privacy and units — and proves both give the same answer on every cell, on the test's database.
import { readableRepositoriesWhere, visibleOwnersWhere } from '../../src/db/access-filters.ts';
import type { User } from '../../src/db/prisma.ts';
import { AccessMode, UnitType } from '../../src/domain/access/modes.ts';
import { canSeeOwner } from '../../src/domain/access/owner-visibility.ts';
import { hasAccess } from '../../src/domain/access/repo-permission.ts';
import { createTestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

interface TeamCase {
  accessMode: number;
  units: Array<[number, number]>;
  includesAll: boolean;
  holdsRepos: boolean;
}

/** How the viewer belongs to an organization. */
const MEMBERSHIPS: Record<string, TeamCase | 'none' | 'listed'> = {
  none: 'none',
  listed: 'listed',
  readCode: {
    accessMode: AccessMode.read,
    units: [[UnitType.code, AccessMode.read]],
    includesAll: false,
    holdsRepos: true,
  },
  readIssuesAllRepos: {
    accessMode: AccessMode.read,
    units: [[UnitType.issues, AccessMode.read]],
    includesAll: true,
    holdsRepos: false,
  },
  writeCodeAndIssues: {
    accessMode: AccessMode.write,
    units: [
      [UnitType.code, AccessMode.write],
      [UnitType.issues, AccessMode.write],
    ],
    includesAll: false,
    holdsRepos: true,
  },
  unitNotOnRepos: {
    accessMode: AccessMode.read,
    units: [[UnitType.extWiki, AccessMode.read]],
    includesAll: false,
    holdsRepos: true,
  },
  teamWithoutTheRepos: {
    accessMode: AccessMode.write,
    units: [[UnitType.code, AccessMode.write]],
    includesAll: false,
    holdsRepos: false,
  },
  noAccessTeam: {
    accessMode: AccessMode.none,
    units: [[UnitType.code, AccessMode.read]],
    includesAll: true,
    holdsRepos: false,
  },
  admin: { accessMode: AccessMode.admin, units: [], includesAll: true, holdsRepos: false },
  owner: { accessMode: AccessMode.owner, units: [], includesAll: true, holdsRepos: false },
};
const VISIBILITIES = [0, 1, 2];
/** Repositories each owner gets: privacy and enabled units. */
const REPOS: Array<{ isPrivate: boolean; units: number[] }> = [
  { isPrivate: false, units: [UnitType.code, UnitType.issues] },
  { isPrivate: true, units: [UnitType.code, UnitType.issues] },
  { isPrivate: true, units: [UnitType.issues] },
  { isPrivate: false, units: [] },
];

const owners: User[] = [];
const repoLabels = new Map<number, string>();
const ownerLabels = new Map<number, string>();
const memberships: Array<{ userId: number; orgId: number }> = [];

async function createOwner(type: 0 | 1, visibility: number, label: string): Promise<User> {
  const name = uniqueName(type === 1 ? 'o' : 'u');
  const owner = await t.context.db.prisma.user.create({
    data: { name, lowerName: name, type, visibility, email: `${name}@example.com` },
  });
  owners.push(owner);
  ownerLabels.set(owner.id, label);
  return owner;
}

async function createRepos(owner: User, label: string): Promise<number[]> {
  const { prisma } = t.context.db;
  const ids: number[] = [];
  for (const [index, spec] of REPOS.entries()) {
    const name = `r${index}`;
    const repo = await prisma.repository.create({
      data: { ownerId: owner.id, ownerName: owner.name, name, lowerName: name, isPrivate: spec.isPrivate },
    });
    for (const type of spec.units) await prisma.repoUnit.create({ data: { repoId: repo.id, type } });
    repoLabels.set(
      repo.id,
      `${label} repo(${spec.isPrivate ? 'private' : 'public'}, units ${spec.units.join('+') || 'none'})`,
    );
    ids.push(repo.id);
  }
  return ids;
}

/** An organization (and its repositories) to which the viewer belongs as `membership` says. */
async function orgFor(viewer: User, viewerKind: string, visibility: number, membershipName: string): Promise<void> {
  const { prisma } = t.context.db;
  const label = `${viewerKind}: org(visibility ${visibility}, ${membershipName})`;
  const org = await createOwner(1, visibility, label);
  const repoIds = await createRepos(org, label);
  const membership = MEMBERSHIPS[membershipName];
  if (membership === 'none') return;
  await prisma.orgUser.create({ data: { orgId: org.id, userId: viewer.id } });
  memberships.push({ orgId: org.id, userId: viewer.id });
  if (membership === 'listed') return;
  const team = await prisma.team.create({
    data: {
      orgId: org.id,
      name: 't',
      lowerName: 't',
      accessMode: membership.accessMode,
      includesAllRepositories: membership.includesAll,
    },
  });
  for (const [type, accessMode] of membership.units)
    await prisma.teamUnit.create({ data: { orgId: org.id, teamId: team.id, type, accessMode } });
  await prisma.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: viewer.id } });
  if (membership.holdsRepos)
    for (const repoId of repoIds) await prisma.teamRepo.create({ data: { orgId: org.id, teamId: team.id, repoId } });
}

let plain: User;
let restricted: User;
let admin: User;

beforeAll(async () => {
  t = await startTestApp();
  plain = (await createTestUser(t)).user;
  restricted = (await createTestUser(t, { fields: { isRestricted: true } })).user;
  admin = (await createTestUser(t, { admin: true })).user;
  for (const [viewer, kind] of [
    [plain, 'plain'],
    [restricted, 'restricted'],
  ] as const) {
    for (const visibility of VISIBILITIES) {
      for (const membership of Object.keys(MEMBERSHIPS)) await orgFor(viewer, kind, visibility, membership);
      // A user-owned set, one of whose private repositories the viewer collaborates on.
      const label = `${kind}: user(visibility ${visibility})`;
      const user = await createOwner(0, visibility, label);
      const repoIds = await createRepos(user, label);
      await t.context.db.prisma.collaboration.create({
        data: { repoId: repoIds[1], userId: viewer.id, accessMode: AccessMode.read },
      });
      repoLabels.set(repoIds[1], `${repoLabels.get(repoIds[1])} + collaborator`);
    }
    // The viewer's own repositories.
    const own = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: viewer.id } });
    owners.push(own);
    ownerLabels.set(own.id, `${kind}: itself`);
    await createRepos(own, `${kind}: own`);
  }
}, 120_000);
afterAll(() => t.close());

const viewers = () =>
  [
    ['anonymous', null],
    ['plain', plain],
    ['restricted', restricted],
    ['admin', admin],
  ] as const;

describe('the pure rules and the SQL filters agree', () => {
  it.each(['anonymous', 'plain', 'restricted', 'admin'])(
    'on every repository, for a %s viewer (and a public-only token)',
    async (kind) => {
      const viewer = viewers().find(([name]) => name === kind)![1] as User | null;
      const { prisma } = t.context.db;
      const repoIds = [...repoLabels.keys()];
      const repos = await prisma.repository.findMany({
        where: { id: { in: repoIds } },
        include: { owner: true, units: true },
      });
      const permissions = await t.context.services.repoPermissions.forRepos(viewer, repos);
      for (const publicOnly of [false, true]) {
        const pure = new Set(
          repos
            .filter((repo) => {
              const visible = hasAccess(permissions.get(repo.id)!);
              return publicOnly ? visible && !repo.isPrivate && repo.owner.visibility === 0 : visible;
            })
            .map((repo) => repo.id),
        );
        const sql = new Set(
          (
            await prisma.repository.findMany({
              where: { AND: [{ id: { in: repoIds } }, readableRepositoriesWhere(viewer, publicOnly)] },
              select: { id: true },
            })
          ).map((repo) => repo.id),
        );
        const disagreements = repoIds
          .filter((id) => pure.has(id) !== sql.has(id))
          .map((id) => `${repoLabels.get(id)}: pure ${pure.has(id)}, sql ${sql.has(id)}`);
        expect({ publicOnly, disagreements }).toEqual({ publicOnly, disagreements: [] });
        // The matrix is not trivial for this viewer: admins see everything, everyone else some but not all.
        if (kind === 'admin' && !publicOnly) expect(pure.size).toBe(repoIds.length);
        else expect(pure.size).toBeLessThan(repoIds.length);
        if (kind !== 'anonymous' || !publicOnly) expect(pure.size).toBeGreaterThan(0);
      }
    },
  );

  it.each(['anonymous', 'plain', 'restricted', 'admin'])(
    'on every user and organization, for a %s viewer',
    async (kind) => {
      const viewer = viewers().find(([name]) => name === kind)![1] as User | null;
      const ids = owners.map((owner) => owner.id);
      const pure = new Set(
        owners
          .filter((owner) => {
            const isMember = viewer !== null && memberships.some((m) => m.orgId === owner.id && m.userId === viewer.id);
            return canSeeOwner(viewer, owner, isMember);
          })
          .map((owner) => owner.id),
      );
      const sql = new Set(
        (
          await t.context.db.prisma.user.findMany({
            where: { AND: [{ id: { in: ids } }, visibleOwnersWhere(viewer)] },
            select: { id: true },
          })
        ).map((owner) => owner.id),
      );
      const disagreements = ids
        .filter((id) => pure.has(id) !== sql.has(id))
        .map((id) => `${ownerLabels.get(id)}: pure ${pure.has(id)}, sql ${sql.has(id)}`);
      expect(disagreements).toEqual([]);
      // And the service that every guard asks gives the same answers.
      for (const owner of owners)
        expect([ownerLabels.get(owner.id), await t.context.services.ownerAccess.canSee(viewer, owner)]).toEqual([
          ownerLabels.get(owner.id),
          pure.has(owner.id),
        ]);
    },
  );
});
