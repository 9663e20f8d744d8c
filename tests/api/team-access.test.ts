// Issue 6 end to end: a team member gains exactly the team's access to an organization's private
// repositories — through the API (get, search, edit) and git smart HTTP (clone, push) — and loses it again.
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { components } from '../../generated/api.d.ts';
import type { User } from '../../src/db/prisma.ts';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type CreateTeamOption = components['schemas']['CreateTeamOption'];

let t: TestApp;
let server: Server;
let base: string;
let owner: TestUser;
let org: User;

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  owner = await createTestUser(t);
  org = await createTestOrg(t, owner.user);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function createOrgRepo(name: string): Promise<{ id: number; name: string }> {
  return (
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name, private: true, auto_init: true })
      .expect(201)
  ).body;
}

async function createTeam(body: Partial<CreateTeamOption>): Promise<number> {
  const res = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/teams`)
    .set('Authorization', owner.auth)
    .send({ name: uniqueName('team'), ...body } satisfies CreateTeamOption)
    .expect(201);
  return res.body.id;
}

/** A new user in a new team of the given kind, which holds `repoName` unless the team includes all repositories. */
async function memberOfTeam(
  body: Partial<CreateTeamOption>,
  repoName?: string,
): Promise<{ member: TestUser; teamId: number }> {
  const teamId = await createTeam(body);
  const member = await createTestUser(t);
  await t
    .request()
    .put(`/api/v1/teams/${teamId}/members/${member.user.name}`)
    .set('Authorization', owner.auth)
    .expect(204);
  if (repoName)
    await t
      .request()
      .put(`/api/v1/teams/${teamId}/repos/${org.name}/${repoName}`)
      .set('Authorization', owner.auth)
      .expect(204);
  return { member, teamId };
}

const repoUrl = (repoName: string) => `/api/v1/repos/${org.name}/${repoName}`;
const remote = (user: TestUser, repoName: string) =>
  `${withCredentials(base, user.user.name, user.token)}${org.name}/${repoName}.git`;

async function getRepo(user: TestUser, repoName: string, status: number) {
  return (await t.request().get(repoUrl(repoName)).set('Authorization', user.auth).expect(status)).body;
}

/** What /repos/search shows the user for a keyword: the names and X-Total-Count. */
async function search(user: TestUser, q: string): Promise<{ names: string[]; total: number }> {
  const res = await t.request().get(`/api/v1/repos/search?limit=50&q=${q}`).set('Authorization', user.auth).expect(200);
  return {
    names: res.body.data.map((repo: { name: string }) => repo.name).sort(),
    total: Number(res.headers['x-total-count']),
  };
}

async function clone(user: TestUser, repoName: string) {
  const dir = path.join(tempDir(), 'clone');
  return { dir, result: await git(['clone', '-q', remote(user, repoName), dir]) };
}

async function commitAndPush(dir: string, user: TestUser, repoName: string) {
  const file = `${uniqueName('f')}.txt`;
  fs.writeFileSync(path.join(dir, file), `written by ${user.user.name}\n`);
  await gitOk(['add', file], dir);
  await gitOk(['commit', '-q', '-m', `add ${file}`], dir);
  return git(['push', remote(user, repoName), 'HEAD:refs/heads/main'], dir);
}

const patchRepo = (user: TestUser, repoName: string) =>
  t
    .request()
    .patch(repoUrl(repoName))
    .set('Authorization', user.auth)
    .send({ description: `edited by ${user.user.name}` });

describe('a private organization repository reached through teams', () => {
  const keyword = uniqueName('teamed');
  const repoName = `${keyword}-main`;
  let outsider: TestUser;
  let reader: { member: TestUser; teamId: number };
  let writer: { member: TestUser; teamId: number };
  let admin: { member: TestUser; teamId: number };

  beforeAll(async () => {
    await createOrgRepo(repoName);
    // A second repository the teams do not hold: search must neither show nor count it.
    await createOrgRepo(`${keyword}-other`);
    outsider = await createTestUser(t);
    reader = await memberOfTeam({ permission: 'read', units: ['repo.code', 'repo.issues'] }, repoName);
    writer = await memberOfTeam({ permission: 'write', units: ['repo.code', 'repo.issues'] }, repoName);
    admin = await memberOfTeam({ permission: 'admin' }, repoName);
  });

  it('is invisible to a signed-in user in no team', async () => {
    await getRepo(outsider, repoName, 404);
    expect(await search(outsider, keyword)).toEqual({ names: [], total: 0 });
    expect((await clone(outsider, repoName)).result.code).not.toBe(0);
  });

  it('a read team: get, search (and its count) and clone; no push, no edit', async () => {
    const repo = await getRepo(reader.member, repoName, 200);
    expect(repo.permissions).toEqual({ admin: false, push: false, pull: true });
    expect(await search(reader.member, keyword)).toEqual({ names: [repoName], total: 1 });

    const { dir, result } = await clone(reader.member, repoName);
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);
    const push = await commitAndPush(dir, reader.member, repoName);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/403/);

    await patchRepo(reader.member, repoName).expect(403);
  });

  it('a write team: push works; edit does not', async () => {
    expect((await getRepo(writer.member, repoName, 200)).permissions).toEqual({ admin: false, push: true, pull: true });
    const { dir, result } = await clone(writer.member, repoName);
    expect(result.code).toBe(0);
    expect((await commitAndPush(dir, writer.member, repoName)).code).toBe(0);
    const refs = await gitOk(['ls-remote', remote(owner, repoName), 'refs/heads/main']);
    expect(refs.split('\t')[0]).toBe((await gitOk(['rev-parse', 'HEAD'], dir)).trim());
    await patchRepo(writer.member, repoName).expect(403);
  });

  it('an admin team: edit works', async () => {
    expect((await getRepo(admin.member, repoName, 200)).permissions).toEqual({ admin: true, push: true, pull: true });
    const res = await patchRepo(admin.member, repoName).expect(200);
    expect(res.body.description).toBe(`edited by ${admin.member.user.name}`);
  });

  it('leaving the team takes the access away', async () => {
    const leaver = await memberOfTeam({ permission: 'read', units: ['repo.code'] }, repoName);
    await getRepo(leaver.member, repoName, 200);
    await t
      .request()
      .delete(`/api/v1/teams/${leaver.teamId}/members/${leaver.member.user.name}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await getRepo(leaver.member, repoName, 404);
    expect(await search(leaver.member, keyword)).toEqual({ names: [], total: 0 });
    const refused = await clone(leaver.member, repoName);
    expect(refused.result.code).not.toBe(0);
    expect(refused.result.stderr).toMatch(/not found/i);
  });

  it('removing the repository from the team takes the access away', async () => {
    const writerToo = await memberOfTeam({ permission: 'write', units: ['repo.code'] }, repoName);
    expect((await clone(writerToo.member, repoName)).result.code).toBe(0);
    await t
      .request()
      .delete(`/api/v1/teams/${writerToo.teamId}/repos/${org.name}/${repoName}`)
      .set('Authorization', owner.auth)
      .expect(204);
    await getRepo(writerToo.member, repoName, 404);
    expect(await search(writerToo.member, keyword)).toEqual({ names: [], total: 0 });
    expect((await clone(writerToo.member, repoName)).result.code).not.toBe(0);
    // The repository itself stays, and the other teams keep their access.
    await getRepo(reader.member, repoName, 200);
  });

  it('a team with issues but not code: sees the repository, cannot clone or push', async () => {
    const issuesOnly = await memberOfTeam({ permission: 'read', units_map: { 'repo.issues': 'read' } }, repoName);
    const repo = await getRepo(issuesOnly.member, repoName, 200);
    expect(repo.permissions).toEqual({ admin: false, push: false, pull: false });
    await t
      .request()
      .get(`/${org.name}/${repoName}.git/info/refs?service=git-upload-pack`)
      .set('Authorization', issuesOnly.member.auth)
      .expect(404);
    expect((await clone(issuesOnly.member, repoName)).result.code).not.toBe(0);
    await t
      .request()
      .get(`/${org.name}/${repoName}.git/info/refs?service=git-receive-pack`)
      .set('Authorization', issuesOnly.member.auth)
      .expect(404);
  });
});

describe('a team that includes all repositories', () => {
  it('reaches a repository created after the team, through the API, search and git', async () => {
    const { member: user, teamId } = await memberOfTeam({
      permission: 'read',
      units: ['repo.code'],
      includes_all_repositories: true,
    });
    const keyword = uniqueName('later');
    const repoName = `${keyword}-repo`;
    await createOrgRepo(repoName);

    expect((await getRepo(user, repoName, 200)).permissions).toEqual({ admin: false, push: false, pull: true });
    expect(await search(user, keyword)).toEqual({ names: [repoName], total: 1 });
    const listed = await t
      .request()
      .get(`/api/v1/teams/${teamId}/repos?limit=50`)
      .set('Authorization', user.auth)
      .expect(200);
    expect(listed.body.map((repo: { name: string }) => repo.name)).toContain(repoName);
    const { dir, result } = await clone(user, repoName);
    expect(result.code).toBe(0);
    expect((await commitAndPush(dir, user, repoName)).code).not.toBe(0);
  });
});
