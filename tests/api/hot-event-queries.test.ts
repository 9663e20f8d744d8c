// The prepared statements asked before an event's transaction answer as the Prisma reads they stand for: whether an
// active hook reaches a repository (repository, owner and system hooks; inactive and default hooks do not), and
// whether a merge waits for an open pull request into it.
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  other = await createTestUser(t);
});

afterAll(async () => t.close());

async function makeRepo(user: TestUser): Promise<{ id: number; ownerId: number }> {
  const name = uniqueName('repo');
  await t.request().post('/api/v1/user/repos').set('Authorization', user.auth).send({ name }).expect(201);
  return t.context.db.prisma.repository.findFirstOrThrow({
    where: { ownerName: user.user.name, name },
    select: { id: true, ownerId: true },
  });
}

it('finds an active hook where listing the active hooks finds one', async () => {
  const { prisma, hot } = t.context.db;
  const { webhooks } = t.context.repos;
  const [mine, second, theirs] = [await makeRepo(owner), await makeRepo(owner), await makeRepo(other)];
  const agree = async (expected: [boolean, boolean, boolean]) => {
    const found: boolean[] = [];
    for (const repo of [mine, second, theirs]) {
      const source = { ownerId: repo.ownerId, repoId: repo.id };
      const listed = (await webhooks.listActiveFor(source)).length > 0;
      expect(await hot.activeHookExists(repo.ownerId, repo.id)).toBe(listed);
      expect(await webhooks.anyActiveFor(source)).toBe(listed);
      found.push(listed);
    }
    expect(found).toEqual(expected);
  };
  const hook = { type: 'forgejo', url: 'http://127.0.0.1:9/hook' };
  await agree([false, false, false]);
  // A default hook (copied into new repositories) and an inactive one reach nothing.
  await prisma.webhook.create({ data: { ...hook, isActive: true } });
  const repoHook = await prisma.webhook.create({ data: { ...hook, repoId: mine.id } });
  await agree([false, false, false]);
  await prisma.webhook.update({ where: { id: repoHook.id }, data: { isActive: true } });
  await agree([true, false, false]);
  const ownerHook = await prisma.webhook.create({ data: { ...hook, ownerId: owner.user.id, isActive: true } });
  await agree([true, true, false]);
  await prisma.webhook.deleteMany({ where: { id: { in: [repoHook.id, ownerHook.id] } } });
  await prisma.webhook.create({ data: { ...hook, isSystemWebhook: true, isActive: true } });
  await agree([true, true, true]);
  await prisma.webhook.deleteMany({});
});

it('finds a waiting merge where the pending schedules are', async () => {
  const { prisma, hot } = t.context.db;
  const { pullAutoMerges } = t.context.repos;
  const [mine, theirs] = [await makeRepo(owner), await makeRepo(other)];
  const agree = async (expected: [boolean, boolean]) => {
    const found: boolean[] = [];
    for (const repo of [mine, theirs]) {
      const pending = (await pullAutoMerges.pendingIn(repo.id)).length > 0;
      expect(await hot.pendingAutoMergeExists(repo.id)).toBe(pending);
      found.push(pending);
    }
    expect(found).toEqual(expected);
  };
  await agree([false, false]);
  const issue = await prisma.issue.create({
    data: { repoId: mine.id, index: 1, posterId: owner.user.id, title: 'pull', isPull: true },
  });
  const pull = await prisma.pullRequest.create({
    data: { issueId: issue.id, baseRepoId: mine.id, headRepoId: mine.id, headBranch: 'feature', baseBranch: 'main' },
  });
  await agree([false, false]);
  await prisma.pullAutoMerge.create({ data: { pullId: pull.id, doerId: owner.user.id, mergeStyle: 'merge' } });
  await agree([true, false]);
  await prisma.pullRequest.update({ where: { id: pull.id }, data: { hasMerged: true } });
  await agree([false, false]);
});
