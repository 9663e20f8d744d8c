// The content rule exists twice: as pure functions (src/domain/access/content-visibility.ts over repoPermission) and as
// SQL filters (src/db/content-access-filters.ts over unitReadableRepositoriesWhere). This test builds a matrix —
// viewer kind × owner kind and visibility × membership, team units and collaboration × repository privacy and
// units — with an issue, a pull request, feed entries of every unit and threads of every source in each
// repository, and proves both rules pick the same repositories and rows, for every viewer and public-only tokens.
import {
  contentRepositoriesWhere,
  visibleActionsWhere,
  visibleIssuesWhere,
  visibleNotificationsWhere,
} from '../../src/db/content-access-filters.ts';
import type { Prisma, User } from '../../src/db/prisma.ts';
import { AccessMode, UnitType } from '../../src/domain/access/modes.ts';
import { opTypeNumber } from '../../src/domain/activity.ts';
import {
  canSeeContent,
  readerSeesContent,
  type ContentUnit,
  unitOfActivity,
  unitOfIssue,
  unitOfNotificationSource,
} from '../../src/domain/access/content-visibility.ts';
import { NO_FACTS, type RepoPermission, repoPermission } from '../../src/domain/access/repo-permission.ts';
import { visibleContent } from '../../src/db/visible-content.ts';
import { repoFactsOf } from '../../src/db/repo-permissions.ts';
import { createTestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

interface Membership {
  team?: { accessMode: number; units: Array<[number, number]>; includesAll: boolean };
  /** The viewer collaborates on every repository of the organization at this mode. */
  collaboration?: number;
}

const { code, issues, pulls } = UnitType;
const MEMBERSHIPS: Record<string, Membership | 'none' | 'listed'> = {
  none: 'none',
  listed: 'listed',
  codeTeam: { team: { accessMode: AccessMode.read, units: [[code, AccessMode.read]], includesAll: false } },
  issuesTeamAllRepos: { team: { accessMode: AccessMode.read, units: [[issues, AccessMode.read]], includesAll: true } },
  codeAndPullsTeam: {
    team: {
      accessMode: AccessMode.write,
      units: [
        [code, AccessMode.write],
        [pulls, AccessMode.write],
      ],
      includesAll: false,
    },
  },
  adminTeam: { team: { accessMode: AccessMode.admin, units: [], includesAll: false } },
  noAccessTeam: { team: { accessMode: AccessMode.none, units: [[issues, AccessMode.read]], includesAll: true } },
  emptyCollaborationAndCodeTeam: {
    team: { accessMode: AccessMode.read, units: [[code, AccessMode.read]], includesAll: false },
    collaboration: AccessMode.none,
  },
  readCollaboration: { collaboration: AccessMode.read },
};
const REPOS: Array<{ isPrivate: boolean; units: number[] }> = [
  { isPrivate: false, units: [code, issues, pulls] },
  { isPrivate: true, units: [code, issues, pulls] },
  { isPrivate: true, units: [issues] },
  { isPrivate: false, units: [pulls] },
  { isPrivate: false, units: [] },
];
const UNITS: ContentUnit[] = [code, issues, pulls, 'repository'];
const OPS = [
  opTypeNumber('create_repo'),
  opTypeNumber('commit_repo'),
  opTypeNumber('create_issue'),
  opTypeNumber('create_pull_request'),
  999,
];
const SOURCES = [1, 2, 3, 4];

const repoLabels = new Map<number, string>();
let admin: User;

async function createRepos(owner: User, label: string): Promise<number[]> {
  const { prisma } = t.context.db;
  const ids: number[] = [];
  for (const [index, spec] of REPOS.entries()) {
    const name = `r${index}`;
    const repo = await prisma.repository.create({
      data: { ownerId: owner.id, ownerName: owner.name, name, lowerName: name, isPrivate: spec.isPrivate },
    });
    if (spec.units.length)
      await prisma.repoUnit.createMany({ data: spec.units.map((type) => ({ repoId: repo.id, type })) });
    repoLabels.set(
      repo.id,
      `${label} repo(${spec.isPrivate ? 'private' : 'public'}, units ${spec.units.join('+') || 'none'})`,
    );
    ids.push(repo.id);
  }
  return ids;
}

async function createOwner(type: 0 | 1, visibility: number): Promise<User> {
  const name = uniqueName(type === 1 ? 'o' : 'u');
  return t.context.db.prisma.user.create({
    data: { name, lowerName: name, type, visibility, email: `${name}@example.com` },
  });
}

/** An organization (and its repositories) to which the viewer belongs as `membership` says. */
async function orgFor(viewer: User, kind: string, visibility: number, membershipName: string): Promise<void> {
  const { prisma } = t.context.db;
  const org = await createOwner(1, visibility);
  const repoIds = await createRepos(org, `${kind}: org(visibility ${visibility}, ${membershipName})`);
  const membership = MEMBERSHIPS[membershipName];
  if (membership === 'none') return;
  await prisma.orgUser.create({ data: { orgId: org.id, userId: viewer.id } });
  if (membership === 'listed') return;
  if (membership.collaboration !== undefined) {
    await prisma.collaboration.createMany({
      data: repoIds.map((repoId) => ({ repoId, userId: viewer.id, accessMode: membership.collaboration! })),
    });
  }
  if (!membership.team) return;
  const spec = membership.team;
  const team = await prisma.team.create({
    data: {
      orgId: org.id,
      name: 't',
      lowerName: 't',
      accessMode: spec.accessMode,
      includesAllRepositories: spec.includesAll,
    },
  });
  await prisma.teamUnit.createMany({
    data: spec.units.map(([type, accessMode]) => ({ orgId: org.id, teamId: team.id, type, accessMode })),
  });
  await prisma.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: viewer.id } });
  if (!spec.includesAll)
    await prisma.teamRepo.createMany({ data: repoIds.map((repoId) => ({ orgId: org.id, teamId: team.id, repoId })) });
}

