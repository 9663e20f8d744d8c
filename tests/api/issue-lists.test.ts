// A repository's issue list with its filters and paging, comments (list, get, edit, delete) and issue labels.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let other: TestUser;
const repoPath = () => `/api/v1/repos/${owner.user.name}/tracker`;

async function issue(auth: string, body: object): Promise<{ number: number; id: number }> {
  return (await t.request().post(`${repoPath()}/issues`).set('Authorization', auth).send(body).expect(201)).body;
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  other = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name: 'tracker', auto_init: true })
    .expect(201);
});
afterAll(() => t.close());

describe('GET /repos/{owner}/{repo}/issues', () => {
  it('filters by state, labels, milestone, keyword, poster, assignee and mention, with paging headers', async () => {
    const bug = (
      await t
        .request()
        .post(`${repoPath()}/labels`)
        .set('Authorization', owner.auth)
        .send({ name: 'bug', color: 'f00' })
        .expect(201)
    ).body;
    const v1 = (
      await t
        .request()
        .post(`${repoPath()}/milestones`)
        .set('Authorization', owner.auth)
        .send({ title: 'v1' })
        .expect(201)
    ).body;
    await issue(owner.auth, {
      title: 'crash on start',
      labels: [bug.id],
      milestone: v1.id,
      assignees: [owner.user.name],
    });
    await issue(other.auth, { title: 'feature idea', body: `ping @${owner.user.name}` });
    const closed = await issue(owner.auth, { title: 'old crash' });
    await t
      .request()
      .patch(`${repoPath()}/issues/${closed.number}`)
      .set('Authorization', owner.auth)
      .send({ state: 'closed' })
      .expect(201);

    const titles = async (query: string) =>
      (await t.request().get(`${repoPath()}/issues?${query}`).expect(200)).body.map((i: { title: string }) => i.title);
    expect(await titles('')).toEqual(['feature idea', 'crash on start']);
    expect(await titles('state=all')).toEqual(['old crash', 'feature idea', 'crash on start']);
    expect(await titles('state=closed')).toEqual(['old crash']);
    expect(await titles('labels=bug')).toEqual(['crash on start']);
    expect(await titles('milestones=v1')).toEqual(['crash on start']);
    expect(await titles(`milestones=${v1.id}`)).toEqual(['crash on start']);
    expect(await titles('state=all&q=crash')).toEqual(['old crash', 'crash on start']);
    expect(await titles(`created_by=${other.user.name}`)).toEqual(['feature idea']);
    expect(await titles(`assigned_by=${owner.user.name}`)).toEqual(['crash on start']);
    expect(await titles(`mentioned_by=${owner.user.name}`)).toEqual(['feature idea']);
    expect(await titles('type=pulls')).toEqual([]);
    const page = await t.request().get(`${repoPath()}/issues?state=all&limit=1&page=2`).expect(200);
    expect(page.body.map((i: { title: string }) => i.title)).toEqual(['feature idea']);
    expect(page.headers['x-total-count']).toBe('3');
    expect(page.headers.link).toContain('rel="next"');
    await t.request().get(`${repoPath()}/issues?created_by=nobody-at-all`).expect(404);
  });
});

