// Pull requests read, edited, reviewed and merged: every merge style writes real commits to the bare repository
// (cloned again to see them), conflicts answer 409, and a merged pull request is closed and says so.
import type { Server } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let owner: TestUser;
let reviewer: TestUser;
let remote: string;
let work: string;
const repoPath = () => `/api/v1/repos/${owner.user.name}/code`;

/** A branch from main with one commit writing `file`. */
async function branch(name: string, file: string, content: string, from = 'origin/main'): Promise<string> {
  await gitOk(['fetch', '-q', 'origin'], work);
  await gitOk(['checkout', '-q', '-B', name, from], work);
  fs.writeFileSync(path.join(work, file), content);
  await gitOk(['add', file], work);
  await gitOk(['commit', '-q', '-m', `${name}: ${file}`], work);
  await gitOk(['push', '-q', '-f', 'origin', name], work);
  return (await gitOk(['rev-parse', 'HEAD'], work)).trim();
}

async function open(head: string, title = head): Promise<number> {
  const res = await t
    .request()
    .post(`${repoPath()}/pulls`)
    .set('Authorization', owner.auth)
    .send({ head, base: 'main', title })
    .expect(201);
  return res.body.number;
}

const merge = (index: number, body: object) =>
  t.request().post(`${repoPath()}/pulls/${index}/merge`).set('Authorization', owner.auth).send(body);

async function mainLog(): Promise<string[]> {
  const clone = path.join(tempDir(), 'c');
  await gitOk(['clone', '-q', remote, clone]);
  return (await gitOk(['log', '--format=%s|%P', 'main'], clone)).trim().split('\n');
}

beforeAll(async () => {
  t = await startTestApp();
  let base: string;
  ({ server, base } = await listen(t));
  owner = await createTestUser(t);
  reviewer = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name: 'code', auto_init: true, readme: 'Default' })
    .expect(201);
  remote = `${withCredentials(base, owner.token)}${owner.user.name}/code.git`;
  work = path.join(tempDir(), 'w');
  await gitOk(['clone', '-q', remote, work]);
  await gitOk(['config', 'user.email', owner.user.email], work);
  await gitOk(['config', 'user.name', owner.user.name], work);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('reading pull requests', () => {
  it('lists, gets, finds by base and head, shows files, commits, diff and patch', async () => {
    const head = await branch('feature', 'feature.txt', 'one\ntwo\n');
    const index = await open('feature', 'Add feature');
    const list = await t.request().get(`${repoPath()}/pulls`).expect(200);
    expect(list.headers['x-total-count']).toBe('1');
    expect(list.body[0]).toMatchObject({ number: index, head: { ref: 'feature', sha: head }, base: { ref: 'main' } });
    await t.request().get(`${repoPath()}/pulls?state=closed`).expect(200, []);
    const got = await t.request().get(`${repoPath()}/pulls/${index}`).expect(200);
    expect(got.body).toMatchObject({ title: 'Add feature', state: 'open', merged: false });
    const byRefs = await t.request().get(`${repoPath()}/pulls/main/${owner.user.name}:feature`).expect(200);
    expect(byRefs.body.number).toBe(index);
    await t.request().get(`${repoPath()}/pulls/main/nothing`).expect(404);

    const files = await t.request().get(`${repoPath()}/pulls/${index}/files`).expect(200);
    expect(files.body).toEqual([
      expect.objectContaining({ filename: 'feature.txt', status: 'added', additions: 2, deletions: 0, changes: 2 }),
    ]);
    const commits = await t.request().get(`${repoPath()}/pulls/${index}/commits`).expect(200);
    expect(commits.body.map((c: { sha: string }) => c.sha)).toEqual([head]);
    expect(commits.body[0].commit.message).toBe('feature: feature.txt\n');
    const diff = await t.request().get(`${repoPath()}/pulls/${index}.diff`).expect(200);
    expect(diff.text).toContain('+++ b/feature.txt');
    const patch = await t.request().get(`${repoPath()}/pulls/${index}.patch`).expect(200);
    expect(patch.text).toMatch(/^From [0-9a-f]{40} /);
    expect(patch.text).toContain('Subject: [PATCH] feature: feature.txt');
    await t.request().get(`${repoPath()}/pulls/${index}/merge`).expect(404);
    await t.request().get(`${repoPath()}/pulls/999`).expect(404);
  });

  it('edits title, body and state, and refuses a base branch that does not exist', async () => {
    const [pull] = (await t.request().get(`${repoPath()}/pulls`).expect(200)).body;
    const edited = await t
      .request()
      .patch(`${repoPath()}/pulls/${pull.number}`)
      .set('Authorization', owner.auth)
      .send({ title: 'Add the feature', body: 'details' })
      .expect(201);
    expect(edited.body).toMatchObject({ title: 'Add the feature', body: 'details' });
    await t
      .request()
      .patch(`${repoPath()}/pulls/${pull.number}`)
      .set('Authorization', owner.auth)
      .send({ base: 'no-such-branch' })
      .expect(404);
    await t
      .request()
      .patch(`${repoPath()}/pulls/${pull.number}`)
      .set('Authorization', reviewer.auth)
      .send({ title: 'hijack' })
      .expect(403);
  });
});

