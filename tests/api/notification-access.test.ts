// Notification threads follow the reader's access now, not when the thread was made: a member who leaves the team,
// a team that loses a unit, a watcher of a repository made private and a public-only token see none of the hidden
// threads in the list, its X-Total-Count, /notifications/new, the thread routes, the marks or the repository list.
import type { User } from '../../src/db/prisma.ts';
import { NotificationSource, NotificationStatus } from '../../src/domain/notification.ts';
import { createTestOrg, createTestUser, createToken, memberOfTeam, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let org: User;
let secretId: number;

interface Thread {
  id: number;
  subject: { title: string };
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
  const repo = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'secret', private: true })
    .expect(201);
  secretId = repo.body.id;
});
afterAll(() => t.close());

const orgRepo = () => `/api/v1/repos/${org.name}/secret`;

/** A team of the organization with these units, holding the private repository, with `member` in it. */
function teamWith(member: TestUser, unitsMap: Record<string, string>): Promise<number> {
  return memberOfTeam(t, org, owner, member.user, { permission: 'read', units_map: unitsMap }, 'secret');
}

async function listed(auth: string, path = '/api/v1/notifications?all=true') {
  const res = await t.request().get(path).set('Authorization', auth).expect(200);
  return {
    titles: res.body.map((thread: Thread) => thread.subject.title),
    total: res.headers['x-total-count'],
    threads: res.body as Thread[],
  };
}

async function unreadCount(auth: string): Promise<number> {
  return (await t.request().get('/api/v1/notifications/new').set('Authorization', auth).expect(200)).body.new;
}

/** A pull request thread for `user` (pull requests need git branches; the thread is what matters here). */
async function pullThread(user: User, repoId: number, title: string): Promise<void> {
  const { prisma } = t.context.db;
  const issue = await prisma.issue.create({
    data: { repoId, index: 1000 + user.id, posterId: owner.user.id, title, isPull: true },
  });
  await prisma.pullRequest.create({
    data: { issueId: issue.id, baseRepoId: repoId, headRepoId: repoId, headBranch: 'topic', baseBranch: 'main' },
  });
  await prisma.notification.create({
    data: {
      userId: user.id,
      repoId,
      issueId: issue.id,
      source: NotificationSource.pull,
      status: NotificationStatus.unread,
      updatedBy: owner.user.id,
    },
  });
}

