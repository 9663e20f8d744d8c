// Who an issue event notifies, decided for all candidates at once: of the users a new issue in a private org
// repository mentions, only those who can read its issues get a thread — a team with the issues unit, a
// collaborator, a site admin — not a team member without the unit, an org member in no team, or an outsider. A
// comment then moves the watchers' threads to the top: a read one turns unread and points at the comment.
import { NotificationStatus } from '../../src/domain/notification.ts';
import { addTestOrgMember, createTestOrg, createTestUser, memberOfTeam, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
const users: Record<string, TestUser> = {};

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  const org = await createTestOrg(t, owner.user);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'private', private: true })
    .expect(201);
  for (const role of ['withIssues', 'withoutIssues', 'collaborator', 'admin', 'member', 'outsider'])
    users[role] = await createTestUser(t, { admin: role === 'admin' });
  await memberOfTeam(
    t,
    org,
    owner,
    users.withIssues.user,
    { permission: 'read', units_map: { 'repo.issues': 'read' } },
    'private',
  );
  await memberOfTeam(
    t,
    org,
    owner,
    users.withoutIssues.user,
    { permission: 'read', units_map: { 'repo.code': 'read' } },
    'private',
  );
  await t
    .request()
    .put(`/api/v1/repos/${org.name}/private/collaborators/${users.collaborator.user.name}`)
    .set('Authorization', owner.auth)
    .send({ permission: 'read' })
    .expect(204);
  await addTestOrgMember(t, org, users.member.user, { accessMode: 1 });
  // The level-1 team of addTestOrgMember holds no repository: the member is in the org and nothing more.
  await t.context.db.prisma.teamRepo.deleteMany({ where: { team: { orgId: org.id, lowerName: 'level1' } } });
  const mentions = Object.values(users)
    .map((user) => `@${user.user.name}`)
    .join(' ');
  const issue = await t
    .request()
    .post(`/api/v1/repos/${org.name}/private/issues`)
    .set('Authorization', owner.auth)
    .send({ title: 'who hears of this', body: `cc ${mentions}` })
    .expect(201);
  issueNumber = issue.body.number;
  issueId = issue.body.id;
  repoPath = `/api/v1/repos/${org.name}/private`;
});
afterAll(() => t.close());

let issueNumber: number;
let issueId: number;
let repoPath: string;

const threads = () => t.context.db.prisma.notification.findMany({ where: { issueId }, orderBy: { id: 'asc' } });
const roleOf = (userId: number) => Object.entries(users).find(([, user]) => user.user.id === userId)?.[0];

it('makes threads only for the mentioned users who can read the issue', async () => {
  const made = await threads();
  expect(made.map((thread) => roleOf(thread.userId)).sort()).toEqual(['admin', 'collaborator', 'withIssues']);
  expect(made.every((thread) => thread.status === NotificationStatus.unread)).toBe(true);
});

it('moves every thread on a comment to its watchers, turning a read one unread at the comment', async () => {
  for (const role of ['withIssues', 'collaborator', 'admin'])
    await t.request().put(`${repoPath}/subscription`).set('Authorization', users[role].auth).expect(200);
  const [first, ...rest] = await threads();
  await t.context.db.prisma.notification.update({ where: { id: first.id }, data: { status: NotificationStatus.read } });
  const comment = await t
    .request()
    .post(`${repoPath}/issues/${issueNumber}/comments`)
    .set('Authorization', owner.auth)
    .send({ body: 'a new build' })
    .expect(201);
  const after = new Map((await threads()).map((thread) => [thread.id, thread]));
  expect(after.size).toBe(3);
  expect(after.get(first.id)).toMatchObject({ status: NotificationStatus.unread, commentId: comment.body.id });
  for (const thread of rest) {
    expect(after.get(thread.id)!.status).toBe(NotificationStatus.unread);
    expect(after.get(thread.id)!.updatedAt.getTime()).toBeGreaterThan(thread.updatedAt.getTime());
    expect(after.get(thread.id)!.commentId).toBe(thread.commentId);
  }
  for (const thread of after.values()) expect(thread.updatedBy).toBe(owner.user.id);
});