/** An issue, a pull request, a feed entry of each op and a thread of each source in every repository. */
async function createContent(): Promise<void> {
  const { prisma } = t.context.db;
  const repoIds = [...repoLabels.keys()];
  await prisma.issue.createMany({
    data: repoIds.flatMap((repoId) =>
      [false, true].map((isPull, index) => ({ repoId, index: index + 1, posterId: admin.id, title: 'x', isPull })),
    ),
  });
  const rows = await prisma.issue.findMany({ where: { repoId: { in: repoIds } } });
  await prisma.action.createMany({
    data: repoIds.flatMap((repoId) => OPS.map((opType) => ({ userId: admin.id, opType, actUserId: admin.id, repoId }))),
  });
  await prisma.notification.createMany({
    data: rows.flatMap((issue) =>
      SOURCES.filter((source) => (source === 2) === issue.isPull).map((source) => ({
        userId: admin.id,
        repoId: issue.repoId,
        issueId: issue.id,
        source,
      })),
    ),
  });
}

let plain: User;
let restricted: User;

beforeAll(async () => {
  t = await startTestApp();
  plain = (await createTestUser(t)).user;
  restricted = (await createTestUser(t, { fields: { isRestricted: true } })).user;
  admin = (await createTestUser(t, { admin: true })).user;
  const { prisma } = t.context.db;
  for (const [viewer, kind] of [
    [plain, 'plain'],
    [restricted, 'restricted'],
  ] as const) {
    for (const visibility of [0, 1, 2]) {
      for (const membership of Object.keys(MEMBERSHIPS)) await orgFor(viewer, kind, visibility, membership);
      const user = await createOwner(0, visibility);
      const repoIds = await createRepos(user, `${kind}: user(visibility ${visibility})`);
      await prisma.collaboration.create({
        data: { repoId: repoIds[1], userId: viewer.id, accessMode: AccessMode.read },
      });
      await prisma.collaboration.create({
        data: { repoId: repoIds[2], userId: viewer.id, accessMode: AccessMode.none },
      });
    }
    await createRepos(await prisma.user.findUniqueOrThrow({ where: { id: viewer.id } }), `${kind}: own`);
  }
  await createContent();
}, 180_000);
afterAll(() => t.close());

const viewerOf = (kind: string): User | null => ({ anonymous: null, plain, restricted, admin })[kind] ?? null;

/** The ids the SQL filter keeps and the ids the pure rule keeps, with a label for each disagreement. */
function disagreements(
  ids: number[],
  sql: Set<number>,
  pure: (id: number) => boolean,
  label: (id: number) => string,
): string[] {
  return ids.filter((id) => sql.has(id) !== pure(id)).map((id) => `${label(id)}: pure ${pure(id)}, sql ${sql.has(id)}`);
}

