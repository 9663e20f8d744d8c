// Commit statuses, and branch protection rules enforced on git pushes and on the contents API's writes. Every
// response is checked against the contract; pushes are made with the git client.
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;
let repoPath: string;
let head: string;
let orgName: string;

const api = (suffix: string) => `/api/v1/repos/${repoPath}${suffix}`;

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  carol = await createTestUser(t);
  const org = await createTestOrg(t, alice.user);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', alice.auth)
    .send({ name: 'guarded', auto_init: true })
    .expect(201);
  repoPath = `${org.name}/guarded`;
  orgName = org.name;
  const team = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/teams`)
    .set('Authorization', alice.auth)
    .send({ name: 'writers', permission: 'write', includes_all_repositories: true, units: ['repo.code'] })
    .expect(201);
  for (const user of [bob, carol])
    await t
      .request()
      .put(`/api/v1/teams/${team.body.id}/members/${user.user.name}`)
      .set('Authorization', alice.auth)
      .expect(204);
  head = (await t.request().get(api('/branches/main')).expect(200)).body.commit.id;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('commit statuses', () => {
  const post = (sha: string, body: object, auth = alice.auth) =>
    t
      .request()
      .post(api(`/statuses/${sha}`))
      .set('Authorization', auth)
      .send(body);

  it('creates statuses; the combined state is the worst of the newest per context', async () => {
    const empty = await t.request().get(api('/commits/main/status')).expect(200);
    expect(empty.body).toEqual({});
    const created = await post(head, { state: 'pending', context: 'ci/build', target_url: 'https://ci.example/1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'pending', context: 'ci/build', creator: { login: alice.user.name } });
    await post(head, { state: 'success', context: 'ci/build' }).expect(201);
    await post(head, { state: 'failure', context: 'ci/lint' }).expect(201);
    let combined = await t.request().get(api('/commits/main/status')).expect(200);
    expect(combined.body).toMatchObject({ state: 'failure', sha: head, total_count: 2 });
    await post(head, { state: 'success', context: 'ci/lint' }).expect(201);
    combined = await t
      .request()
      .get(api(`/commits/${head}/status`))
      .expect(200);
    expect(combined.body.state).toBe('success');
    expect(combined.body.statuses).toHaveLength(2);
  });

  it('lists every status by sha and by ref, newest first, with paging headers', async () => {
    const bySha = await t
      .request()
      .get(api(`/statuses/${head}?limit=3`))
      .expect(200);
    expect(bySha.body).toHaveLength(3);
    expect(bySha.headers['x-total-count']).toBe('4');
    const byRef = await t.request().get(api('/commits/main/statuses?state=failure')).expect(200);
    expect(byRef.body).toEqual([expect.objectContaining({ status: 'failure', context: 'ci/lint' })]);
  });

  it('refuses a bad state (422), a missing commit (404), readers (403), anonymous callers (401)', async () => {
    await post(head, { state: 'great' }).expect(422);
    await post('f'.repeat(40), { state: 'success' }).expect(404);
    const dave = await createTestUser(t);
    await post(head, { state: 'success' }, dave.auth).expect(403);
    await t
      .request()
      .post(api(`/statuses/${head}`))
      .send({ state: 'success' })
      .expect(401);
  });
});

describe('branch protection rules', () => {
  it('creates, lists, gets, edits and deletes a rule; only repository admins may', async () => {
    const created = await t
      .request()
      .post(api('/branch_protections'))
      .set('Authorization', alice.auth)
      .send({ rule_name: 'release/*', enable_push: true, status_check_contexts: ['ci/build'] })
      .expect(201);
    expect(created.body).toMatchObject({ rule_name: 'release/*', enable_push: true });
    await t
      .request()
      .post(api('/branch_protections'))
      .set('Authorization', alice.auth)
      .send({ rule_name: 'release/*' })
      .expect(403);
    await t
      .request()
      .post(api('/branch_protections'))
      .set('Authorization', alice.auth)
      .send({ rule_name: 'x', push_whitelist_usernames: ['nobody-at-all'] })
      .expect(422);
    await t.request().get(api('/branch_protections')).set('Authorization', bob.auth).expect(403);
    const list = await t.request().get(api('/branch_protections')).set('Authorization', alice.auth).expect(200);
    expect(list.body.map((rule: { rule_name: string }) => rule.rule_name)).toEqual(['release/*']);
    const edited = await t
      .request()
      .patch(api('/branch_protections/release/*'))
      .set('Authorization', alice.auth)
      .send({ required_approvals: 2 })
      .expect(200);
    expect(edited.body).toMatchObject({ required_approvals: 2, enable_push: true });
    await t.request().get(api('/branch_protections/release/*')).set('Authorization', alice.auth).expect(200);
    await t.request().delete(api('/branch_protections/release/*')).set('Authorization', alice.auth).expect(204);
    await t.request().get(api('/branch_protections/release/*')).set('Authorization', alice.auth).expect(404);
  });
});

describe('protection is enforced', () => {
  let work: string;

  async function commitFile(name: string): Promise<void> {
    fs.writeFileSync(path.join(work, name), name);
    await gitOk(['add', name], work);
    await gitOk(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', name], work);
  }
  const remote = (user: TestUser) => withCredentials(`${base}${repoPath}.git`, user.user.name, user.token);

  beforeAll(async () => {
    work = path.join(tempDir(), 'work');
    await gitOk(['clone', '-q', remote(alice), work]);
    await t
      .request()
      .post(api('/branch_protections'))
      .set('Authorization', alice.auth)
      .send({
        rule_name: 'main',
        enable_push: true,
        enable_push_whitelist: true,
        push_whitelist_usernames: [bob.user.name],
      })
      .expect(201);
  });

  it('shows the protection on the branch, and who may push to it', async () => {
    const asBob = await t.request().get(api('/branches/main')).set('Authorization', bob.auth).expect(200);
    expect(asBob.body).toMatchObject({
      protected: true,
      effective_branch_protection_name: 'main',
      user_can_push: true,
    });
    const asCarol = await t.request().get(api('/branches/main')).set('Authorization', carol.auth).expect(200);
    expect(asCarol.body).toMatchObject({ protected: true, user_can_push: false, user_can_merge: true });
  });

  it('lets a whitelisted writer push; refuses another writer, with the reason', async () => {
    await commitFile('by-bob.txt');
    const refused = await git(['push', remote(carol), 'HEAD:main'], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Not allowed to push to protected branch main');
    await gitOk(['push', '-q', remote(bob), 'HEAD:main'], work);
    const main = await t.request().get(api('/branches/main')).expect(200);
    expect(main.body.commit.id).toBe((await gitOk(['rev-parse', 'HEAD'], work)).trim());
  });

  it('refuses force-pushes and deletion of a protected branch, even by a whitelisted pusher', async () => {
    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], work);
    await commitFile('rewrite.txt');
    const forced = await git(['push', '--force', remote(bob), 'HEAD:main'], work);
    expect(forced.stderr).toContain('protected from force push');
    await gitOk(['push', '-q', remote(bob), 'HEAD:side'], work);
    await t
      .request()
      .post(api('/branch_protections'))
      .set('Authorization', alice.auth)
      .send({ rule_name: 's*', enable_push: true })
      .expect(201);
    const deleted = await git(['push', remote(bob), ':side'], work);
    expect(deleted.stderr).toContain('protected from deletion');
    expect(await gitOk(['ls-remote', remote(alice)])).toContain('refs/heads/side');
  });

  it('refuses contents API writes to a protected branch by who may not push (403); others go through', async () => {
    const body = { content: Buffer.from('x').toString('base64') };
    await t.request().post(api('/contents/carol.txt')).set('Authorization', carol.auth).send(body).expect(403);
    await t
      .request()
      .post(`/api/v1/orgs/${orgName}/hooks`)
      .set('Authorization', alice.auth)
      .send({
        type: 'gitea',
        config: { url: 'https://hooks.example/in', content_type: 'json' },
        events: ['push'],
        active: true,
      })
      .expect(201);
    const written = await t
      .request()
      .post(api('/contents/bob.txt'))
      .set('Authorization', bob.auth)
      .send({ ...body, message: 'Bob writes' })
      .expect(201);
    // The write is reported as a git push is: a push delivery for the hook, and the feed's commit_repo.
    const tasks = await t.context.db.prisma.hookTask.findMany({ where: { eventType: 'push' } });
    expect(tasks).toHaveLength(1);
    expect(JSON.parse(tasks[0].payload)).toMatchObject({
      ref: 'refs/heads/main',
      after: written.body.commit.sha,
      commits: [expect.objectContaining({ message: 'Bob writes\n' })],
      pusher: { login: bob.user.name },
    });
    const feeds = await t.request().get(`/api/v1/orgs/${orgName}/activities/feeds`).set('Authorization', alice.auth);
    expect(feeds.body[0]).toMatchObject({ op_type: 'commit_repo', ref_name: 'refs/heads/main' });
    await t
      .request()
      .post(api('/contents/carol.txt'))
      .set('Authorization', carol.auth)
      .send({ ...body, new_branch: 'carol-work' })
      .expect(201);
  });
});
