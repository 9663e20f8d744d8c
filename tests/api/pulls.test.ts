// Pull requests from real branches: pushed with the git client, opened through the API, counted in
// open_pr_counter, recorded as create_pull_request, notified as Pull threads and found by type=pulls searches.
import type { Server } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let owner: TestUser;
let watcher: TestUser;
let org: User;
let work: string;

const repoPath = () => `/api/v1/repos/${org.name}/code`;

beforeAll(async () => {
  t = await startTestApp();
  let base: string;
  ({ server, base } = await listen(t));
  owner = await createTestUser(t);
  watcher = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'code', auto_init: true })
    .expect(201);
  await t.request().put(`${repoPath()}/subscription`).set('Authorization', watcher.auth).expect(200);
  const remote = `${withCredentials(base, owner.token)}${org.name}/code.git`;
  work = path.join(tempDir(), 'w');
  await gitOk(['clone', '-q', remote, work]);
  await gitOk(['checkout', '-q', '-b', 'feature'], work);
  fs.writeFileSync(path.join(work, 'f.txt'), 'feature\n');
  await gitOk(['add', 'f.txt'], work);
  await gitOk(['commit', '-q', '-m', 'feature work'], work);
  await gitOk(['push', '-q', remote, 'feature', 'main:same'], work);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('pull requests', () => {
  it('opens a pull request from a pushed branch', async () => {
    const before = (await t.request().get(repoPath()).set('Authorization', owner.auth).expect(200)).body;
    const head = (await gitOk(['rev-parse', 'HEAD'], work)).trim();
    const res = await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'feature', base: 'main', title: 'Add feature', body: 'please' })
      .expect(201);
    expect(res.body).toMatchObject({
      number: expect.any(Number),
      title: 'Add feature',
      body: 'please',
      state: 'open',
      merged: false,
      mergeable: true,
      head: { ref: 'feature', sha: head },
      base: { ref: 'main' },
      html_url: `http://localhost:3000/${org.name}/code/pulls/${res.body.number}`,
    });
    expect(res.body.merge_base).toMatch(/^[0-9a-f]{40}$/);
    const after = (await t.request().get(repoPath()).set('Authorization', owner.auth).expect(200)).body;
    expect(after.open_pr_counter).toBe(before.open_pr_counter + 1);
    expect(after.open_issues_count).toBe(before.open_issues_count);
    const issue = await t.request().get(`${repoPath()}/issues/${res.body.number}`).expect(200);
    expect(issue.body.pull_request).toMatchObject({ merged: false, html_url: res.body.html_url });

    const feed = await t
      .request()
      .get(`/api/v1/orgs/${org.name}/activities/feeds`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(feed.body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ op_type: 'create_pull_request', content: `${res.body.number}|Add feature` }),
      ]),
    );

    const threads = await t
      .request()
      .get('/api/v1/notifications?subject-type=pull')
      .set('Authorization', watcher.auth)
      .expect(200);
    expect(threads.body).toEqual([
      expect.objectContaining({
        subject: expect.objectContaining({ type: 'Pull', title: 'Add feature', html_url: res.body.html_url }),
      }),
    ]);
    expect(
      (await t.request().get('/api/v1/notifications?subject-type=issue').set('Authorization', watcher.auth).expect(200))
        .body,
    ).toEqual([]);

    const pulls = await t.request().get(`/api/v1/repos/issues/search?type=pulls&owner=${org.name}`).expect(200);
    expect(pulls.body.map((i: { title: string }) => i.title)).toEqual(['Add feature']);
    expect(
      (await t.request().get(`/api/v1/repos/issues/search?type=issues&owner=${org.name}`).expect(200)).body,
    ).toEqual([]);
  });

  it('refuses a duplicate (409), missing branches (404), no changes (422), anonymous callers (401)', async () => {
    await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'feature', base: 'main', title: 'again' })
      .expect(409);
    await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'nope', base: 'main', title: 'x' })
      .expect(404);
    await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'feature', base: 'nope', title: 'x' })
      .expect(404);
    await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: 'same', base: 'main', title: 'x' })
      .expect(422);
    await t.request().post(`${repoPath()}/pulls`).send({ head: 'feature', base: 'main', title: 'x' }).expect(401);
  });

  it('closing a pull request moves open_pr_counter', async () => {
    const [pull] = (await t.request().get(`/api/v1/repos/issues/search?type=pulls&owner=${org.name}`).expect(200)).body;
    await t
      .request()
      .patch(`${repoPath()}/issues/${pull.number}`)
      .set('Authorization', owner.auth)
      .send({ state: 'closed' })
      .expect(201);
    expect((await t.request().get(repoPath()).set('Authorization', owner.auth).expect(200)).body.open_pr_counter).toBe(
      0,
    );
    // Closed, the same branches may be proposed again.
    await t
      .request()
      .post(`${repoPath()}/pulls`)
      .set('Authorization', owner.auth)
      .send({ head: `${org.name}:feature`, base: 'main', title: 'retry' })
      .expect(201);
  });
});
