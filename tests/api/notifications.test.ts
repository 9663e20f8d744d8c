// Notification threads as Forgejo creates them (watchers, repository watchers, participants, assignees, mentions;
// minus the actor, unwatchers, blockers and users without read access; one thread per user and issue), and the
// notification API: lists with every filter, the 205 bodies of the marks, /new, and thread visibility.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let author: TestUser;
let watcher: TestUser;
let mentioned: TestUser;
let assignee: TestUser;
let blocker: TestUser;
let unwatcher: TestUser;
let bystander: TestUser;
let admin: TestUser;
let repoId: number;

interface Thread {
  id: number;
  unread: boolean;
  pinned: boolean;
  updated_at: string;
  url: string;
  subject: { title: string; type: string; state: string; url: string; html_url: string; latest_comment_url: string };
  repository: { full_name: string; permissions?: unknown };
}

const repoPath = () => `/api/v1/repos/${owner.user.name}/proj`;

beforeAll(async () => {
  t = await startTestApp();
  [owner, author, watcher, mentioned, assignee, blocker, unwatcher, bystander] = await Promise.all(
    Array.from({ length: 8 }, () => createTestUser(t)),
  );
  admin = await createTestUser(t, { admin: true });
  const res = await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name: 'proj' })
    .expect(201);
  repoId = res.body.id;
  await t.context.db.prisma.collaboration.create({ data: { repoId, userId: assignee.user.id, accessMode: 2 } });
  for (const user of [watcher, blocker, unwatcher]) {
    await t.request().put(`${repoPath()}/subscription`).set('Authorization', user.auth).expect(200);
  }
  await t.context.db.prisma.userBlocking.create({ data: { blockerId: blocker.user.id, blockeeId: author.user.id } });
});
afterAll(() => t.close());

async function threads(user: TestUser, query = ''): Promise<Thread[]> {
  return (await t.request().get(`/api/v1/notifications${query}`).set('Authorization', user.auth).expect(200)).body;
}

async function threadFor(user: TestUser, title: string): Promise<Thread | undefined> {
  return (await threads(user, '?all=true')).find((thread) => thread.subject.title === title);
}

async function openIssue(by: TestUser, title: string, extra: Record<string, unknown> = {}) {
  return (
    await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', by.auth)
      .send({ title, ...extra })
      .expect(201)
  ).body;
}