describe('comments', () => {
  it('lists per issue and per repository, gets, edits and deletes; only the poster or a writer changes', async () => {
    const target = await issue(owner.auth, { title: 'discussion' });
    const post = async (auth: string, body: string) =>
      (
        await t
          .request()
          .post(`${repoPath()}/issues/${target.number}/comments`)
          .set('Authorization', auth)
          .send({ body })
          .expect(201)
      ).body;
    const first = await post(other.auth, 'first');
    const second = await post(owner.auth, 'second');
    const list = await t.request().get(`${repoPath()}/issues/${target.number}/comments`).expect(200);
    expect(list.body.map((c: { body: string }) => c.body)).toEqual(['first', 'second']);
    const all = await t.request().get(`${repoPath()}/issues/comments?limit=1`).expect(200);
    expect(all.headers['x-total-count']).toBe('2');
    expect(all.body[0].body).toBe('first');
    const got = await t.request().get(`${repoPath()}/issues/comments/${first.id}`).expect(200);
    expect(got.body).toMatchObject({ id: first.id, body: 'first', user: { login: other.user.name } });

    await t
      .request()
      .patch(`${repoPath()}/issues/comments/${second.id}`)
      .set('Authorization', other.auth)
      .send({ body: 'hijack' })
      .expect(403);
    const edited = await t
      .request()
      .patch(`${repoPath()}/issues/comments/${first.id}`)
      .set('Authorization', other.auth)
      .send({ body: 'first, edited' })
      .expect(200);
    expect(edited.body.body).toBe('first, edited');
    await t
      .request()
      .patch(`${repoPath()}/issues/${target.number}/comments/${first.id}`)
      .set('Authorization', owner.auth)
      .send({ body: 'by a writer' })
      .expect(200);
    await t.request().delete(`${repoPath()}/issues/comments/${second.id}`).set('Authorization', other.auth).expect(403);
    await t.request().delete(`${repoPath()}/issues/comments/${second.id}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`${repoPath()}/issues/comments/${second.id}`).expect(404);
    const now = await t.request().get(`${repoPath()}/issues/${target.number}`).expect(200);
    expect(now.body.comments).toBe(1);
    await t.request().patch(`${repoPath()}/issues/comments/${first.id}`).send({ body: 'x' }).expect(401);
  });

  it('answers 204 for the id of a close record, which is not a comment', async () => {
    const target = await issue(owner.auth, { title: 'to close' });
    await t
      .request()
      .patch(`${repoPath()}/issues/${target.number}`)
      .set('Authorization', owner.auth)
      .send({ state: 'closed' })
      .expect(201);
    const record = await t.context.db.prisma.comment.findFirstOrThrow({ where: { issueId: target.id } });
    await t.request().get(`${repoPath()}/issues/comments/${record.id}`).expect(204);
  });
});

describe('issue labels', () => {
  it('adds by id and name, replaces, removes and clears, keeping label counters', async () => {
    const make = async (name: string) =>
      (
        await t
          .request()
          .post(`${repoPath()}/labels`)
          .set('Authorization', owner.auth)
          .send({ name, color: '0f0' })
          .expect(201)
      ).body;
    const a = await make('a');
    const b = await make('b');
    const target = await issue(owner.auth, { title: 'labelled' });
    const url = `${repoPath()}/issues/${target.number}/labels`;
    const names = (res: { body: { name: string }[] }) => res.body.map((l) => l.name);
    expect(
      names(
        await t
          .request()
          .post(url)
          .set('Authorization', owner.auth)
          .send({ labels: [a.id, 'b', 999999] })
          .expect(200),
      ),
    ).toEqual(['a', 'b']);
    expect(names(await t.request().get(url).expect(200))).toEqual(['a', 'b']);
    expect((await t.request().get(`${repoPath()}/labels/${a.id}`).expect(200)).body).toMatchObject({ name: 'a' });
    expect((await t.context.db.prisma.label.findUniqueOrThrow({ where: { id: a.id } })).numIssues).toBe(1);
    expect(
      names(
        await t
          .request()
          .put(url)
          .set('Authorization', owner.auth)
          .send({ labels: ['b'] })
          .expect(200),
      ),
    ).toEqual(['b']);
    expect((await t.context.db.prisma.label.findUniqueOrThrow({ where: { id: a.id } })).numIssues).toBe(0);
    await t.request().delete(`${url}/${b.id}`).set('Authorization', owner.auth).expect(204);
    expect(names(await t.request().get(url).expect(200))).toEqual([]);
    await t.request().delete(`${url}/999999`).set('Authorization', owner.auth).expect(422);
    await t
      .request()
      .post(url)
      .set('Authorization', owner.auth)
      .send({ labels: [a.id, b.id] })
      .expect(200);
    await t
      .request()
      .post(url)
      .set('Authorization', other.auth)
      .send({ labels: [a.id] })
      .expect(403);
    await t.request().delete(url).set('Authorization', owner.auth).expect(204);
    expect(names(await t.request().get(url).expect(200))).toEqual([]);
    expect((await t.context.db.prisma.label.findUniqueOrThrow({ where: { id: b.id } })).numIssues).toBe(0);
  });
});

describe('reactions', () => {
  it('adds once (201, then 200), lists and removes reactions on issues and comments; refuses unknown ones', async () => {
    const target = await issue(owner.auth, { title: 'react to me' });
    const url = `${repoPath()}/issues/${target.number}/reactions`;
    const first = await t.request().post(url).set('Authorization', other.auth).send({ content: 'heart' }).expect(201);
    expect(first.body).toMatchObject({ content: 'heart', user: { login: other.user.name } });
    await t.request().post(url).set('Authorization', other.auth).send({ content: 'heart' }).expect(200);
    await t.request().post(url).set('Authorization', owner.auth).send({ content: '+1' }).expect(201);
    await t.request().post(url).set('Authorization', owner.auth).send({ content: 'shrug' }).expect(422);
    await t.request().post(url).send({ content: '+1' }).expect(401);
    const list = await t.request().get(url).expect(200);
    expect(list.headers['x-total-count']).toBe('2');
    expect(list.body.map((r: { content: string }) => r.content)).toEqual(['heart', '+1']);
    await t.request().delete(url).set('Authorization', other.auth).send({ content: 'heart' }).expect(200);
    expect((await t.request().get(url).expect(200)).body).toHaveLength(1);

    const comment = (
      await t
        .request()
        .post(`${repoPath()}/issues/${target.number}/comments`)
        .set('Authorization', owner.auth)
        .send({ body: 'a comment' })
        .expect(201)
    ).body;
    const curl = `${repoPath()}/issues/comments/${comment.id}/reactions`;
    await t.request().post(curl).set('Authorization', other.auth).send({ content: 'rocket' }).expect(201);
    expect((await t.request().get(curl).expect(200)).body.map((r: { content: string }) => r.content)).toEqual([
      'rocket',
    ]);
    await t.request().delete(curl).set('Authorization', other.auth).send({ content: 'rocket' }).expect(200);
    expect((await t.request().get(curl).expect(200)).body).toEqual([]);
    await t.request().get(`${repoPath()}/issues/comments/999999/reactions`).expect(404);
  });
});