describe('the pure content rule and the SQL filters agree', () => {
  it.each(['anonymous', 'plain', 'restricted', 'admin'])('for a %s viewer and a public-only token', async (kind) => {
    const viewer = viewerOf(kind);
    const { prisma } = t.context.db;
    const repoIds = [...repoLabels.keys()];
    const repos = await prisma.repository.findMany({
      where: { id: { in: repoIds } },
      include: { owner: true, units: true },
    });
    const permissions = await t.context.services.repoPermissions.forRepos(viewer, repos);
    const repoById = new Map(repos.map((repo) => [repo.id, repo]));
    const inRepos = { repoId: { in: repoIds } };
    const [issueRows, actionRows, threadRows] = await Promise.all([
      prisma.issue.findMany({ where: inRepos }),
      prisma.action.findMany({ where: inRepos }),
      prisma.notification.findMany({ where: inRepos }),
    ]);
    for (const publicOnly of [false, true]) {
      const reader = { viewer, publicOnly };
      const sees = (repoId: number, unit: ContentUnit) =>
        readerSeesContent(publicOnly, repoById.get(repoId)!, permissions.get(repoId) as RepoPermission, unit);
      const ids = async (rows: Promise<Array<{ id: number }>>) => new Set((await rows).map((row) => row.id));
      const found: Record<string, string[]> = {};
      for (const unit of UNITS) {
        const sql = await ids(
          prisma.repository.findMany({
            where: { AND: [{ id: { in: repoIds } }, contentRepositoriesWhere(reader, unit)] },
            select: { id: true },
          }),
        );
        found[`repositories (${unit})`] = disagreements(
          repoIds,
          sql,
          (id) => sees(id, unit),
          (id) => repoLabels.get(id)!,
        );
        // The path for a page from one to three repositories: each repository and the viewer's facts on it.
        const few = { hot: t.context.db.hot, access: t.context.repos.repoAccess };
        const decidedOneByOne = new Set<number>();
        for (let start = 0; start < repoIds.length; start += 3) {
          const places = repoIds.slice(start, start + 3).map((repoId) => ({ repoId, unit }));
          for (const place of await visibleContent(prisma, reader, places, (p) => p, few))
            decidedOneByOne.add(place.repoId);
        }
        found[`repositories one by one (${unit})`] = disagreements(
          repoIds,
          decidedOneByOne,
          (id) => sees(id, unit),
          (id) => repoLabels.get(id)!,
        );
        // The path for a page from more repositories: all of them read together.
        const allPlaces = repoIds.map((repoId) => ({ repoId, unit }));
        const decidedTogether = new Set(
          (await visibleContent(prisma, reader, allPlaces, (p) => p, few)).map((place) => place.repoId),
        );
        found[`repositories together (${unit})`] = disagreements(
          repoIds,
          decidedTogether,
          (id) => sees(id, unit),
          (id) => repoLabels.get(id)!,
        );
      }
      const rowCheck = async <R extends { id: number; repoId: number }>(
        name: string,
        rows: R[],
        where: object,
        unitOf: (row: R) => ContentUnit,
        find: (where: object) => Promise<Array<{ id: number }>>,
      ) => {
        const byId = new Map(rows.map((row) => [row.id, row]));
        const sql = await ids(find({ AND: [inRepos, where] }));
        found[name] = disagreements(
          [...byId.keys()],
          sql,
          (id) => sees(byId.get(id)!.repoId, unitOf(byId.get(id)!)),
          (id) => `${repoLabels.get(byId.get(id)!.repoId)} ${name} ${JSON.stringify(unitOf(byId.get(id)!))}`,
        );
      };
      await rowCheck(
        'issues',
        issueRows,
        visibleIssuesWhere(reader),
        (row) => unitOfIssue(row.isPull),
        (where) => prisma.issue.findMany({ where: where as Prisma.IssueWhereInput, select: { id: true } }),
      );
      await rowCheck(
        'feed entries',
        actionRows,
        visibleActionsWhere(reader),
        (row) => unitOfActivity(row.opType),
        (where) => prisma.action.findMany({ where: where as Prisma.ActionWhereInput, select: { id: true } }),
      );
      await rowCheck(
        'threads',
        threadRows,
        visibleNotificationsWhere(reader),
        (row) => unitOfNotificationSource(row.source),
        (where) =>
          prisma.notification.findMany({ where: where as Prisma.NotificationWhereInput, select: { id: true } }),
      );
      expect({ publicOnly, found }).toEqual({
        publicOnly,
        found: Object.fromEntries(Object.keys(found).map((key) => [key, []])),
      });

      // Facts only ever add access (RepoPermissionService.usersWhoSee asks them only for whom the repository's own
      // access does not suffice): whoever sees a unit without them sees it with them.
      for (const repo of repos) {
        const bare = repoPermission(viewer, repoFactsOf(repo), NO_FACTS);
        const withFacts = permissions.get(repo.id) as RepoPermission;
        const lost = UNITS.filter((unit) => canSeeContent(bare, unit) && !canSeeContent(withFacts, unit));
        expect({ repo: repoLabels.get(repo.id), lost }).toEqual({ repo: repoLabels.get(repo.id), lost: [] });
      }

      // The matrix is not trivial: for signed-in viewers some repository shows itself but not its issues, and
      // one shows its pull requests but not its issues.
      if (kind === 'plain' || kind === 'restricted') {
        expect(repoIds.some((id) => sees(id, 'repository') && !sees(id, issues))).toBe(true);
        expect(repoIds.some((id) => sees(id, pulls) && !sees(id, issues))).toBe(true);
        expect(repoIds.some((id) => sees(id, issues))).toBe(true);
      }
    }
  });
});
