// Collaborators (access really changes, for the API and for git), topics, repository labels and milestones.
import type { Server } from 'node:http';
import path from 'node:path';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let owner: TestUser;
let friend: TestUser;
let stranger: TestUser;
const name = 'shared';
const repoPath = () => `/api/v1/repos/${owner.user.name}/${name}`;

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  owner = await createTestUser(t);
  friend = await createTestUser(t);
  stranger = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name, private: true, auto_init: true })
    .expect(201);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('collaborators', () => {
  it('a private repository opens to a collaborator, for the API and for git, and closes again', async () => {
    await t.request().get(repoPath()).set('Authorization', friend.auth).expect(404);
    const remote = `${withCredentials(base, friend.token)}${owner.user.name}/${name}.git`;
    expect((await git(['ls-remote', remote])).code).not.toBe(0);

    await t
      .request()
      .put(`${repoPath()}/collaborators/${friend.user.name}`)
      .set('Authorization', owner.auth)
      .send({ permission: 'read' })
      .expect(204);
    await t.request().get(repoPath()).set('Authorization', friend.auth).expect(200);
    await t
      .request()
      .get(`${repoPath()}/collaborators/${friend.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    const list = await t.request().get(`${repoPath()}/collaborators`).set('Authorization', friend.auth).expect(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body.map((u: { login: string }) => u.login)).toEqual([friend.user.name]);
    const own = await t
      .request()
      .get(`${repoPath()}/collaborators/${friend.user.name}/permission`)
      .set('Authorization', friend.auth)
      .expect(200);
    expect(own.body).toMatchObject({ permission: 'read', role_name: 'read', user: { login: friend.user.name } });
    // A reader clones but may not push, nor ask about others, nor manage collaborators.
    const work = path.join(tempDir(), 'w');
    await gitOk(['clone', '-q', remote, work]);
    await gitOk(['commit', '-q', '--allow-empty', '-m', 'friend'], work);
    expect((await git(['push', '-q', 'origin', 'HEAD:main'], work)).code).not.toBe(0);
    await t
      .request()
      .get(`${repoPath()}/collaborators/${owner.user.name}/permission`)
      .set('Authorization', friend.auth)
      .expect(403);
    await t
      .request()
      .put(`${repoPath()}/collaborators/${stranger.user.name}`)
      .set('Authorization', friend.auth)
      .expect(403);

    // Write, given without a body (write is the default), lets the push through.
    await t
      .request()
      .put(`${repoPath()}/collaborators/${friend.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await gitOk(['push', '-q', 'origin', 'HEAD:main'], work);
    const perm = await t
      .request()
      .get(`${repoPath()}/collaborators/${friend.user.name}/permission`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(perm.body.permission).toBe('write');

    await t
      .request()
      .delete(`${repoPath()}/collaborators/${friend.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await t.request().get(repoPath()).set('Authorization', friend.auth).expect(404);
    expect((await git(['ls-remote', remote])).code).not.toBe(0);
  });

  it('answers 404 for a user who is not a collaborator, 422 for one who does not exist, 401 anonymously', async () => {
    await t
      .request()
      .get(`${repoPath()}/collaborators/${stranger.user.name}`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t.request().get(`${repoPath()}/collaborators/nobody-here`).set('Authorization', owner.auth).expect(422);
    await t.request().put(`${repoPath()}/collaborators/nobody-here`).set('Authorization', owner.auth).expect(422);
    await t.request().delete(`${repoPath()}/collaborators/nobody-here`).set('Authorization', owner.auth).expect(422);
    await t
      .request()
      .get(`${repoPath()}/collaborators/nobody-here/permission`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t
      .request()
      .put(`${repoPath()}/collaborators/${stranger.user.name}`)
      .set('Authorization', owner.auth)
      .send({ permission: 'owner' })
      .expect(422);
    await t.request().get(`/api/v1/repos/${owner.user.name}/${name}/collaborators`).expect(404);
  });
});

describe('topics', () => {
  it('replaces, adds, lists and deletes topics, normalised', async () => {
    await t
      .request()
      .put(`${repoPath()}/topics`)
      .set('Authorization', owner.auth)
      .send({ topics: ['Go', ' web ', 'go', ''] })
      .expect(204);
    await t.request().put(`${repoPath()}/topics/Cli`).set('Authorization', owner.auth).expect(204);
    const list = await t.request().get(`${repoPath()}/topics`).set('Authorization', owner.auth).expect(200);
    expect(list.body).toEqual({ topics: ['go', 'web', 'cli'] });
    const repo = await t.request().get(repoPath()).set('Authorization', owner.auth).expect(200);
    expect(repo.body.topics).toEqual(['go', 'web', 'cli']);
    const page = await t.request().get(`${repoPath()}/topics?limit=1&page=2`).set('Authorization', owner.auth);
    expect(page.body).toEqual({ topics: ['web'] });
    expect(page.headers['x-total-count']).toBe('3');
    await t.request().delete(`${repoPath()}/topics/web`).set('Authorization', owner.auth).expect(204);
    await t.request().delete(`${repoPath()}/topics/web`).set('Authorization', owner.auth).expect(404);
  });

  it('refuses invalid topics and too many with 422, naming them', async () => {
    const bad = await t
      .request()
      .put(`${repoPath()}/topics`)
      .set('Authorization', owner.auth)
      .send({ topics: ['ok', '-bad', 'x'.repeat(36)] })
      .expect(422);
    expect(bad.body).toEqual({ message: 'Invalid topics', invalidTopics: ['-bad', 'x'.repeat(36)] });
    const many = Array.from({ length: 26 }, (_, i) => `t${i}`);
    await t.request().put(`${repoPath()}/topics`).set('Authorization', owner.auth).send({ topics: many }).expect(422);
    await t.request().put(`${repoPath()}/topics/a_b`).set('Authorization', owner.auth).expect(422);
    const list = await t.request().get(`${repoPath()}/topics`).set('Authorization', owner.auth).expect(200);
    expect(list.body.topics).toEqual(['go', 'cli']);
  });
});

describe('repository labels', () => {
  it('creates, gets by id and name, edits, lists and deletes', async () => {
    const created = await t
      .request()
      .post(`${repoPath()}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'bug', color: '#ee0701', description: 'broken' })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'bug',
      color: 'ee0701',
      url: `http://localhost:3000${repoPath()}/labels/${created.body.id}`,
    });
    await t.request().get(`${repoPath()}/labels/${created.body.id}`).set('Authorization', owner.auth).expect(200);
    const edited = await t
      .request()
      .patch(`${repoPath()}/labels/${created.body.id}`)
      .set('Authorization', owner.auth)
      .send({ name: 'defect', color: '00ff00' })
      .expect(200);
    expect(edited.body).toMatchObject({ name: 'defect', color: '00ff00', description: 'broken' });
    const list = await t.request().get(`${repoPath()}/labels`).set('Authorization', owner.auth).expect(200);
    expect(list.body.map((l: { name: string }) => l.name)).toEqual(['defect']);
    await t
      .request()
      .post(`${repoPath()}/labels`)
      .set('Authorization', owner.auth)
      .send({ name: 'x', color: 'nope' })
      .expect(422);
    await t.request().delete(`${repoPath()}/labels/${created.body.id}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`${repoPath()}/labels/${created.body.id}`).set('Authorization', owner.auth).expect(404);
    await t.request().delete(`${repoPath()}/labels/${created.body.id}`).set('Authorization', owner.auth).expect(404);
  });
});

describe('milestones', () => {
  it('creates, filters by state and name, edits, closes and deletes', async () => {
    const v1 = await t
      .request()
      .post(`${repoPath()}/milestones`)
      .set('Authorization', owner.auth)
      .send({ title: 'v1.0', description: 'first', due_on: '2030-01-02T00:00:00Z' })
      .expect(201);
    expect(v1.body).toMatchObject({
      title: 'v1.0',
      state: 'open',
      open_issues: 0,
      closed_issues: 0,
      closed_at: null,
      due_on: '2030-01-02T00:00:00Z',
    });
    await t
      .request()
      .post(`${repoPath()}/milestones`)
      .set('Authorization', owner.auth)
      .send({ title: 'v2.0', state: 'closed' })
      .expect(201);
    await t.request().post(`${repoPath()}/milestones`).set('Authorization', owner.auth).send({}).expect(422);
    const open = await t.request().get(`${repoPath()}/milestones`).set('Authorization', owner.auth).expect(200);
    expect(open.body.map((m: { title: string }) => m.title)).toEqual(['v1.0']);
    const all = await t.request().get(`${repoPath()}/milestones?state=all`).set('Authorization', owner.auth);
    expect(all.body.map((m: { title: string }) => m.title)).toEqual(['v1.0', 'v2.0']);
    const named = await t.request().get(`${repoPath()}/milestones?state=all&name=V2`).set('Authorization', owner.auth);
    expect(named.body.map((m: { title: string }) => m.title)).toEqual(['v2.0']);
    const byName = await t.request().get(`${repoPath()}/milestones/v1.0`).set('Authorization', owner.auth).expect(200);
    expect(byName.body.id).toBe(v1.body.id);

    const issue = await t
      .request()
      .post(`${repoPath()}/issues`)
      .set('Authorization', owner.auth)
      .send({ title: 'in v1', milestone: v1.body.id })
      .expect(201);
    const closed = await t
      .request()
      .patch(`${repoPath()}/milestones/${v1.body.id}`)
      .set('Authorization', owner.auth)
      .send({ state: 'closed', title: '' })
      .expect(200);
    expect(closed.body).toMatchObject({ title: 'v1.0', state: 'closed', open_issues: 1 });
    expect(closed.body.closed_at).toEqual(expect.any(String));
    await t.request().delete(`${repoPath()}/milestones/${v1.body.id}`).set('Authorization', owner.auth).expect(204);
    await t.request().get(`${repoPath()}/milestones/${v1.body.id}`).set('Authorization', owner.auth).expect(404);
    const after = await t.request().get(`${repoPath()}/issues/${issue.body.number}`).set('Authorization', owner.auth);
    expect(after.body.milestone).toBeUndefined();
  });

  it('refuses writes by readers (403) and anonymous callers (401)', async () => {
    await t
      .request()
      .put(`${repoPath()}/collaborators/${friend.user.name}`)
      .set('Authorization', owner.auth)
      .send({ permission: 'read' })
      .expect(204);
    await t
      .request()
      .post(`${repoPath()}/milestones`)
      .set('Authorization', friend.auth)
      .send({ title: 'x' })
      .expect(403);
    await t
      .request()
      .post(`${repoPath()}/labels`)
      .set('Authorization', friend.auth)
      .send({ name: 'x', color: 'fff' })
      .expect(403);
    await t.request().put(`${repoPath()}/topics/x`).set('Authorization', friend.auth).expect(403);
    await t.request().get(`${repoPath()}/milestones`).set('Authorization', friend.auth).expect(200);
  });
});

describe('forks', () => {
  it('forks into the caller and into an organization with a real clone, lists forks, refuses twice', async () => {
    const { createTestOrg } = await import('../helpers/factories.ts');
    await t
      .request()
      .put(`${repoPath()}/collaborators/${friend.user.name}`)
      .set('Authorization', owner.auth)
      .send({ permission: 'read' })
      .expect(204);
    const fork = await t.request().post(`${repoPath()}/forks`).set('Authorization', friend.auth).send({}).expect(202);
    expect(fork.body).toMatchObject({ name, fork: true, private: true, owner: { login: friend.user.name } });
    const remote = `${withCredentials(base, friend.token)}${friend.user.name}/${name}.git`;
    const clone = path.join(tempDir(), 'f');
    await gitOk(['clone', '-q', remote, clone]);
    const original = path.join(tempDir(), 'o');
    await gitOk(['clone', '-q', `${withCredentials(base, owner.token)}${owner.user.name}/${name}.git`, original]);
    expect((await gitOk(['rev-parse', 'HEAD'], clone)).trim()).toBe(
      (await gitOk(['rev-parse', 'HEAD'], original)).trim(),
    );
    await t.request().post(`${repoPath()}/forks`).set('Authorization', friend.auth).send({}).expect(409);

    const org = await createTestOrg(t, friend.user);
    const into = await t
      .request()
      .post(`${repoPath()}/forks`)
      .set('Authorization', friend.auth)
      .send({ organization: org.name, name: 'renamed' })
      .expect(202);
    expect(into.body).toMatchObject({ name: 'renamed', owner: { login: org.name } });
    await t
      .request()
      .post(`${repoPath()}/forks`)
      .set('Authorization', stranger.auth)
      .send({ organization: org.name })
      .expect(404);

    // The forks are private: only who may read them sees them.
    const hidden = await t.request().get(`${repoPath()}/forks`).set('Authorization', owner.auth).expect(200);
    expect(hidden.body).toEqual([]);
    const forks = await t.request().get(`${repoPath()}/forks`).set('Authorization', friend.auth).expect(200);
    expect(forks.headers['x-total-count']).toBe('2');
    expect(forks.body.map((r: { full_name: string }) => r.full_name)).toEqual([
      `${friend.user.name}/${name}`,
      `${org.name}/renamed`,
    ]);
    const repo = await t.request().get(repoPath()).set('Authorization', owner.auth).expect(200);
    expect(repo.body.forks_count).toBe(2);
  });
});