describe('reviews', () => {
  it('approves, requests changes and comments; the poster cannot approve their own', async () => {
    const [pull] = (await t.request().get(`${repoPath()}/pulls`).expect(200)).body;
    const url = `${repoPath()}/pulls/${pull.number}/reviews`;
    const approved = await t
      .request()
      .post(url)
      .set('Authorization', reviewer.auth)
      .send({ event: 'APPROVED', body: 'lgtm' })
      .expect(200);
    expect(approved.body).toMatchObject({
      state: 'APPROVED',
      body: 'lgtm',
      official: false,
      user: { login: reviewer.user.name },
      commit_id: pull.head.sha,
    });
    await t
      .request()
      .post(url)
      .set('Authorization', reviewer.auth)
      .send({ event: 'REQUEST_CHANGES', body: 'one more thing' })
      .expect(200);
    await t.request().post(url).set('Authorization', reviewer.auth).send({ event: 'COMMENT' }).expect(422);
    await t.request().post(url).set('Authorization', owner.auth).send({ event: 'APPROVED' }).expect(422);
    await t.request().post(url).set('Authorization', owner.auth).send({ event: 'COMMENT', body: 'noted' }).expect(200);
    const list = await t.request().get(url).expect(200);
    expect(list.body.map((r: { state: string }) => r.state)).toEqual(['APPROVED', 'REQUEST_CHANGES', 'COMMENT']);
    const one = await t.request().get(`${url}/${approved.body.id}`).expect(200);
    expect(one.body.id).toBe(approved.body.id);
    await t.request().post(url).send({ event: 'APPROVED' }).expect(401);
  });
});

describe('review requests', () => {
  it('asks users for a review, shows them on the pull request, and takes the request back', async () => {
    const [pull] = (await t.request().get(`${repoPath()}/pulls`).expect(200)).body;
    const url = `${repoPath()}/pulls/${pull.number}/requested_reviewers`;
    const asked = await t
      .request()
      .post(url)
      .set('Authorization', owner.auth)
      .send({ reviewers: [reviewer.user.name] })
      .expect(201);
    expect(asked.body).toEqual([
      expect.objectContaining({
        state: 'REQUEST_REVIEW',
        user: expect.objectContaining({ login: reviewer.user.name }),
      }),
    ]);
    const shown = await t.request().get(`${repoPath()}/pulls/${pull.number}`).expect(200);
    expect(shown.body.requested_reviewers.map((u: { login: string }) => u.login)).toEqual([reviewer.user.name]);
    await t
      .request()
      .post(url)
      .set('Authorization', owner.auth)
      .send({ reviewers: ['nobody-here'] })
      .expect(422);
    await t
      .request()
      .post(url)
      .set('Authorization', reviewer.auth)
      .send({ reviewers: [owner.user.name] })
      .expect(403);
    await t
      .request()
      .delete(url)
      .set('Authorization', owner.auth)
      .send({ reviewers: [reviewer.user.name] })
      .expect(204);
    const after = await t.request().get(`${repoPath()}/pulls/${pull.number}`).expect(200);
    expect(after.body.requested_reviewers).toBeNull();
  });
});

