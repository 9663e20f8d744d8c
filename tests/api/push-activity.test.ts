// Feed actions for smart-HTTP pushes: commit_repo, push_tag, delete_branch, delete_tag (Forgejo's ref names and
// PushCommits content), visible in the organization's feed.
import type { Server } from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let owner: TestUser;
let outsider: TestUser;
let org: User;
let work: string;
let remote: string;

interface FeedAction {
  id: number;
  op_type: string;
  act_user_id: number;
  ref_name: string;
  content: string;
  is_private: boolean;
  repo?: { name: string };
}

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  owner = await createTestUser(t);
  outsider = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
  await t
    .request()
    .post(`/api/v1/orgs/${org.name}/repos`)
    .set('Authorization', owner.auth)
    .send({ name: 'pushed', auto_init: true })
    .expect(201);
  remote = `${withCredentials(base, owner.token)}${org.name}/pushed.git`;
  work = path.join(tempDir(), 'w');
  await gitOk(['clone', '-q', remote, work]);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function commit(file: string, message = `add ${file}`): Promise<string> {
  fs.writeFileSync(path.join(work, file), `${file}\n`);
  await gitOk(['add', file], work);
  await gitOk(['commit', '-q', '-m', message], work);
  return (await gitOk(['rev-parse', 'HEAD'], work)).trim();
}

/** Pushes and answers the feed actions the push added, oldest first. */
async function pushAndRead(args: string[]): Promise<FeedAction[]> {
  const before = await feed(owner);
  await gitOk(['push', '-q', remote, ...args], work);
  const known = new Set(before.map((action) => action.id));
  return (await feed(owner)).filter((action) => !known.has(action.id)).reverse();
}

async function feed(caller: TestUser | null): Promise<FeedAction[]> {
  const req = t.request().get(`/api/v1/orgs/${org.name}/activities/feeds?limit=50`);
  return (await (caller ? req.set('Authorization', caller.auth) : req).expect(200)).body;
}

describe('push activity', () => {
  it('records commit_repo for a branch update with the pushed commits', async () => {
    const old = (await gitOk(['rev-parse', 'HEAD'], work)).trim();
    await commit('a.txt');
    const head = await commit('b.txt', 'add b.txt\n\nwith a body');
    const [action, ...rest] = await pushAndRead(['HEAD:refs/heads/main']);
    expect(rest).toEqual([]);
    expect(action).toMatchObject({
      op_type: 'commit_repo',
      act_user_id: owner.user.id,
      ref_name: 'refs/heads/main',
      repo: { name: 'pushed' },
      is_private: false,
    });
    const content = JSON.parse(action.content);
    expect(content).toMatchObject({
      Len: 2,
      CompareURL: `${org.name}/pushed/compare/${old}...${head}`,
      HeadCommit: { Sha1: head, Message: 'add b.txt' },
    });
    expect(content.Commits.map((c: { Message: string }) => c.Message)).toEqual(['add b.txt', 'add a.txt']);
    expect(content.Commits[0]).toMatchObject({
      AuthorName: 'Test',
      AuthorEmail: 'test@example.com',
      CommitterName: 'Test',
    });
    expect(new Date(content.Commits[0].Timestamp).getTime()).not.toBeNaN();
    // Anonymous callers see the feed of a public repository too.
    expect((await feed(null)).map((a) => a.id)).toContain(action.id);
  });

  it('records commit_repo for a new branch with only the commits new to the repository, at most five', async () => {
    for (let i = 0; i < 7; i++) await commit(`f${i}.txt`);
    const [action] = await pushAndRead(['HEAD:refs/heads/feature']);
    expect(action).toMatchObject({ op_type: 'commit_repo', ref_name: 'refs/heads/feature' });
    const content = JSON.parse(action.content);
    expect(content).toMatchObject({ Len: 7, CompareURL: '' });
    expect(content.Commits).toHaveLength(5);
    expect(content.Commits[0].Message).toBe('add f6.txt');
  });

  it('records push_tag for a new tag and delete_tag / delete_branch for deletions', async () => {
    await gitOk(['tag', 'v1.0'], work);
    const [tag] = await pushAndRead(['refs/tags/v1.0']);
    expect(tag).toMatchObject({ op_type: 'push_tag', ref_name: 'refs/tags/v1.0', act_user_id: owner.user.id });
    expect(JSON.parse(tag.content)).toEqual({ Commits: [], HeadCommit: null, CompareURL: '', Len: 0 });

    const deletions = await pushAndRead([':refs/tags/v1.0', ':refs/heads/feature']);
    expect(deletions.map((a) => [a.op_type, a.ref_name]).sort()).toEqual([
      ['delete_branch', 'refs/heads/feature'],
      ['delete_tag', 'refs/tags/v1.0'],
    ]);
  });

  it('marks actions of a private repository private and hides them from outsiders', async () => {
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'hidden', private: true, auto_init: true })
      .expect(201);
    const dir = path.join(tempDir(), 'h');
    const hiddenRemote = `${withCredentials(base, owner.token)}${org.name}/hidden.git`;
    await gitOk(['clone', '-q', hiddenRemote, dir]);
    fs.writeFileSync(path.join(dir, 'x.txt'), 'x\n');
    await gitOk(['add', 'x.txt'], dir);
    await gitOk(['commit', '-q', '-m', 'secret'], dir);
    await gitOk(['push', '-q', hiddenRemote, 'HEAD:refs/heads/main'], dir);
    const pushed = (await feed(owner)).find((a) => a.repo?.name === 'hidden' && a.op_type === 'commit_repo');
    expect(pushed).toMatchObject({ is_private: true });
    expect((await feed(outsider)).some((a) => a.repo?.name === 'hidden')).toBe(false);
  });
});