describe('notification threads follow current access', () => {
  it('hides every thread of the repository from a member removed from the team that gave access', async () => {
    const leaver = await createTestUser(t);
    const teamId = await teamWith(leaver, { 'repo.code': 'read', 'repo.issues': 'read' });
    await t.request().put(`${orgRepo()}/subscription`).set('Authorization', leaver.auth).expect(200);
    await t
      .request()
      .post(`${orgRepo()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'team matter' })
      .expect(201);
    const before = await listed(leaver.auth);
    expect(before.titles).toEqual(['team matter']);
    expect(await unreadCount(leaver.auth)).toBe(1);
    const [thread] = before.threads;

    await t
      .request()
      .delete(`/api/v1/teams/${teamId}/members/${leaver.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect(await listed(leaver.auth)).toMatchObject({ titles: [], total: '0' });
    expect(await unreadCount(leaver.auth)).toBe(0);
    await t.request().get(`/api/v1/notifications/threads/${thread.id}`).set('Authorization', leaver.auth).expect(404);
    await t.request().patch(`/api/v1/notifications/threads/${thread.id}`).set('Authorization', leaver.auth).expect(404);
    // The mark answers the threads it changed: none of them, so no title leaks there either.
    const marked = await t.request().put('/api/v1/notifications').set('Authorization', leaver.auth).expect(205);
    expect(marked.body).toEqual([]);
    // The thread is kept: it shows again once access comes back.
    await t
      .request()
      .put(`/api/v1/teams/${teamId}/members/${leaver.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect((await listed(leaver.auth)).titles).toEqual(['team matter']);
  });

  it('hides the threads of a unit the team no longer grants, in the lists, counts and the repository list', async () => {
    const member = await createTestUser(t);
    const teamId = await teamWith(member, { 'repo.code': 'read', 'repo.issues': 'read', 'repo.pulls': 'read' });
    await t.request().put(`${orgRepo()}/subscription`).set('Authorization', member.auth).expect(200);
    await t
      .request()
      .post(`${orgRepo()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'an issue' })
      .expect(201);
    await pullThread(member.user, secretId, 'a pull');
    expect((await listed(member.auth)).titles.sort()).toEqual(['a pull', 'an issue']);
    const issueThread = (await listed(member.auth)).threads.find((thread) => thread.subject.title === 'an issue')!;

    await t
      .request()
      .patch(`/api/v1/teams/${teamId}`)
      .set('Authorization', owner.auth)
      .send({ name: `t${member.user.id}`, units_map: { 'repo.code': 'read', 'repo.pulls': 'read' } })
      .expect(200);
    expect(await listed(member.auth)).toMatchObject({ titles: ['a pull'], total: '1' });
    expect(await listed(member.auth, `${orgRepo()}/notifications?all=true`)).toMatchObject({
      titles: ['a pull'],
      total: '1',
    });
    expect(await unreadCount(member.auth)).toBe(1);
    await t
      .request()
      .get(`/api/v1/notifications/threads/${issueThread.id}`)
      .set('Authorization', member.auth)
      .expect(404);
    const page = await t
      .request()
      .get('/api/v1/notifications?all=true&limit=1&page=2')
      .set('Authorization', member.auth)
      .expect(200);
    expect(page.body).toEqual([]);
  });

  it('hides the threads of a watched repository once it is made private', async () => {
    const watcher = await createTestUser(t);
    await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name: 'opened' }).expect(201);
    const repo = `/api/v1/repos/${owner.user.name}/opened`;
    await t.request().put(`${repo}/subscription`).set('Authorization', watcher.auth).expect(200);
    await t
      .request()
      .post(`${repo}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'public talk' })
      .expect(201);
    expect((await listed(watcher.auth)).titles).toEqual(['public talk']);
    await t.request().patch(repo).set('Authorization', owner.auth).send({ private: true }).expect(200);
    expect(await listed(watcher.auth)).toMatchObject({ titles: [], total: '0' });
    expect(await unreadCount(watcher.auth)).toBe(0);
  });

  it('shows a public-only token no thread of a private repository', async () => {
    const collaborator = await createTestUser(t);
    const made = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name: 'mine', private: true })
      .expect(201);
    const repo = `/api/v1/repos/${owner.user.name}/mine`;
    await t.context.db.prisma.collaboration.create({
      data: { repoId: made.body.id, userId: collaborator.user.id, accessMode: 2 },
    });
    await t
      .request()
      .post(`${repo}/issues`)
      .set('Authorization', collaborator.auth)
      .send({ title: 'private report' })
      .expect(201);
    const full = await listed(owner.auth);
    expect(full.titles).toContain('private report');
    const thread = full.threads.find((th) => th.subject.title === 'private report')!;

    const publicOnly = `token ${await createToken(t, owner.user, 'public-only,read:notification,write:notification')}`;
    expect((await listed(publicOnly)).titles).not.toContain('private report');
    expect(await unreadCount(publicOnly)).toBe((await unreadCount(owner.auth)) - 1);
    await t.request().get(`/api/v1/notifications/threads/${thread.id}`).set('Authorization', publicOnly).expect(404);
  });

  it('pages around hidden threads from either end: every page, and X-Total-Count, count only the visible ones', async () => {
    const reader = await createTestUser(t);
    const open = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name: 'open-paging' })
      .expect(201);
    const { prisma } = t.context.db;
    // Newest first: visible and hidden threads alternate, so every page of candidates holds hidden ones.
    const titles = ['v1', 'h1', 'v2', 'h2', 'v3', 'h3', 'v4', 'v5'];
    for (const [i, title] of titles.entries()) {
      const repoId = title.startsWith('v') ? open.body.id : secretId;
      const issue = await prisma.issue.create({
        data: { repoId, index: 2000 + reader.user.id * 10 + i, posterId: owner.user.id, title },
      });
      const at = new Date(Date.UTC(2030, 0, 1) - i * 60_000);
      await prisma.notification.create({
        data: { userId: reader.user.id, repoId, issueId: issue.id, source: NotificationSource.issue, updatedAt: at },
      });
    }
    const visible = titles.filter((title) => title.startsWith('v'));
    for (const limit of [1, 2, 3]) {
      const pages: string[] = [];
      for (let page = 1; page <= Math.ceil(visible.length / limit); page++) {
        const res = await listed(reader.auth, `/api/v1/notifications?all=true&limit=${limit}&page=${page}`);
        expect(res.total).toBe(String(visible.length));
        pages.push(...res.titles);
      }
      expect(pages).toEqual(visible);
    }
  });
});
