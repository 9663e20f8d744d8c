// A repository's webhooks: CRUD for its admins, a test delivery, and the events of the repository (push, create,
// delete, issues, issue comments, pull requests and their merge) reaching its hooks and its owner's.
import type { Server } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { type HookReceiver, type ReceivedHook, startHookReceiver } from '../helpers/hook-receiver.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const SETTINGS = { ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback' };

let t: TestApp;
let server: Server;
let base: string;
let receiver: HookReceiver;
let owner: TestUser;
let outsider: TestUser;
const repoPath = () => `/api/v1/repos/${owner.user.name}/hooked`;
const json = (hook: ReceivedHook) => JSON.parse(hook.body.toString('utf8'));
/** What a receiver path got, in the order the events happened (deliveries run side by side). */
async function ordered(name: string): Promise<ReceivedHook[]> {
  const hooks = receiver.at(`/${name}`);
  const tasks = await t.context.db.prisma.hookTask.findMany({
    where: { uuid: { in: hooks.map((hook) => String(hook.headers['x-forgejo-delivery'])) } },
    select: { uuid: true, id: true },
  });
  const order = new Map(tasks.map((task) => [task.uuid, task.id]));
  const position = (hook: ReceivedHook) => order.get(String(hook.headers['x-forgejo-delivery'])) ?? 0;
  return [...hooks].sort((a, b) => position(a) - position(b));
}
const events = async (name: string) => (await ordered(name)).map((hook) => String(hook.headers['x-forgejo-event']));

