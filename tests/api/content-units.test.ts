// Issue search and the organization and team feeds show issues only to readers of the repo.issues unit and pull
// requests only to readers of repo.pulls: members of an organization whose team holds the private repository but
// grants only some units find and see only those units' content, with X-Total-Count to match.
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let org: User;
const members = {} as Record<'codeOnly' | 'issues' | 'pulls', TestUser>;
const teamIds = {} as Record<keyof typeof members, number>;

const UNITS: Record<keyof typeof members, Record<string, string>> = {
  codeOnly: { 'repo.code': 'read' },
  issues: { 'repo.code': 'read', 'repo.issues': 'read' },
  pulls: { 'repo.code': 'read', 'repo.pulls': 'read' },
};

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
  const made = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'work', private: true })
    .expect(201);
  const repo = { id: made.body.id as number, ownerId: org.id, isPrivate: true };
  for (const kind of Object.keys(UNITS) as Array<keyof typeof members>) {
    members[kind] = await createTestUser(t);
    const team = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/teams`)
      .set('Authorization', owner.auth)
      .send({ name: kind, permission: 'read', units_map: UNITS[kind] })
      .expect(201);
    teamIds[kind] = team.body.id;
    await t
      .request()
      .put(`/api/v1/teams/${team.body.id}/repos/${org.name}/work`)
      .set('Authorization', owner.auth)
      .expect(204);
    await t
      .request()
      .put(`/api/v1/teams/${team.body.id}/members/${members[kind].user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
  }
  await t
    .request()
    .post(`/api/v1/repos/${org.name}/work/issues`)
    .set('Authorization', owner.auth)
    .send({ title: 'work issue' })
    .expect(201);
  // A pull request needs git branches; its rows and its feed entry are what matter here.
  const { prisma } = t.context.db;
  const pull = await prisma.issue.create({
    data: { repoId: repo.id, index: 100, posterId: owner.user.id, title: 'work pull', isPull: true },
  });
  await prisma.pullRequest.create({
    data: { issueId: pull.id, baseRepoId: repo.id, headRepoId: repo.id, headBranch: 'topic', baseBranch: 'main' },
  });
  await t.context.services.activity.record({
    op: 'create_pull_request',
    actorId: owner.user.id,
    repo,
    content: '100|work pull',
  });
  await t.context.services.activity.record({
    op: 'commit_repo',
    actorId: owner.user.id,
    repo,
    refName: 'refs/heads/main',
  });
});
afterAll(() => t.close());

async function searchTitles(who: TestUser, query = '') {
  const res = await t
    .request()
    .get(`/api/v1/repos/issues/search?state=all${query}`)
    .set('Authorization', who.auth)
    .expect(200);
  return {
    titles: res.body.map((issue: { title: string }) => issue.title).sort(),
    total: res.headers['x-total-count'],
  };
}

async function feedOps(who: TestUser, path: string) {
  const res = await t.request().get(path).set('Authorization', who.auth).expect(200);
  return {
    ops: res.body.map((entry: { op_type: string }) => entry.op_type).sort(),
    total: res.headers['x-total-count'],
  };
}

describe('GET /repos/issues/search by unit', () => {
  it.each([
    ['no issues nor pulls unit', 'codeOnly', []],
    ['the issues unit', 'issues', ['work issue']],
    ['the pulls unit', 'pulls', ['work pull']],
  ] as const)('finds for a member whose team grants %s only what that unit shows', async (_case, kind, expected) => {
    expect(await searchTitles(members[kind])).toEqual({ titles: expected, total: String(expected.length) });
  });

  it('keeps the owner finding both, and type= and q= within what the unit shows', async () => {
    expect((await searchTitles(owner)).titles).toEqual(['work issue', 'work pull']);
    expect(await searchTitles(members.issues, '&type=pulls')).toEqual({ titles: [], total: '0' });
    expect(await searchTitles(members.pulls, '&q=work')).toEqual({ titles: ['work pull'], total: '1' });
  });
});

describe('activity feeds by unit', () => {
  const orgFeed = () => `/api/v1/orgs/${org.name}/activities/feeds`;

  it.each([
    ['codeOnly', ['commit_repo', 'create_repo']],
    ['issues', ['commit_repo', 'create_issue', 'create_repo']],
    ['pulls', ['commit_repo', 'create_pull_request', 'create_repo']],
  ] as const)(
    'shows a %s member of the organization only the entries of units its team grants',
    async (kind, expected) => {
      expect(await feedOps(members[kind], orgFeed())).toEqual({ ops: expected, total: String(expected.length) });
    },
  );

  it('applies the same rule to team feeds, and leaves the owner every entry', async () => {
    expect(await feedOps(members.codeOnly, `/api/v1/teams/${teamIds.codeOnly}/activities/feeds`)).toEqual({
      ops: ['commit_repo', 'create_repo'],
      total: '2',
    });
    expect(await feedOps(members.issues, `/api/v1/teams/${teamIds.issues}/activities/feeds`)).toEqual({
      ops: ['commit_repo', 'create_issue', 'create_repo'],
      total: '3',
    });
    expect((await feedOps(owner, orgFeed())).ops).toEqual([
      'commit_repo',
      'create_issue',
      'create_pull_request',
      'create_repo',
    ]);
  });
});
