// The prepared statements a notification poll reads through answer exactly what Prisma answers: a page of threads
// under each filter, in both directions, their count per repository and source, and the issues, pulls and last
// comments the page shows.
import type { ThreadColumns } from '../../src/db/hot-content-queries.ts';
import type { Prisma } from '../../src/db/prisma.ts';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let reader: TestUser;
const repoIds: number[] = [];
const issueIds: number[] = [];
const base = new Date('2026-03-01T10:00:00.000Z');
const minutes = (n: number) => new Date(base.getTime() + n * 60_000);

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  reader = await createTestUser(t);
  const { prisma } = t.context.db;
  for (let r = 0; r < 2; r++) {
    const name = uniqueName('repo');
    await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name }).expect(201);
    const repo = await prisma.repository.findFirstOrThrow({ where: { ownerName: owner.user.name, name } });
    repoIds.push(repo.id);
    for (let i = 1; i <= 4; i++) {
      const isPull = i % 2 === 0;
      const issue = await prisma.issue.create({
        data: {
          repoId: repo.id,
          index: i,
          posterId: owner.user.id,
          title: `issue ${i}`,
          isPull,
          isClosed: i === 3,
          closedAt: i === 3 ? minutes(i) : null,
        },
      });
      issueIds.push(issue.id);
      if (isPull)
        await prisma.pullRequest.create({
          data: {
            issueId: issue.id,
            baseRepoId: repo.id,
            headRepoId: repo.id,
            headBranch: `b${i}`,
            baseBranch: 'main',
            hasMerged: i === 4,
            mergedAt: i === 4 ? minutes(7) : null,
          },
        });
      // Plain comments and a close comment (type 2), which is never the last plain one.
      for (const type of i === 1 ? [] : [0, 0, 2])
        await prisma.comment.create({
          data: { issueId: issue.id, posterId: owner.user.id, type, content: `c${type}` },
        });
      await prisma.notification.create({
        data: {
          userId: reader.user.id,
          repoId: repo.id,
          issueId: issue.id,
          source: isPull ? 2 : 1,
          status: 1 + (i % 3),
          updatedBy: owner.user.id,
          // Two threads share an update time: the id orders them.
          updatedAt: minutes(r * 10 + Math.min(i, 3)),
        },
      });
    }
  }
});

afterAll(async () => t.close());

function prismaWhere(columns: ThreadColumns): Prisma.NotificationWhereInput {
  return {
    userId: columns.userId,
    repoId: columns.repoId,
    status: columns.statuses ? { in: [...columns.statuses] } : undefined,
    source: columns.sources ? { in: [...columns.sources] } : undefined,
    updatedAt: { gte: columns.updatedFrom, lte: columns.updatedTo },
  };
}

it('reads a page of threads and their groups as Prisma does, under every filter and in both directions', async () => {
  const { prisma, hot } = t.context.db;
  const userId = reader.user.id;
  const filters: ThreadColumns[] = [
    { userId },
    { userId, statuses: [1, 3] },
    { userId, sources: [2] },
    { userId, repoId: repoIds[1] },
    { userId, updatedFrom: minutes(2) },
    { userId, updatedFrom: minutes(2), updatedTo: minutes(11), statuses: [1, 2, 3] },
    { userId: owner.user.id },
  ];
  let seen = 0;
  for (const columns of filters) {
    for (const reversed of [false, true]) {
      const direction = reversed ? 'asc' : 'desc';
      for (const take of [1, 3, 50]) {
        const expected = await prisma.notification.findMany({
          where: prismaWhere(columns),
          orderBy: [{ updatedAt: direction }, { id: direction }],
          take,
        });
        expect({ columns, reversed, take, rows: await hot.threads(columns, reversed, take) }).toEqual({
          columns,
          reversed,
          take,
          rows: expected,
        });
        seen += expected.length;
      }
    }
    const groups = await prisma.notification.groupBy({
      by: ['repoId', 'source'],
      where: prismaWhere(columns),
      _count: { _all: true },
      orderBy: [{ repoId: 'asc' }, { source: 'asc' }],
    });
    expect(await hot.threadGroups(columns, 100)).toEqual(
      groups.map((group) => ({ repoId: group.repoId, source: group.source, count: group._count._all })),
    );
  }
  expect(seen).toBeGreaterThan(40);
  expect(await hot.threadGroups({ userId }, 1)).toHaveLength(1);
});

it('reads issues, pulls and last plain comments as Prisma does', async () => {
  const { prisma, hot } = t.context.db;
  const byId = <R extends { id: number }>(rows: R[]) => [...rows].sort((a, b) => a.id - b.id);
  const asked = [...issueIds, 987654];
  expect(byId(await hot.issuesByIds(asked))).toEqual(
    await prisma.issue.findMany({ where: { id: { in: asked } }, orderBy: { id: 'asc' } }),
  );
  const pulls = await prisma.pullRequest.findMany({ where: { issueId: { in: asked } }, orderBy: { id: 'asc' } });
  expect(pulls.some((pull) => pull.hasMerged && pull.mergedAt)).toBe(true);
  expect(byId(await hot.pullsOfIssues(asked))).toEqual(pulls);
  const last = byId(await hot.lastCommentsOf(asked, 0));
  expect(last).toHaveLength(issueIds.length - 2);
  for (const comment of last) {
    const newest = await prisma.comment.findFirstOrThrow({
      where: { issueId: comment.issueId, type: 0 },
      orderBy: { id: 'desc' },
    });
    expect(comment).toEqual(newest);
  }
  expect(await hot.issuesByIds([])).toEqual([]);
  // The three together, as one statement reads them on PostgreSQL.
  const records = await hot.issueRecords(asked, 0);
  expect({
    issues: byId(records.issues),
    pulls: byId(records.pulls),
    lastComments: byId(records.lastComments),
  }).toEqual({
    issues: byId(await hot.issuesByIds(asked)),
    pulls,
    lastComments: last,
  });
  for (const issue of await prisma.issue.findMany({ where: { id: { in: issueIds } } }))
    expect(await hot.issueByIndex(issue.repoId, issue.index)).toEqual(issue);
  expect(await hot.issueByIndex(repoIds[0], 99)).toBeNull();
});
