// Merges that wait for the checks (`merge_when_checks_succeed`): merged at once when the head's checks pass already
// (no statuses, or all green), else scheduled (201) and carried out by the commit status that makes them pass —
// the protected base branch's required contexts when it has them — as the user who asked; twice is 409.
import type { Server } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let owner: TestUser;
let work: string;
const repoPath = () => `/api/v1/repos/${owner.user.name}/code`;

/** A branch from main with one commit writing `file`; its head sha. */
async function branch(name: string, file: string): Promise<string> {
  await gitOk(['fetch', '-q', 'origin'], work);
  await gitOk(['checkout', '-q', '-B', name, 'origin/main'], work);
  fs.writeFileSync(path.join(work, file), `${name}\n`);
  await gitOk(['add', file], work);
  await gitOk(['commit', '-q', '-m', `${name}: ${file}`], work);
  await gitOk(['push', '-q', '-f', 'origin', name], work);
  return (await gitOk(['rev-parse', 'HEAD'], work)).trim();
}

async function open(head: string): Promise<number> {
  const res = await t
    .request()
    .post(`${repoPath()}/pulls`)
    .set('Authorization', owner.auth)
    .send({ head, base: 'main', title: head })
    .expect(201);
  return res.body.number;
}

const mergeWhenGreen = (index: number) =>
  t
    .request()
    .post(`${repoPath()}/pulls/${index}/merge`)
    .set('Authorization', owner.auth)
    .send({ Do: 'merge', merge_when_checks_succeed: true, delete_branch_after_merge: true });

const status = (sha: string, state: string, context: string) =>
  t
    .request()
    .post(`${repoPath()}/statuses/${sha}`)
    .set('Authorization', owner.auth)
    .send({ state, context })
    .expect(201);

const merged = async (index: number): Promise<boolean> =>
  (await t.request().get(`${repoPath()}/pulls/${index}`).expect(200)).body.merged;

const branchExists = async (name: string): Promise<boolean> =>
  (await t.request().get(`${repoPath()}/branches/${name}`)).status === 200;

beforeAll(async () => {
  t = await startTestApp();
  let base: string;
  ({ server, base } = await listen(t));
  owner = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', owner.auth)
    .send({ name: 'code', auto_init: true, readme: 'Default' })
    .expect(201);
  work = path.join(tempDir(), 'w');
  await gitOk(['clone', '-q', `${withCredentials(base, owner.token)}${owner.user.name}/code.git`, work]);
  await gitOk(['config', 'user.email', owner.user.email], work);
  await gitOk(['config', 'user.name', owner.user.name], work);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('merge when checks succeed', () => {
  it('merges at once when the head has no statuses, or only green ones', async () => {
    await branch('bare', 'bare.txt');
    const bare = await open('bare');
    await mergeWhenGreen(bare).expect(200);
    expect(await merged(bare)).toBe(true);
    expect(await branchExists('bare')).toBe(false);

    const green = await branch('green', 'green.txt');
    await status(green, 'success', 'ci/test');
    const index = await open('green');
    await mergeWhenGreen(index).expect(200);
    expect(await merged(index)).toBe(true);
  });

  it('schedules while a check is pending (twice is 409), and the green status merges it', async () => {
    const head = await branch('pending', 'pending.txt');
    await status(head, 'pending', 'ci/test');
    const index = await open('pending');
    await mergeWhenGreen(index).expect(201);
    expect(await merged(index)).toBe(false);
    const again = await mergeWhenGreen(index).expect(409);
    expect(again.body.message).toMatch(/already scheduled/);

    await status(head, 'failure', 'ci/test');
    expect(await merged(index)).toBe(false);
    await status(head, 'success', 'ci/test');
    expect(await merged(index)).toBe(true);
    expect(await branchExists('pending')).toBe(false);
  });

  it("waits for the protected base branch's required contexts, whatever other statuses say", async () => {
    await t
      .request()
      .post(`${repoPath()}/branch_protections`)
      .set('Authorization', owner.auth)
      .send({ rule_name: 'main', enable_status_check: true, status_check_contexts: ['ci/*'] })
      .expect(201);
    const head = await branch('required', 'required.txt');
    const index = await open('required');
    await mergeWhenGreen(index).expect(201);
    await status(head, 'success', 'lint');
    expect(await merged(index)).toBe(false);
    await status(head, 'success', 'ci/build');
    expect(await merged(index)).toBe(true);
  });

  it('a plain merge ignores the flag it was not given', async () => {
    // Without the rule of the test before, which would refuse the merge (tests/api/merge-protection.test.ts).
    await t.request().delete(`${repoPath()}/branch_protections/main`).set('Authorization', owner.auth).expect(204);
    const head = await branch('plain', 'plain.txt');
    await status(head, 'pending', 'other');
    const index = await open('plain');
    await t
      .request()
      .post(`${repoPath()}/pulls/${index}/merge`)
      .set('Authorization', owner.auth)
      .send({ Do: 'squash' })
      .expect(200);
    expect(await merged(index)).toBe(true);
  });
});
