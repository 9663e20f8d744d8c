// The prepared statements every repository request reads through answer exactly what Prisma answers: the repository
// with its owner and units, its release count, and a viewer's collaboration, membership and teams; and those an issue
// event reads of its audience.
import { IssueAudienceRepository } from '../../src/db/issue-audience.repository.ts';
import { CommentType } from '../../src/db/issue.repository.ts';
import { RepoAccessRepository } from '../../src/db/repo-access.repository.ts';
import { repoInclude } from '../../src/db/repository-rows.repository.ts';
import {
  addTestOrgMember,
  createTestOrg,
  createTestUser,
  memberOfTeam,
  type TestUser,
  uniqueName,
} from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
});

afterAll(async () => t.close());

/** Units in one order: neither lookup promises one. */
function byUnitType<T extends { units: Array<{ type: number }> } | null>(repo: T): T {
  return repo && { ...repo, units: [...repo.units].sort((a, b) => a.type - b.type) };
}

async function makeRepo(ownerName: string, auth: string, path: string, body: Record<string, unknown>) {
  const name = uniqueName('repo');
  await t
    .request()
    .post(path)
    .set('Authorization', auth)
    .send({ name, ...body })
    .expect(201);
  return (await t.context.db.prisma.repository.findFirstOrThrow({ where: { ownerName, name } })).id;
}

it('reads a repository with its owner and units as Prisma does, by name, in its owner, by id and by ids', async () => {
  const org = await createTestOrg(t, owner.user);
  const orgRepoId = await makeRepo(org.name, owner.auth, `/api/v1/orgs/${org.name}/repos`, { auto_init: true });
  const userRepoId = await makeRepo(owner.user.name, owner.auth, '/api/v1/user/repos', { private: true });
  const { prisma, hot } = t.context.db;
  await prisma.repository.update({ where: { id: userRepoId }, data: { archivedAt: new Date(), isArchived: true } });
  await prisma.release.createMany({
    data: [
      { repoId: orgRepoId, tagName: 'v1' },
      { repoId: orgRepoId, tagName: 'v2' },
    ],
  });

  for (const id of [orgRepoId, userRepoId]) {
    const expected = await prisma.repository.findUniqueOrThrow({ where: { id }, include: repoInclude });
    expect(byUnitType(await hot.repositoryById(id))).toEqual(byUnitType(expected));
    expect(byUnitType(await hot.repositoryInOwner(expected.ownerId, expected.lowerName))).toEqual(byUnitType(expected));
    const { owner: knownOwner } = expected;
    expect(byUnitType(await hot.repositoryInOwner(expected.ownerId, expected.lowerName, knownOwner))).toEqual(
      byUnitType(expected),
    );
    expect(byUnitType(await hot.repositoryByOwnerAndName(expected.owner.lowerName, expected.lowerName))).toEqual(
      byUnitType(expected),
    );
    const hotRepo = await hot.repositoryById(id);
    expect(typeof hotRepo?.size).toBe('bigint');
    expect(hotRepo?.createdAt).toBeInstanceOf(Date);
  }
  // Two repositories of the org: its columns come on one of their rows only, and both get it.
  const secondOrgRepoId = await makeRepo(org.name, owner.auth, `/api/v1/orgs/${org.name}/repos`, {});
  const together = await hot.repositoriesByIds([userRepoId, 987654, secondOrgRepoId, orgRepoId]);
  const expectedTogether = await prisma.repository.findMany({
    where: { id: { in: [orgRepoId, userRepoId, secondOrgRepoId] } },
    include: repoInclude,
  });
  expect(together.map(byUnitType).sort((a, b) => a.id - b.id)).toEqual(
    expectedTogether.map(byUnitType).sort((a, b) => a.id - b.id),
  );
  expect(await hot.repositoriesByIds([])).toEqual([]);
  expect(await hot.releaseCount(orgRepoId)).toBe(2);
  expect(await hot.releaseCount(userRepoId)).toBe(0);
  expect(await hot.repositoryById(987654)).toBeNull();
  expect(await hot.repositoryByOwnerAndName(org.lowerName, 'no-such-repository')).toBeNull();
  expect(await hot.repositoryByOwnerAndName('no-such-owner', 'x')).toBeNull();
  await t.request().get(`/api/v1/repos/${org.name}/no-such-repository`).set('Authorization', owner.auth).expect(404);
});

