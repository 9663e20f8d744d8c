// The issue surface: create (labels by id from the repository and its organization, assignees, milestone, closed,
// a JSON null for labels), get, edit state/title/body, comments, subscription, exact repository counters, and
// the create_issue row of the organization's feed.
import type { User } from '../../src/db/prisma.ts';
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let writer: TestUser;
let reader: TestUser;
let outsider: TestUser;
let org: User;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  writer = await createTestUser(t);
  reader = await createTestUser(t);
  outsider = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
  await addTestOrgMember(t, org, reader.user, { accessMode: 1 });
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'tracker' })
    .expect(201);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'hidden', private: true })
    .expect(201);
  const repo = await t.context.db.prisma.repository.findFirstOrThrow({
    where: { ownerId: org.id, lowerName: 'tracker' },
  });
  await t.context.db.prisma.collaboration.create({ data: { repoId: repo.id, userId: writer.user.id, accessMode: 2 } });
});
afterAll(() => t.close());

const repoPath = () => `/api/v1/repos/${org.name}/tracker`;

async function repoCounters() {
  const res = await t.request().get(repoPath()).set('Authorization', owner.auth).expect(200);
  return { issues: res.body.open_issues_count, pulls: res.body.open_pr_counter };
}

describe('creating issues', () => {
  it('creates an issue with org and repo labels, assignees, milestone, and counts it', async () => {
    const repo = await t.context.db.prisma.repository.findFirstOrThrow({
      where: { ownerId: org.id, lowerName: 'tracker' },
    });
    const orgLabel = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'org-bug', color: '#ff0000' })
      .expect(201);
    const repoLabel = await t.context.db.prisma.label.create({
      data: { repoId: repo.id, name: 'repo-feature', color: '#00ff00' },
    });
    const milestone = await t.context.db.prisma.milestone.create({ data: { repoId: repo.id, name: 'v1' } });
    const before = await repoCounters();
    const res = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({
        title: 'First',
        body: 'text',
        labels: [orgLabel.body.id, repoLabel.id],
        assignees: [writer.user.name],
        milestone: milestone.id,
      });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      number: expect.any(Number),
      title: 'First',
      body: 'text',
      state: 'open',
      comments: 0,
      closed_at: null,
      user: { login: owner.user.name },
      milestone: { id: milestone.id, title: 'v1', open_issues: 1 },
      assignee: { login: writer.user.name },
      repository: { name: 'tracker', owner: org.name, full_name: `${org.name}/tracker` },
      url: `http://localhost:3000/api/v1/repos/${org.name}/tracker/issues/${res.body.number}`,
      html_url: `http://localhost:3000/${org.name}/tracker/issues/${res.body.number}`,
    });
    expect(res.body.labels.map((l: { name: string }) => l.name).sort()).toEqual(['org-bug', 'repo-feature']);
    expect(res.body.labels.find((l: { name: string }) => l.name === 'org-bug').url).toBe(
      `http://localhost:3000/api/v1/orgs/${org.name}/labels/${orgLabel.body.id}`,
    );
    expect(await repoCounters()).toEqual({ issues: before.issues + 1, pulls: before.pulls });
    const got = await t.request().get(`${repoPath()}/issues/${res.body.number}`).expect(200);
    expect(got.body).toMatchObject({ id: res.body.id, title: 'First', labels: expect.any(Array) });
  });

  it('accepts a JSON null for labels, as Go clients send', async () => {
    const res = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .set('Content-Type', 'application/json')
      .send('{"title":"nil slices","labels":null,"assignees":null}')
      .expect(201);
    expect(res.body.labels).toEqual([]);
    expect(res.body.assignees).toBeNull();
  });

  it('creates a closed issue, counted as closed', async () => {
    const before = await repoCounters();
    const res = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'done', closed: true })
      .expect(201);
    expect(res.body.state).toBe('closed');
    expect(res.body.closed_at).not.toBeNull();
    expect(await repoCounters()).toEqual(before);
  });

  it('refuses unknown labels, milestones and assignees with 422, and an empty title', async () => {
    await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'x', labels: [999999] })
      .expect(422);
    await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'x', milestone: 999999 })
      .expect(422);
    await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'x', assignees: ['nobody-here'] })
      .expect(422);
    await t.request().post(`${repoPath()}/issues`).set('Authorization', owner.auth).send({ title: ' ' }).expect(422);
  });

  it('drops labels and assignees from readers, refuses anonymous callers and hides private repositories', async () => {
    const label = await t.context.db.prisma.label.findFirstOrThrow({ where: { name: 'repo-feature' } });
    const res = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', reader.auth)
      .send({ title: 'from a reader', labels: [label.id] })
      .expect(201);
    expect(res.body.labels).toEqual([]);
    await t.request().post(`${repoPath()}/issues`).send({ title: 'anon' }).expect(401);
    await t
      .request()
      .post(`/api/v1/repos/${org.name}/hidden/issues`)
      .set('Authorization', outsider.auth)
      .send({ title: 'x' })
      .expect(404);
    await t.request().get(`${repoPath()}/issues/99999`).expect(404);
  });

  it('records create_issue in the organization feed', async () => {
    const res = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', writer.auth)
      .send({ title: 'feed me' })
      .expect(201);
    const feed = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/activities/feeds`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(feed.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          op_type: 'create_issue',
          act_user_id: writer.user.id,
          content: `${res.body.number}|feed me`,
        }),
      ]),
    );
  });
});

describe('editing and commenting', () => {
  it('changes title, body and state with exact counters; the poster may edit, others 403', async () => {
    const created = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', reader.auth)
      .send({ title: 'edit me' })
      .expect(201);
    const n = created.body.number;
    const before = await repoCounters();
    const edited = await t
      .request()
      .patch(`${repoPath()}/issues/${n}`)
      .set('Authorization', reader.auth)
      .send({ title: 'edited', body: 'new body' })
      .expect(201);
    expect(edited.body).toMatchObject({ title: 'edited', body: 'new body', state: 'open' });
    await t
      .request()
      .patch(`${repoPath()}/issues/${n}`)
      .set('Authorization', outsider.auth)
      .send({ title: 'nope' })
      .expect(403);
    const closed = await t
      .request()
      .patch(`${repoPath()}/issues/${n}`)
      .set('Authorization', writer.auth)
      .send({ state: 'closed' })
      .expect(201);
    expect(closed.body.state).toBe('closed');
    expect(await repoCounters()).toEqual({ issues: before.issues - 1, pulls: before.pulls });
    // Closing twice changes nothing.
    await t
      .request()
      .patch(`${repoPath()}/issues/${n}`)
      .set('Authorization', writer.auth)
      .send({ state: 'closed' })
      .expect(201);
    expect(await repoCounters()).toEqual({ issues: before.issues - 1, pulls: before.pulls });
    const reopened = await t
      .request()
      .patch(`${repoPath()}/issues/${n}`)
      .set('Authorization', writer.auth)
      .send({ state: 'open' })
      .expect(201);
    expect(reopened.body).toMatchObject({ state: 'open', closed_at: null });
    expect(await repoCounters()).toEqual(before);
  });

  it('sets a deadline at the end of its day and removes it with the zero time; writers only', async () => {
    const created = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', reader.auth)
      .send({ title: 'due soon' })
      .expect(201);
    const deadline = (user: TestUser, due_date: string) =>
      t
        .request()
        .post(`${repoPath()}/issues/${created.body.number}/deadline`)
        .set('Authorization', user.auth)
        .send({ due_date });
    const set = await deadline(writer, '2030-05-17T08:30:00Z').expect(201);
    expect(set.body).toEqual({ due_date: '2030-05-17T23:59:59Z' });
    const issue = await t.request().get(`${repoPath()}/issues/${created.body.number}`).expect(200);
    expect(issue.body.due_date).toBe('2030-05-17T23:59:59Z');
    await deadline(reader, '2030-05-18T00:00:00Z').expect(403);
    await deadline(writer, 'tomorrow').expect(422);
    await t
      .request()
      .post(`${repoPath()}/issues/99999/deadline`)
      .set('Authorization', writer.auth)
      .send({ due_date: '2030-05-17T00:00:00Z' })
      .expect(404);
    const removed = await deadline(writer, '0001-01-01T00:00:00Z').expect(201);
    expect(removed.body).toEqual({ due_date: null });
  });

  it('refuses a title over 255 characters on edit as on create (422), and changes nothing', async () => {
    const long = 'x'.repeat(300);
    const refused = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: long })
      .expect(422);
    expect(refused.body.message).toBe('[Title]: MaxSize');
    const created = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'short' })
      .expect(201);
    const url = `${repoPath()}/issues/${created.body.number}`;
    const edit = await t
      .request()
      .patch(url)
      .set('Authorization', owner.auth)
      .send({ title: long, body: 'changed' })
      .expect(422);
    expect(edit.body.message).toBe('[Title]: MaxSize');
    const stored = await t.request().get(url).set('Authorization', owner.auth).expect(200);
    expect(stored.body).toMatchObject({ title: 'short', body: '' });
    await t
      .request()
      .patch(url)
      .set('Authorization', owner.auth)
      .send({ title: 'y'.repeat(255) })
      .expect(201);
  });

  it('adds comments and counts them', async () => {
    const created = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'talk' })
      .expect(201);
    const n = created.body.number;
    const comment = await t
      .request()
      .post(`${repoPath()}/issues/${n}/comments`)
      .set('Authorization', outsider.auth)
      .send({ body: 'hello' })
      .expect(201);
    expect(comment.body).toMatchObject({
      body: 'hello',
      user: { login: outsider.user.name },
      pull_request_url: '',
      issue_url: `http://localhost:3000/${org.name}/tracker/issues/${n}`,
      html_url: `http://localhost:3000/${org.name}/tracker/issues/${n}#issuecomment-${comment.body.id}`,
    });
    const got = await t.request().get(`${repoPath()}/issues/${n}`).expect(200);
    expect(got.body.comments).toBe(1);
    await t.request().post(`${repoPath()}/issues/${n}/comments`).send({ body: 'anon' }).expect(401);
    await t
      .request()
      .post(`${repoPath()}/issues/99999/comments`)
      .set('Authorization', owner.auth)
      .send({ body: 'x' })
      .expect(404);
  });

  it('refuses comments from users the repository owner blocked', async () => {
    const blocked = await createTestUser(t);
    await t
      .request()
      .put(`/api/v1/orgs/${org.name}/block/${blocked.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await t
      .request()
      .post(`${repoPath()}/issues/1/comments`)
      .set('Authorization', blocked.auth)
      .send({ body: 'hi' })
      .expect(403);
    await t.request().post(`${repoPath()}/issues`).set('Authorization', blocked.auth).send({ title: 'hi' }).expect(403);
  });

  it("refuses comments from users the issue's poster blocked, and changes nothing", async () => {
    const blocked = await createTestUser(t);
    const issue = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', writer.auth)
      .send({ title: 'from the writer' })
      .expect(201);
    const comments = () => t.context.db.prisma.comment.count({ where: { issueId: issue.body.id } });
    const before = await comments();
    await t.context.db.prisma.userBlocking.create({ data: { blockerId: writer.user.id, blockeeId: blocked.user.id } });
    const commentAs = (user: TestUser) =>
      t
        .request()
        .post(`${repoPath()}/issues/${issue.body.number}/comments`)
        .set('Authorization', user.auth)
        .send({ body: 'hi' });
    await commentAs(blocked).expect(403);
    expect(await comments()).toBe(before);
    await commentAs(outsider).expect(201);
  });
});

describe('subscription', () => {
  it('PUT answers WatchInfo, GET reports it, DELETE ends it and GET is then 404', async () => {
    const put = await t.request().put(`${repoPath()}/subscription`).set('Authorization', outsider.auth).expect(200);
    expect(put.body).toMatchObject({
      subscribed: true,
      ignored: false,
      reason: null,
      url: `http://localhost:3000/api/v1/repos/${org.name}/tracker/subscription`,
    });
    const got = await t.request().get(`${repoPath()}/subscription`).set('Authorization', outsider.auth).expect(200);
    expect(got.body).toMatchObject({
      subscribed: true,
      repository_url: `http://localhost:3000/api/v1/repos/${org.name}/tracker`,
    });
    await t.request().delete(`${repoPath()}/subscription`).set('Authorization', outsider.auth).expect(204);
    await t.request().get(`${repoPath()}/subscription`).set('Authorization', outsider.auth).expect(404);
    await t.request().get(`${repoPath()}/subscription`).expect(401);
    await t
      .request()
      .get(`/api/v1/repos/${org.name}/hidden/subscription`)
      .set('Authorization', outsider.auth)
      .expect(404);
  });
});