describe('merging', () => {
  it('merges with a merge commit, closes the pull request and deletes the branch when asked', async () => {
    const [pull] = (await t.request().get(`${repoPath()}/pulls`).expect(200)).body;
    await t
      .request()
      .post(`${repoPath()}/pulls/${pull.number}/merge`)
      .set('Authorization', reviewer.auth)
      .send({ Do: 'merge' })
      .expect(403);
    await merge(pull.number, { Do: 'merge', head_commit_id: '0'.repeat(40) }).expect(409);
    await merge(pull.number, { Do: 'merge', delete_branch_after_merge: true }).expect(200);
    const [top] = await mainLog();
    expect(top).toMatch(
      new RegExp(`^Merge pull request 'Add the feature' \\(#${pull.number}\\) from feature into main\\|`),
    );
    expect(top.split('|')[1].split(' ')).toHaveLength(2);
    const after = await t.request().get(`${repoPath()}/pulls/${pull.number}`).expect(200);
    expect(after.body).toMatchObject({ state: 'closed', merged: true, merged_by: { login: owner.user.name } });
    expect(after.body.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
    // The merge commit leads back to its pull request; another commit to none.
    const byCommit = await t.request().get(`${repoPath()}/commits/${after.body.merge_commit_sha}/pull`).expect(200);
    expect(byCommit.body).toMatchObject({ number: pull.number, merged: true });
    await t
      .request()
      .get(`${repoPath()}/commits/${'0'.repeat(40)}/pull`)
      .expect(404);
    await t.request().get(`${repoPath()}/pulls/${pull.number}/merge`).expect(204);
    await merge(pull.number, { Do: 'merge' }).expect(405);
    await t.request().get(`${repoPath()}/branches/feature`).expect(404);
    const repo = await t.request().get(repoPath()).expect(200);
    expect(repo.body.open_pr_counter).toBe(0);
  });

  it('squashes into one commit with the title', async () => {
    await branch('squashme', 's.txt', 's\n');
    fs.writeFileSync(path.join(work, 's2.txt'), 's2\n');
    await gitOk(['add', 's2.txt'], work);
    await gitOk(['commit', '-q', '-m', 'second'], work);
    await gitOk(['push', '-q', 'origin', 'squashme'], work);
    const index = await open('squashme', 'Squash me');
    await merge(index, { Do: 'squash' }).expect(200);
    const [top] = await mainLog();
    expect(top.split('|')[0]).toBe(`Squash me (#${index})`);
    expect(top.split('|')[1].split(' ')).toHaveLength(1);
  });

  it('rebases and fast-forwards', async () => {
    const old = (await gitOk(['rev-parse', 'origin/main'], work)).trim();
    await branch('rebaseme', 'r.txt', 'r\n', old);
    const index = await open('rebaseme', 'Rebase me');
    await merge(index, { Do: 'rebase' }).expect(200);
    const log = await mainLog();
    expect(log[0].split('|')[0]).toBe('rebaseme: r.txt');
    expect(log[0].split('|')[1].split(' ')).toHaveLength(1);

    const tip = await branch('ffwd', 'f.txt', 'f\n');
    const ff = await open('ffwd', 'Fast forward');
    await merge(ff, { Do: 'fast-forward-only' }).expect(200);
    await gitOk(['fetch', '-q', 'origin'], work);
    expect((await gitOk(['rev-parse', 'origin/main'], work)).trim()).toBe(tip);

    const behind = await branch('behind', 'b.txt', 'b\n', old);
    expect(behind).toMatch(/^[0-9a-f]{40}$/);
    const notFf = await open('behind', 'Not a fast forward');
    await merge(notFf, { Do: 'fast-forward-only' }).expect(409);
  });

  it('answers 409 for conflicting changes and leaves main alone', async () => {
    await branch('left', 'clash.txt', 'left\n');
    const leftIndex = await open('left', 'Left');
    await branch('right', 'clash.txt', 'right\n');
    const rightIndex = await open('right', 'Right');
    await merge(leftIndex, { Do: 'merge' }).expect(200);
    const before = await mainLog();
    await merge(rightIndex, { Do: 'merge' }).expect(409);
    await merge(rightIndex, { Do: 'rebase' }).expect(409);
    await merge(rightIndex, { Do: 'squash' }).expect(409);
    expect(await mainLog()).toEqual(before);
    const still = await t.request().get(`${repoPath()}/pulls/${rightIndex}`).expect(200);
    expect(still.body).toMatchObject({ state: 'open', merged: false });
  });
});