it("reads a viewer's collaboration, membership, teams and team unit modes as Prisma does", async () => {
  const org = await createTestOrg(t, owner.user);
  const repoName = uniqueName('repo');
  await t.request().post(`/api/v1/orgs/${org.name}/repos`).set('Authorization', owner.auth).send({ name: repoName });
  const repo = await t.context.db.prisma.repository.findFirstOrThrow({ where: { ownerId: org.id } });
  const collaborator = await createTestUser(t);
  const member = await createTestUser(t);
  const outsider = await createTestUser(t);
  await t
    .request()
    .put(`/api/v1/repos/${org.name}/${repoName}/collaborators/${collaborator.user.name}`)
    .set('Authorization', owner.auth)
    .send({ permission: 'admin' })
    .expect(204);
  await addTestOrgMember(t, org, member.user, { accessMode: 2 });
  const teamId = await memberOfTeam(t, org, owner, member.user, { permission: 'read', units: ['repo.code'] }, repoName);
  const { prisma, hot } = t.context.db;

  expect(await hot.collaboration(collaborator.user.id, repo.id)).toBe(3);
  expect(await hot.collaboration(member.user.id, repo.id)).toBeNull();
  expect(await hot.isOrgMember(member.user.id, org.id)).toBe(true);
  expect(await hot.isOrgMember(outsider.user.id, org.id)).toBe(false);
  // The lists of them, over several repositories and orgs (a page of notifications asks so), as Prisma answers.
  const otherOrg = await createTestOrg(t, owner.user);
  const otherRepoId = await makeRepo(otherOrg.name, owner.auth, `/api/v1/orgs/${otherOrg.name}/repos`, {});
  await t
    .request()
    .put(
      `/api/v1/repos/${otherOrg.name}/${(await prisma.repository.findUniqueOrThrow({ where: { id: otherRepoId } })).name}/collaborators/${collaborator.user.name}`,
    )
    .set('Authorization', owner.auth)
    .send({ permission: 'read' })
    .expect(204);
  for (const user of [member, collaborator, outsider, owner]) {
    const repoIds = [repo.id, otherRepoId, 999_999];
    const collaborations = await prisma.collaboration.findMany({
      where: { userId: user.user.id, repoId: { in: repoIds } },
      select: { repoId: true, accessMode: true },
    });
    const byRepo = (rows: Array<{ repoId: number }>) => [...rows].sort((a, b) => a.repoId - b.repoId);
    expect(byRepo(await hot.collaborations(user.user.id, repoIds))).toEqual(byRepo(collaborations));
    const orgIds = [org.id, otherOrg.id, 999_999];
    const memberships = await prisma.orgUser.findMany({
      where: { userId: user.user.id, orgId: { in: orgIds } },
      select: { orgId: true },
    });
    expect([...(await hot.memberOrgIds(user.user.id, orgIds))].sort()).toEqual(memberships.map((m) => m.orgId).sort());
  }
  expect(await hot.collaborations(collaborator.user.id, [repo.id, otherRepoId])).toHaveLength(2);
  expect(await hot.memberOrgIds(owner.user.id, [org.id, otherOrg.id])).toHaveLength(2);
  for (const user of [member, collaborator, outsider, owner]) {
    const expected = await prisma.team.findMany({
      where: { orgId: org.id, members: { some: { userId: user.user.id } } },
      select: { id: true, orgId: true, accessMode: true, includesAllRepositories: true },
    });
    const teams = await hot.memberTeams(user.user.id, org.id);
    expect([...teams].sort((a, b) => a.id - b.id)).toEqual(expected.sort((a, b) => a.id - b.id));
  }
  expect((await hot.memberTeams(member.user.id, org.id)).map((team) => team.id)).toContain(teamId);
  for (const unitType of [1, 9]) {
    const expected = await prisma.team.findMany({
      where: { orgId: org.id, members: { some: { userId: member.user.id } } },
      select: { accessMode: true, units: { where: { type: unitType }, select: { accessMode: true } } },
    });
    const modes = await hot.memberTeamUnitModes(member.user.id, org.id, unitType);
    const sorted = (rows: Array<{ accessMode: number; unitMode: number }>) =>
      [...rows].sort((a, b) => a.accessMode - b.accessMode || a.unitMode - b.unitMode);
    expect(sorted(modes)).toEqual(
      sorted(expected.map((team) => ({ accessMode: team.accessMode, unitMode: team.units[0]?.accessMode ?? 0 }))),
    );
  }
  // A viewer's facts on the repository in one statement, as the Prisma reads apart answer them.
  const fromPrisma = new RepoAccessRepository(prisma);
  const fromHot = new RepoAccessRepository(prisma, hot);
  const inOrder = (facts: Awaited<ReturnType<RepoAccessRepository['factsOnOrgRepository']>>) => ({
    ...facts,
    teams: facts.teams
      .map((team) => ({
        ...team,
        units: team.units.map(({ type, accessMode }) => ({ type, accessMode })).sort((a, b) => a.type - b.type),
        repos: team.repos.map(({ repoId }) => ({ repoId })),
      }))
      .sort((a, b) => a.id - b.id),
  });
  for (const user of [member, collaborator, outsider, owner]) {
    const expected = inOrder(await fromPrisma.factsOnOrgRepository(user.user.id, repo.id, org.id));
    expect(inOrder(await fromHot.factsOnOrgRepository(user.user.id, repo.id, org.id))).toEqual(expected);
  }
  // And the repository read by name with the viewer's facts on it, in one statement: both as read apart.
  const orgRow = await prisma.user.findUniqueOrThrow({ where: { id: org.id } });
  const expectedRepo = byUnitType(
    await prisma.repository.findUniqueOrThrow({ where: { id: repo.id }, include: repoInclude }),
  );
  for (const user of [member, collaborator, outsider, owner]) {
    for (const access of [fromHot, fromPrisma]) {
      const found = await access.repositoryInOrgWithFacts(orgRow, repo.lowerName, user.user.id);
      expect(byUnitType(found!.repo)).toEqual(expectedRepo);
      expect(inOrder(found!.facts)).toEqual(
        inOrder(await fromPrisma.factsOnOrgRepository(user.user.id, repo.id, org.id)),
      );
    }
  }
  expect(await fromHot.repositoryInOrgWithFacts(orgRow, 'no-such-repository', member.user.id)).toBeNull();
  // By id too; a user's repository gives its collaborators their collaboration and nothing of orgs.
  const userRepoName = uniqueName('repo');
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name: userRepoName, private: true })
    .expect(201);
  await t
    .request()
    .put(`/api/v1/repos/${owner.user.name}/${userRepoName}/collaborators/${collaborator.user.name}`)
    .set('Authorization', owner.auth)
    .send({ permission: 'write' })
    .expect(204);
  const userRepo = await prisma.repository.findFirstOrThrow({ where: { ownerId: owner.user.id, name: userRepoName } });
  for (const user of [member, collaborator, outsider, owner]) {
    for (const access of [fromHot, fromPrisma]) {
      const found = await access.repositoryByIdWithFacts(repo.id, user.user.id);
      expect(byUnitType(found!.repo)).toEqual(expectedRepo);
      expect(inOrder(found!.facts)).toEqual(
        inOrder(await fromPrisma.factsOnOrgRepository(user.user.id, repo.id, org.id)),
      );
      const ofUser = await access.repositoryByIdWithFacts(userRepo.id, user.user.id);
      expect(ofUser!.repo.id).toBe(userRepo.id);
      expect(ofUser!.facts).toEqual({
        collaborations: await fromPrisma.listCollaborations(user.user.id, [userRepo.id]),
        orgIds: [],
        teams: [],
      });
    }
  }
  expect((await fromHot.repositoryByIdWithFacts(userRepo.id, collaborator.user.id))!.facts.collaborations).toEqual([
    { repoId: userRepo.id, accessMode: 2 },
  ]);
  expect(await fromHot.repositoryByIdWithFacts(987654, member.user.id)).toBeNull();
  // By ids, as a page of notifications reads them: each repository as by id, an unknown id left out.
  for (const user of [member, collaborator, outsider, owner]) {
    const byId = (found: Awaited<ReturnType<RepoAccessRepository['repositoriesByIdsWithFacts']>>) =>
      found
        .map(({ repo, facts }) => ({ repo: byUnitType(repo), facts: inOrder(facts) }))
        .sort((a, b) => a.repo.id - b.repo.id);
    const ids = [repo.id, userRepo.id, 987654];
    const expected = byId(await fromPrisma.repositoriesByIdsWithFacts(ids, user.user.id));
    expect(expected.map((found) => found.repo.id)).toEqual([repo.id, userRepo.id].sort((a, b) => a - b));
    expect(byId(await fromHot.repositoriesByIdsWithFacts(ids, user.user.id))).toEqual(expected);
  }
  const memberFacts = await fromHot.factsOnOrgRepository(member.user.id, repo.id, org.id);
  expect(memberFacts.teams.find((team) => team.id === teamId)).toMatchObject({
    units: [{ type: 1, accessMode: 1 }],
    repos: [{ repoId: repo.id }],
  });
  expect((await fromHot.factsOnOrgRepository(collaborator.user.id, repo.id, org.id)).collaborations).toEqual([
    { repoId: repo.id, accessMode: 3 },
  ]);
  await prisma.userBlocking.create({ data: { blockerId: owner.user.id, blockeeId: outsider.user.id } });
  expect(await hot.blocks(owner.user.id, outsider.user.id)).toBe(true);
  expect(await hot.blocks(outsider.user.id, owner.user.id)).toBe(false);
  // The code unit is granted by the read team, the packages unit (9) by neither.
  expect((await hot.memberTeamUnitModes(member.user.id, org.id, 1)).some((team) => team.unitMode === 1)).toBe(true);
  expect((await hot.memberTeams(owner.user.id, org.id))[0].includesAllRepositories).toBe(true);
});