describe('who is notified', () => {
  let issue: { number: number; id: number };

  beforeAll(async () => {
    issue = await openIssue(author, 'rules', { body: `ping @${mentioned.user.name}` });
  });

  it('notifies repository watchers (the creator watches) and mentioned users, not the actor nor a blocker', async () => {
    expect(await threadFor(owner, 'rules')).toMatchObject({
      unread: true,
      pinned: false,
      subject: { type: 'Issue', state: 'open' },
    });
    expect(await threadFor(watcher, 'rules')).toBeDefined();
    expect(await threadFor(mentioned, 'rules')).toBeDefined();
    expect(await threadFor(author, 'rules')).toBeUndefined();
    expect(await threadFor(blocker, 'rules')).toBeUndefined();
    expect(await threadFor(bystander, 'rules')).toBeUndefined();
  });

  it('notifies assignees and participants; explicit unwatchers never', async () => {
    await t.context.db.prisma.issueWatch.create({
      data: { userId: unwatcher.user.id, issueId: issue.id, isWatching: false },
    });
    const old = (await threadFor(unwatcher, 'rules'))!;
    await t.request().patch(`/api/v1/notifications/threads/${old.id}`).set('Authorization', unwatcher.auth).expect(205);
    const assigned = await openIssue(owner, 'assigned', { assignees: [assignee.user.name] });
    expect(await threadFor(assignee, 'assigned')).toBeDefined();
    // bystander takes part by commenting; the next comment by someone else notifies them.
    await t
      .request()
      .post(`${repoPath()}/issues/${assigned.number}/comments`)
      .set('Authorization', bystander.auth)
      .send({ body: 'me too' })
      .expect(201);
    await t
      .request()
      .post(`${repoPath()}/issues/${assigned.number}/comments`)
      .set('Authorization', author.auth)
      .send({ body: 'noted' })
      .expect(201);
    expect(await threadFor(bystander, 'assigned')).toBeDefined();
    await t
      .request()
      .post(`${repoPath()}/issues/${issue.number}/comments`)
      .set('Authorization', author.auth)
      .send({ body: 'again' })
      .expect(201);
    // The thread from before the unwatch stays read: the new comment did not reach it.
    expect(await threadFor(unwatcher, 'rules')).toMatchObject({ id: old.id, unread: false });
    expect(await threadFor(watcher, 'rules')).toBeDefined();
  });

  it('a comment reaches the users it mentions, but no unwatcher of the issue and nobody who blocks its author', async () => {
    const title = 'mentions in a comment';
    const opened = await openIssue(author, title);
    await t.context.db.prisma.issueWatch.create({
      data: { userId: unwatcher.user.id, issueId: opened.id, isWatching: false },
    });
    const before = (await threadFor(unwatcher, title))!; // a repository watcher heard of the opening
    await t
      .request()
      .patch(`/api/v1/notifications/threads/${before.id}`)
      .set('Authorization', unwatcher.auth)
      .expect(205);
    await t
      .request()
      .post(`${repoPath()}/issues/${opened.number}/comments`)
      .set('Authorization', author.auth)
      .send({ body: `@${bystander.user.name} @${blocker.user.name} @${unwatcher.user.name} have a look` })
      .expect(201);
    expect(await threadFor(bystander, title)).toMatchObject({ unread: true });
    expect(await threadFor(watcher, title)).toMatchObject({ unread: true });
    expect(await threadFor(blocker, title)).toBeUndefined();
    expect(await threadFor(unwatcher, title)).toMatchObject({ id: before.id, unread: false });
  });

  it('keeps one thread per user and issue: updated, and turned unread again once read; pinned stays pinned', async () => {
    const first = (await threadFor(watcher, 'rules'))!;
    await t.request().patch(`/api/v1/notifications/threads/${first.id}`).set('Authorization', watcher.auth).expect(205);
    const pinned = (await threadFor(owner, 'rules'))!;
    await t
      .request()
      .patch(`/api/v1/notifications/threads/${pinned.id}?to-status=pinned`)
      .set('Authorization', owner.auth)
      .expect(205);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const comment = await t
      .request()
      .post(`${repoPath()}/issues/${issue.number}/comments`)
      .set('Authorization', author.auth)
      .send({ body: 'news' })
      .expect(201);
    const mine = (await threads(watcher, '?all=true')).filter((thread) => thread.subject.title === 'rules');
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      id: first.id,
      unread: true,
      subject: {
        latest_comment_url: `http://localhost:3000/api/v1/repos/${owner.user.name}/proj/issues/comments/${comment.body.id}`,
      },
    });
    expect(new Date(mine[0].updated_at).getTime()).toBeGreaterThan(new Date(first.updated_at).getTime());
    expect(await threadFor(owner, 'rules')).toMatchObject({ id: pinned.id, pinned: true, unread: false });
  });

  it('notifies on close and reopen, with the subject state', async () => {
    await t
      .request()
      .patch(`${repoPath()}/issues/${issue.number}`)
      .set('Authorization', owner.auth)
      .send({ state: 'closed' })
      .expect(201);
    expect(await threadFor(watcher, 'rules')).toMatchObject({ unread: true, subject: { state: 'closed' } });
  });

  it('skips users who cannot read the repository', async () => {
    const hidden = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name: 'secret', private: true })
      .expect(201);
    await t.context.db.prisma.watch.create({ data: { userId: bystander.user.id, repoId: hidden.body.id, mode: 1 } });
    await t
      .request()
      .post(`/api/v1/repos/${owner.user.name}/secret/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'private matter', body: `@${mentioned.user.name} look` })
      .expect(201);
    expect(await threadFor(bystander, 'private matter')).toBeUndefined();
    expect(await threadFor(mentioned, 'private matter')).toBeUndefined();
  });
});

describe('the notification API', () => {
  let reader: TestUser;

  beforeAll(async () => {
    reader = await createTestUser(t);
    await t.request().put(`${repoPath()}/subscription`).set('Authorization', reader.auth).expect(200);
    for (const title of ['n1', 'n2', 'n3']) await openIssue(author, title);
  });

  it('answers 401 to anonymous callers on every route', async () => {
    await t.request().get('/api/v1/notifications').expect(401);
    await t.request().put('/api/v1/notifications').expect(401);
    await t.request().get('/api/v1/notifications/new').expect(401);
    await t.request().get('/api/v1/notifications/threads/1').expect(401);
    await t.request().patch('/api/v1/notifications/threads/1').expect(401);
    await t.request().get(`${repoPath()}/notifications`).expect(401);
    await t.request().put(`${repoPath()}/notifications`).expect(401);
  });

  it('lists newest update first, paged with X-Total-Count, with the thread JSON', async () => {
    const res = await t.request().get('/api/v1/notifications?limit=2').set('Authorization', reader.auth).expect(200);
    expect(res.headers['x-total-count']).toBe('3');
    expect(res.body.map((thread: Thread) => thread.subject.title)).toEqual(['n3', 'n2']);
    const thread: Thread = res.body[0];
    expect(thread).toMatchObject({
      unread: true,
      pinned: false,
      url: `http://localhost:3000/api/v1/notifications/threads/${thread.id}`,
      subject: {
        type: 'Issue',
        state: 'open',
        latest_comment_url: '',
        url: expect.stringMatching(/\/api\/v1\/repos\/.*\/proj\/issues\/\d+$/),
        html_url: expect.stringMatching(/\/proj\/issues\/\d+$/),
      },
      repository: { full_name: `${owner.user.name}/proj` },
    });
    expect(thread.repository.permissions).toBeUndefined();
    const page2 = await t
      .request()
      .get('/api/v1/notifications?limit=2&page=2')
      .set('Authorization', reader.auth)
      .expect(200);
    expect(page2.body.map((th: Thread) => th.subject.title)).toEqual(['n1']);
  });

  it('filters by status-types, all, subject-type, since and before; a bad time is 422', async () => {
    const [n3] = await threads(reader);
    await t
      .request()
      .patch(`/api/v1/notifications/threads/${n3.id}?to-status=read`)
      .set('Authorization', reader.auth)
      .expect(205);
    expect((await threads(reader)).map((th) => th.subject.title)).toEqual(['n2', 'n1']);
    expect((await threads(reader, '?all=true')).map((th) => th.subject.title)).toEqual(['n3', 'n2', 'n1']);
    expect((await threads(reader, '?status-types=read')).map((th) => th.subject.title)).toEqual(['n3']);
    expect(await threads(reader, '?status-types=read&status-types=unread')).toHaveLength(3);
    expect(await threads(reader, '?subject-type=pull')).toEqual([]);
    expect(await threads(reader, '?subject-type=issue')).toHaveLength(2);
    expect(
      await threads(reader, `?all=true&since=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`),
    ).toEqual([]);
    expect(
      await threads(reader, `?all=true&before=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`),
    ).toEqual([]);
    expect(
      await threads(reader, `?all=true&since=${encodeURIComponent(new Date(Date.now() - 3_600_000).toISOString())}`),
    ).toHaveLength(3);
    await t.request().get('/api/v1/notifications?since=yesterday').set('Authorization', reader.auth).expect(422);
    await t.request().get('/api/v1/notifications?before=2024-13-01').set('Authorization', reader.auth).expect(422);
  });

  it('GET /notifications/new counts unread threads', async () => {
    const res = await t.request().get('/api/v1/notifications/new').set('Authorization', reader.auth).expect(200);
    expect(res.body).toEqual({ new: 2 });
  });

  it('thread GET/PATCH: 404 when absent, 403 for another user, admins allowed; PATCH answers 205 with the thread', async () => {
    const [mine] = await threads(reader);
    const got = await t
      .request()
      .get(`/api/v1/notifications/threads/${mine.id}`)
      .set('Authorization', reader.auth)
      .expect(200);
    expect(got.body.id).toBe(mine.id);
    await t.request().get('/api/v1/notifications/threads/99999999').set('Authorization', reader.auth).expect(404);
    await t.request().get('/api/v1/notifications/threads/abc').set('Authorization', reader.auth).expect(404);
    await t.request().get(`/api/v1/notifications/threads/${mine.id}`).set('Authorization', watcher.auth).expect(403);
    await t.request().patch(`/api/v1/notifications/threads/${mine.id}`).set('Authorization', watcher.auth).expect(403);
    await t.request().patch('/api/v1/notifications/threads/99999999').set('Authorization', reader.auth).expect(404);
    await t.request().get(`/api/v1/notifications/threads/${mine.id}`).set('Authorization', admin.auth).expect(200);
    const patched = await t
      .request()
      .patch(`/api/v1/notifications/threads/${mine.id}?to-status=pinned`)
      .set('Authorization', reader.auth)
      .expect(205);
    expect(patched.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(patched.body).toMatchObject({ id: mine.id, pinned: true, unread: false });
    const unread = await t
      .request()
      .patch(`/api/v1/notifications/threads/${mine.id}?to-status=unread`)
      .set('Authorization', reader.auth)
      .expect(205);
    expect(unread.body).toMatchObject({ id: mine.id, pinned: false, unread: true });
    const read = await t
      .request()
      .patch(`/api/v1/notifications/threads/${mine.id}`)
      .set('Authorization', reader.auth)
      .expect(205);
    expect(read.body).toMatchObject({ unread: false, pinned: false });
  });

  it('PUT marks the selected threads and answers 205 with them; last_read_at bounds it, a bad one is 400', async () => {
    await t
      .request()
      .put('/api/v1/notifications?last_read_at=not-a-time')
      .set('Authorization', reader.auth)
      .expect(400);
    const before = await threads(reader, '?all=true');
    const past = await t
      .request()
      .put(`/api/v1/notifications?last_read_at=${encodeURIComponent('2001-01-01T00:00:00Z')}`)
      .set('Authorization', reader.auth)
      .expect(205);
    expect(past.body).toEqual([]);
    const unreadCount = before.filter((th) => th.unread).length;
    const res = await t.request().put('/api/v1/notifications').set('Authorization', reader.auth).expect(205);
    expect(res.body).toHaveLength(unreadCount);
    expect(res.body.every((th: Thread) => !th.unread && !th.pinned)).toBe(true);
    expect((await t.request().get('/api/v1/notifications/new').set('Authorization', reader.auth)).body).toEqual({
      new: 0,
    });
    // all=true with to-status=pinned moves every thread, whatever its status.
    const pinned = await t
      .request()
      .put('/api/v1/notifications?all=true&to-status=pinned')
      .set('Authorization', reader.auth)
      .expect(205);
    expect(pinned.body).toHaveLength(3);
    expect(pinned.body.every((th: Thread) => th.pinned)).toBe(true);
    // status-types picks which statuses move.
    const back = await t
      .request()
      .put('/api/v1/notifications?status-types=pinned&to-status=unread')
      .set('Authorization', reader.auth)
      .expect(205);
    expect(back.body).toHaveLength(3);
    expect(back.body.every((th: Thread) => th.unread)).toBe(true);
  });

  it('per-repository list and mark see only that repository', async () => {
    const other = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', author.auth)
      .send({ name: 'elsewhere' })
      .expect(201);
    await t
      .request()
      .put(`/api/v1/repos/${author.user.name}/elsewhere/subscription`)
      .set('Authorization', reader.auth)
      .expect(200);
    await t
      .request()
      .post(`/api/v1/repos/${author.user.name}/elsewhere/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'other repo' })
      .expect(201);
    expect(other.body.id).toBeGreaterThan(0);
    const list = await t
      .request()
      .get(`/api/v1/repos/${author.user.name}/elsewhere/notifications`)
      .set('Authorization', reader.auth)
      .expect(200);
    expect(list.body.map((th: Thread) => th.subject.title)).toEqual(['other repo']);
    const marked = await t
      .request()
      .put(`/api/v1/repos/${author.user.name}/elsewhere/notifications`)
      .set('Authorization', reader.auth)
      .expect(205);
    expect(marked.body.map((th: Thread) => th.subject.title)).toEqual(['other repo']);
    expect((await threads(reader)).map((th) => th.subject.title)).toEqual(['n3', 'n2', 'n1']);
    await t
      .request()
      .get(`/api/v1/repos/${owner.user.name}/secret/notifications`)
      .set('Authorization', reader.auth)
      .expect(404);
  });
});