beforeAll(async () => {
  t = await startTestApp(SETTINGS);
  ({ server, base } = await listen(t));
  receiver = await startHookReceiver();
  t.context.services.hookDeliveries.startWorker(30, 4);
  owner = await createTestUser(t);
  outsider = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name: 'hooked', auto_init: true })
    .expect(201);
});
afterAll(async () => {
  await t.context.services.hookDeliveries.stopWorker();
  await receiver.close();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function createHook(name: string, extra: object = {}): Promise<{ id: number }> {
  const res = await t
    .request()
    .post(`${repoPath()}/hooks`)
    .set('Authorization', owner.auth)
    .send({
      type: 'forgejo',
      config: { url: `${receiver.url}/${name}`, content_type: 'json' },
      events: ['push', 'create', 'delete', 'issues', 'issue_comment', 'pull_request'],
      active: true,
      ...extra,
    })
    .expect(201);
  return res.body;
}

describe('repository hooks', () => {
  it('creates, lists, gets, edits and deletes; admins only', async () => {
    const hook = await createHook('crud', { active: false });
    expect(hook).toMatchObject({ type: 'forgejo', active: false, config: { url: `${receiver.url}/crud` } });
    const list = await t.request().get(`${repoPath()}/hooks`).set('Authorization', owner.auth).expect(200);
    expect(list.body.map((h: { id: number }) => h.id)).toEqual([hook.id]);
    expect(list.headers['x-total-count']).toBe('1');
    const edited = await t
      .request()
      .patch(`${repoPath()}/hooks/${hook.id}`)
      .set('Authorization', owner.auth)
      .send({ active: true, events: ['issues'] })
      .expect(200);
    expect(edited.body).toMatchObject({ active: true });
    expect(edited.body.events).toContain('issues');
    expect(edited.body.events).not.toContain('push');
    await t.request().get(`${repoPath()}/hooks/${hook.id}`).set('Authorization', owner.auth).expect(200);
    await t.request().get(`${repoPath()}/hooks`).set('Authorization', outsider.auth).expect(403);
    await t.request().get(`${repoPath()}/hooks`).expect(401);
    await t
      .request()
      .post(`${repoPath()}/hooks`)
      .set('Authorization', owner.auth)
      .send({ type: 'forgejo', config: { url: 'not a url', content_type: 'json' } })
      .expect(422);
    await t.request().delete(`${repoPath()}/hooks/${hook.id}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`${repoPath()}/hooks/${hook.id}`).set('Authorization', owner.auth).expect(404);
    // Another repository's hook is not this one's.
    await t.request().delete(`${repoPath()}/hooks/${hook.id}`).set('Authorization', owner.auth).expect(404);
  });

  it('sends a test push of the default branch to the hook, even one that wants no push', async () => {
    const hook = await createHook('test', { events: ['issues'] });
    await t.request().post(`${repoPath()}/hooks/${hook.id}/tests`).set('Authorization', owner.auth).expect(204);
    await receiver.until(() => receiver.at('/test').length === 1);
    const payload = json(receiver.at('/test')[0]);
    expect(payload).toMatchObject({ ref: 'refs/heads/main', total_commits: 1 });
    expect(payload.head_commit.message).toBe('Initial commit\n');
    await t.request().post(`${repoPath()}/hooks/999999/tests`).set('Authorization', owner.auth).expect(404);
  });

  it('hears pushes, branch creation and deletion, issues, comments, and a pull request opened and merged', async () => {
    await createHook('events');
    const remote = `${withCredentials(base, owner.token)}${owner.user.name}/hooked.git`;
    const work = path.join(tempDir(), 'w');
    await gitOk(['clone', '-q', remote, work]);
    await gitOk(['checkout', '-q', '-b', 'topic'], work);
    fs.writeFileSync(path.join(work, 'x.txt'), 'x\n');
    await gitOk(['add', 'x.txt'], work);
    await gitOk(['commit', '-q', '-m', 'topic work'], work);
    await gitOk(['push', '-q', 'origin', 'topic'], work);
    await receiver.until(() => receiver.at('/events').length >= 2);
    expect(await events('events')).toEqual(['create', 'push']);

    const issue = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'hook me' })
      .expect(201);
    await t
      .request()
      .post(`${repoPath()}/issues/${issue.body.number}/comments`)
      .set('Authorization', owner.auth)
      .send({ body: 'said' })
      .expect(201);
    const pull = await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'topic', base: 'main', title: 'Topic' })
      .expect(201);
    fs.writeFileSync(path.join(work, 'y.txt'), 'y\n');
    await gitOk(['add', 'y.txt'], work);
    await gitOk(['commit', '-q', '-m', 'more topic work'], work);
    await gitOk(['push', '-q', 'origin', 'topic'], work);
    const head = (await gitOk(['rev-parse', 'HEAD'], work)).trim();
    await receiver.until(() => receiver.at('/events').length >= 7);
    await t
      .request()
      .post(`${repoPath()}/pulls/${pull.body.number}/merge`)
      .set('Authorization', owner.auth)
      .send({ Do: 'merge', delete_branch_after_merge: true })
      .expect(200);
    await receiver.until(() => receiver.at('/events').length >= 10);
    const all = await ordered('events');
    expect(await events('events')).toEqual([
      'create',
      'push',
      'issues',
      'issue_comment',
      'pull_request',
      'push',
      'pull_request',
      'push',
      'delete',
      'pull_request',
    ]);
    expect(json(all[6])).toMatchObject({ action: 'synchronized', pull_request: { head: { sha: head } } });
    const closed = json(all[9]);
    expect(closed).toMatchObject({ action: 'closed', pull_request: { merged: true, number: pull.body.number } });
    const mergePush = json(all[7]);
    expect(mergePush).toMatchObject({ ref: 'refs/heads/main', total_commits: 3 });
  });

  it("hears reviews as pull_request_review_approved, _rejected and _comment, in Forgejo's payload", async () => {
    await createHook('reviews', { events: ['pull_request_review'] });
    await t
      .request()
      .post(`${repoPath()}/contents/reviewed.txt`)
      .set('Authorization', owner.auth)
      .send({ content: Buffer.from('r').toString('base64'), new_branch: 'reviewed' })
      .expect(201);
    const pull = await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'reviewed', base: 'main', title: 'Review me' })
      .expect(201);
    const review = (user: TestUser, event: string, body: string) =>
      t
        .request()
        .post(`${repoPath()}/pulls/${pull.body.number}/reviews`)
        .set('Authorization', user.auth)
        .send({ event, body })
        .expect(200);
    await review(outsider, 'APPROVED', 'fine');
    await review(outsider, 'REQUEST_CHANGES', 'but rename it');
    await review(owner, 'COMMENT', 'will do');
    await receiver.until(() => receiver.at('/reviews').length >= 3);
    const got = await ordered('reviews');
    expect(got.map((hook) => hook.headers['x-forgejo-event'])).toEqual([
      'pull_request_approved',
      'pull_request_rejected',
      'pull_request_comment',
    ]);
    expect(got.map((hook) => hook.headers['x-forgejo-event-type'])).toEqual([
      'pull_request_review_approved',
      'pull_request_review_rejected',
      'pull_request_review_comment',
    ]);
    expect(json(got[1])).toMatchObject({
      action: 'reviewed',
      number: pull.body.number,
      pull_request: { number: pull.body.number, title: 'Review me' },
      requested_reviewer: { login: outsider.user.name },
      sender: { login: outsider.user.name },
      review: { type: 'pull_request_review_rejected', content: 'but rename it' },
    });
    // `pull_request` in a hook's events turns the review events on too, as in Forgejo.
    await receiver.until(() =>
      receiver.at('/events').some((hook) => hook.headers['x-forgejo-event'] === 'pull_request_approved'),
    );
  });

  it('hears label changes as issue_label and pull_request_label events (label_updated)', async () => {
    await createHook('labels', { events: ['issue_label', 'pull_request_label'] });
    const label = await t
      .request()
      .post(`${repoPath()}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color: '#ee0701' })
      .expect(201);
    const issue = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'label me' })
      .expect(201);
    await t
      .request()
      .post(`${repoPath()}/issues/${issue.body.number}/labels`)
      .set('Authorization', owner.auth)
      .send({ labels: [label.body.id] })
      .expect(200);
    // Adding a label it has already changes nothing and tells no one.
    await t
      .request()
      .post(`${repoPath()}/issues/${issue.body.number}/labels`)
      .set('Authorization', owner.auth)
      .send({ labels: [label.body.id] })
      .expect(200);
    await t
      .request()
      .post(`${repoPath()}/contents/labelled.txt`)
      .set('Authorization', owner.auth)
      .send({ content: Buffer.from('l').toString('base64'), new_branch: 'labelled' })
      .expect(201);
    const pull = await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'labelled', base: 'main', title: 'Label me too' })
      .expect(201);
    await t
      .request()
      .delete(`${repoPath()}/issues/${issue.body.number}/labels`)
      .set('Authorization', owner.auth)
      .expect(204);
    await t
      .request()
      .put(`${repoPath()}/issues/${pull.body.number}/labels`)
      .set('Authorization', owner.auth)
      .send({ labels: [label.body.id] })
      .expect(200);
    await receiver.until(() => receiver.at('/labels').length >= 3);
    const got = await ordered('labels');
    expect(got.map((hook) => [hook.headers['x-forgejo-event'], hook.headers['x-forgejo-event-type']])).toEqual([
      ['issues', 'issue_label'],
      ['issues', 'issue_label'],
      ['pull_request', 'pull_request_label'],
    ]);
    expect(json(got[0])).toMatchObject({
      action: 'label_updated',
      number: issue.body.number,
      issue: { labels: [expect.objectContaining({ name: 'bug' })] },
      sender: { login: owner.user.name },
    });
    expect(json(got[1]).issue.labels).toEqual([]);
    expect(json(got[2])).toMatchObject({
      action: 'label_updated',
      pull_request: { number: pull.body.number, labels: [expect.objectContaining({ name: 'bug' })] },
    });
  });

  it('hears assignments as issue_assign events, assigned and unassigned, and not as edits', async () => {
    await createHook('assign', { events: ['issue_assign', 'issues_only'] });
    const issue = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'assign me' })
      .expect(201);
    const assign = (assignees: string[]) =>
      t
        .request()
        .patch(`${repoPath()}/issues/${issue.body.number}`)
        .set('Authorization', owner.auth)
        .send({ assignees })
        .expect(201);
    await assign([owner.user.name]);
    await assign([]);
    await receiver.until(() => receiver.at('/assign').length >= 3);
    const got = await ordered('assign');
    expect(got.map((hook) => [hook.headers['x-forgejo-event-type'], json(hook).action])).toEqual([
      ['issues', 'opened'],
      ['issue_assign', 'assigned'],
      ['issue_assign', 'unassigned'],
    ]);
    expect(got[1].headers['x-forgejo-event']).toBe('issues');
    expect(json(got[1]).issue.assignees).toEqual([expect.objectContaining({ login: owner.user.name })]);
  });

  it('hears commit statuses, with the commit in the payload; without a hook none is queued', async () => {
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', owner.auth)
      .send({ name: 'unhooked-statuses', auto_init: true })
      .expect(201);
    const sha = async (repo: string) =>
      (
        await t
          .request()
          .get(`/api/v1/repos/${owner.user.name}/${repo}/branches/main`)
          .set('Authorization', owner.auth)
          .expect(200)
      ).body.commit.id as string;
    const before = await t.context.db.prisma.hookTask.count({ where: { eventType: 'status' } });
    await t
      .request()
      .post(`/api/v1/repos/${owner.user.name}/unhooked-statuses/statuses/${await sha('unhooked-statuses')}`)
      .set('Authorization', owner.auth)
      .send({ state: 'success', context: 'ci' })
      .expect(201);
    expect(await t.context.db.prisma.hookTask.count({ where: { eventType: 'status' } })).toBe(before);
    // Statuses reach only hooks that want everything, which the API cannot make (as in Forgejo): one migrated so.
    const { id } = await createHook('statuses');
    const { prisma } = t.context.db;
    const stored = JSON.parse((await prisma.webhook.findUniqueOrThrow({ where: { id } })).events);
    await prisma.webhook.update({
      where: { id },
      data: { events: JSON.stringify({ ...stored, send_everything: true, choose_events: false }) },
    });
    const commit = await sha('hooked');
    await t
      .request()
      .post(`${repoPath()}/statuses/${commit}`)
      .set('Authorization', owner.auth)
      .send({ state: 'pending', context: 'ci/build' })
      .expect(201);
    await receiver.until(() => receiver.at('/statuses').length >= 1);
    const [hook] = receiver.at('/statuses');
    expect(hook.headers['x-forgejo-event']).toBe('status');
    expect(json(hook)).toMatchObject({ sha: commit, state: 'pending', context: 'ci/build', commit: { id: commit } });
  });

  it('hears releases published, updated and deleted, and not drafts', async () => {
    await createHook('releases', { events: ['release'] });
    const draft = await t
      .request()
      .post(`${repoPath()}/releases`)
      .set('Authorization', owner.auth)
      .send({ tag_name: 'v0.9', name: 'draft', draft: true })
      .expect(201);
    const release = await t
      .request()
      .post(`${repoPath()}/releases`)
      .set('Authorization', owner.auth)
      .send({ tag_name: 'v1.0', name: 'One' })
      .expect(201);
    await t
      .request()
      .patch(`${repoPath()}/releases/${release.body.id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'One, renamed' })
      .expect(200);
    await t
      .request()
      .patch(`${repoPath()}/releases/${draft.body.id}`)
      .set('Authorization', owner.auth)
      .send({ draft: false })
      .expect(200);
    await t.request().delete(`${repoPath()}/releases/${release.body.id}`).set('Authorization', owner.auth).expect(204);
    await receiver.until(() => receiver.at('/releases').length >= 4);
    const got = receiver
      .at('/releases')
      .map((hook) => [hook.headers['x-forgejo-event'], json(hook).action, json(hook).release.tag_name]);
    expect(got).toEqual([
      ['release', 'published', 'v1.0'],
      ['release', 'updated', 'v1.0'],
      ['release', 'published', 'v0.9'],
      ['release', 'deleted', 'v1.0'],
    ]);
    expect(json((await ordered('releases'))[1]).release.name).toBe('One, renamed');
  });
});