it("reads an issue event's audience and the users who do not block its actor as Prisma does", async () => {
  const repoName = uniqueName('repo');
  await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name: repoName }).expect(201);
  const path = `/api/v1/repos/${owner.user.name}/${repoName}`;
  const [commenter, watcher, unwatcher, blocker] = await Promise.all([1, 2, 3, 4].map(() => createTestUser(t)));
  const issue = await t
    .request()
    .post(`${path}/issues`)
    .set('Authorization', owner.auth)
    .send({ title: 'audience' })
    .expect(201);
  const number = issue.body.number as number;
  for (const user of [commenter, commenter, blocker]) {
    await t.request().post(`${path}/issues/${number}/comments`).set('Authorization', user.auth).send({ body: 'hi' });
  }
  await t.request().put(`${path}/subscription`).set('Authorization', watcher.auth).expect(200);
  const { prisma, hot } = t.context.db;
  await prisma.userBlocking.create({ data: { blockerId: blocker.user.id, blockeeId: commenter.user.id } });
  await prisma.issueWatch.createMany({
    data: [
      { issueId: issue.body.id as number, userId: watcher.user.id, isWatching: true },
      { issueId: issue.body.id as number, userId: unwatcher.user.id, isWatching: false },
    ],
  });
  // A record of another type (a close) does not make its poster a participant.
  await prisma.comment.create({
    data: { issueId: issue.body.id as number, posterId: watcher.user.id, type: CommentType.close },
  });
  const row = await prisma.issue.findFirstOrThrow({ where: { id: issue.body.id as number } });
  const fromPrisma = new IssueAudienceRepository(prisma);
  const fromHot = new IssueAudienceRepository(prisma, hot);

  const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
  const inOrder = (audience: Awaited<ReturnType<IssueAudienceRepository['issueAudience']>>) => ({
    watches: [...audience.watches].sort((a, b) => a.userId - b.userId),
    repoWatcherIds: sorted(audience.repoWatcherIds),
    participantIds: sorted(audience.participantIds),
  });
  const expected = inOrder(await fromPrisma.issueAudience(row));
  expect(inOrder(await fromHot.issueAudience(row))).toEqual(expected);
  expect(expected.watches).toEqual(
    expect.arrayContaining([
      { userId: watcher.user.id, isWatching: true },
      { userId: unwatcher.user.id, isWatching: false },
    ]),
  );
  expect(expected.repoWatcherIds).toEqual(sorted([owner.user.id, watcher.user.id]));
  expect(expected.participantIds).toEqual(sorted([owner.user.id, commenter.user.id, blocker.user.id]));

  const everyone = [owner, commenter, watcher, unwatcher, blocker].map((user) => user.user.id);
  const ids = (users: Array<{ id: number }>) => sorted(users.map((user) => user.id));
  const notBlocking = ids(await fromPrisma.usersNotBlocking(commenter.user.id, everyone));
  expect(ids(await fromHot.usersNotBlocking(commenter.user.id, everyone))).toEqual(notBlocking);
  expect(notBlocking).toEqual(sorted(everyone.filter((id) => id !== blocker.user.id)));
  expect(await fromHot.usersNotBlocking(commenter.user.id, [])).toEqual([]);
});
