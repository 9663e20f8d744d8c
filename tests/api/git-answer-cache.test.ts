// Answers about git objects are kept in memory by object id (infra/git/immutable-answers.ts) and branches are read
// from the ref files: a branch moved by a push is seen at once, and a repository deleted and made again under the
// same name answers nothing from the old one's objects. Every response is checked against the contract.
import childProcess from 'node:child_process';
import path from 'node:path';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import type { Test } from 'supertest';
import { pktLine } from '../../src/infra/git/pkt-line.ts';
import { raw } from '../helpers/container.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let alice: TestUser;

const b64 = (text: string) => Buffer.from(text).toString('base64');

beforeAll(async () => {
  t = await startTestApp();
  alice = await createTestUser(t);
});
afterAll(async () => {
  await t.close();
});

async function makeRepo(name: string): Promise<void> {
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name, auto_init: true, readme: 'Default' })
    .expect(201);
}

const contents = (repo: string, file: string, ref?: string) =>
  t
    .request()
    .get(`/api/v1/repos/${alice.user.name}/${repo}/contents/${file}${ref ? `?ref=${ref}` : ''}`)
    .set('Authorization', alice.auth);

it('sees a branch move at once, and the old commit still answers by its id', async () => {
  await makeRepo('moving');
  const before = await contents('moving', 'README.md').expect(200);
  const first = before.body.last_commit_sha as string;
  const written = await t
    .request()
    .put(`/api/v1/repos/${alice.user.name}/moving/contents/README.md`)
    .set('Authorization', alice.auth)
    .send({ content: b64('changed\n'), message: 'Change', sha: before.body.sha })
    .expect(200);
  const after = await contents('moving', 'README.md').expect(200);
  expect(after.body.last_commit_sha).toBe(written.body.commit.sha);
  expect(Buffer.from(after.body.content, 'base64').toString()).toBe('changed\n');
  const old = await contents('moving', 'README.md', first).expect(200);
  expect(old.body.sha).toBe(before.body.sha);
  // A commit status on either commit, by its id.
  for (const sha of [first, written.body.commit.sha])
    await t
      .request()
      .post(`/api/v1/repos/${alice.user.name}/moving/statuses/${sha}`)
      .set('Authorization', alice.auth)
      .send({ state: 'success', context: 'ci' })
      .expect(201);
});

it('posts a status to the commit a full id names, even when a branch bears that id as its name (as Forgejo)', async () => {
  await makeRepo('id-named');
  const first = (await contents('id-named', 'README.md').expect(200)).body.last_commit_sha as string;
  const written = await t
    .request()
    .put(`/api/v1/repos/${alice.user.name}/id-named/contents/README.md`)
    .set('Authorization', alice.auth)
    .send({ content: b64('second\n'), message: 'Second', sha: (await contents('id-named', 'README.md')).body.sha })
    .expect(200);
  const second = written.body.commit.sha as string;
  const dir = path.join(t.context.settings.repository.ROOT, alice.user.lowerName, 'id-named.git');
  await gitOk(['--git-dir', dir, 'update-ref', `refs/heads/${first}`, second]);
  const post = (sha: string) =>
    t
      .request()
      .post(`/api/v1/repos/${alice.user.name}/id-named/statuses/${sha}`)
      .set('Authorization', alice.auth)
      .send({ state: 'pending', context: 'ci' });
  await post(first).expect(201);
  const latest = () => t.context.db.prisma.commitStatus.findFirstOrThrow({ orderBy: { id: 'desc' } });
  expect((await latest()).sha).toBe(first);
  // A branch name that is no full id still names its tip; an unknown full id is a 404.
  await post('main').expect(201);
  expect((await latest()).sha).toBe(second);
  await post('0'.repeat(40)).expect(404);
});

it('answers nothing from the objects of a deleted repository made again under its name', async () => {
  await makeRepo('again');
  const before = await contents('again', 'README.md').expect(200);
  const oldCommit = before.body.last_commit_sha as string;
  await t.request().delete(`/api/v1/repos/${alice.user.name}/again`).set('Authorization', alice.auth).expect(204);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'again', auto_init: true, readme: 'Default', description: 'second' })
    .expect(201);
  const now = await contents('again', 'README.md').expect(200);
  if (now.body.last_commit_sha !== oldCommit) await contents('again', 'README.md', oldCommit).expect(404);
  await t
    .request()
    .get(`/api/v1/repos/${alice.user.name}/again/git/blobs/${before.body.sha}`)
    .set('Authorization', alice.auth)
    .expect(before.body.sha === now.body.sha ? 200 : 404);
});

describe('the ref advertisement', () => {
  const text = async (request: Test) => ((await raw(request).expect(200)).body as Buffer).toString('latin1');
  const advertisement = (repo: string, protocol?: string) => {
    const request = t
      .request()
      .get(`/${alice.user.name}/${repo}.git/info/refs?service=git-upload-pack`)
      .set('Authorization', alice.auth);
    return text(protocol ? request.set('Git-Protocol', protocol) : request);
  };
  const lsRefs = (repo: string) =>
    text(
      t
        .request()
        .post(`/${alice.user.name}/${repo}.git/git-upload-pack`)
        .set('Authorization', alice.auth)
        .set('Git-Protocol', 'version=2')
        .set('Content-Type', 'application/x-git-upload-pack-request')
        .send(
          `${pktLine('command=ls-refs\n')}0001${pktLine('peel\n')}${pktLine('symrefs\n')}` +
            `${pktLine('ref-prefix refs/heads/\n')}0000`,
        ),
    );
  const branch = (repo: string, name: string, method: 'post' | 'delete') =>
    method === 'post'
      ? t
          .request()
          .post(`/api/v1/repos/${alice.user.name}/${repo}/branches`)
          .set('Authorization', alice.auth)
          .send({ new_branch_name: name })
          .expect(201)
      : t
          .request()
          .delete(`/api/v1/repos/${alice.user.name}/${repo}/branches/${name}`)
          .set('Authorization', alice.auth)
          .expect(204);

  it('is answered again from memory while the refs stay, and follows every change of them', async () => {
    await makeRepo('advertised');
    const spawned = jest.spyOn(childProcess, 'spawn');
    try {
      const first = await advertisement('advertised');
      expect(first).toContain('refs/heads/main');
      const started = spawned.mock.calls.length;
      expect(await advertisement('advertised')).toBe(first);
      expect(spawned.mock.calls.length).toBe(started);
      // Protocol v2's capability advertisement is another answer, kept apart.
      const v2 = await advertisement('advertised', 'version=2');
      expect(v2).toContain('version 2');
      expect(await advertisement('advertised', 'version=2')).toBe(v2);
      expect(await advertisement('advertised')).toBe(first);
      // So is a protocol v2 ls-refs round.
      const refs = await lsRefs('advertised');
      expect(refs).toMatch(/^[0-9a-f]{4}[0-9a-f]{40} refs\/heads\/main/);
      const afterFirstLsRefs = spawned.mock.calls.length;
      expect(await lsRefs('advertised')).toBe(refs);
      expect(spawned.mock.calls.length).toBe(afterFirstLsRefs);
    } finally {
      spawned.mockRestore();
    }
    await branch('advertised', 'feature', 'post');
    expect(await advertisement('advertised')).toContain('refs/heads/feature');
    expect(await lsRefs('advertised')).toContain('refs/heads/feature');
    await branch('advertised', 'feature', 'delete');
    expect(await advertisement('advertised')).not.toContain('refs/heads/feature');
    expect(await lsRefs('advertised')).not.toContain('refs/heads/feature');
    // A commit moves main.
    const readme = await contents('advertised', 'README.md').expect(200);
    const written = await t
      .request()
      .put(`/api/v1/repos/${alice.user.name}/advertised/contents/README.md`)
      .set('Authorization', alice.auth)
      .send({ content: b64('moved\n'), message: 'Move', sha: readme.body.sha })
      .expect(200);
    expect(await advertisement('advertised')).toContain(`${written.body.commit.sha} refs/heads/main`);
    expect(await lsRefs('advertised')).toContain(`${written.body.commit.sha} refs/heads/main`);
  });

  it('of a repository deleted and made again under the same name is the new one', async () => {
    const mainOf = async () =>
      (
        await t
          .request()
          .get(`/api/v1/repos/${alice.user.name}/advertised-again/branches/main`)
          .set('Authorization', alice.auth)
          .expect(200)
      ).body.commit.id as string;
    await makeRepo('advertised-again');
    expect(await advertisement('advertised-again')).toContain(`${await mainOf()} refs/heads/main`);
    await t
      .request()
      .delete(`/api/v1/repos/${alice.user.name}/advertised-again`)
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', alice.auth)
      .send({ name: 'advertised-again', auto_init: true, readme: 'Default', description: 'second' })
      .expect(201);
    expect(await advertisement('advertised-again')).toContain(`${await mainOf()} refs/heads/main`);
  });

  it('answers a repeated fetch of the same commit from memory, to the real git client, until the refs move', async () => {
    await makeRepo('fetched');
    const { server, base } = await listen(t);
    const url = `${withCredentials(base, alice.user.name, alice.token)}${alice.user.name}/fetched.git`;
    const clone = async () => {
      const dir = path.join(tempDir(), 'clone');
      await gitOk(['-c', 'protocol.version=2', 'clone', '-q', url, dir]);
      return (await gitOk(['-C', dir, 'log', '--format=%H %s'])).trim();
    };
    const uploadPacks = jest.spyOn(childProcess, 'spawn');
    const started = () => uploadPacks.mock.calls.filter(([, args]) => args?.includes('upload-pack')).length;
    try {
      const first = await clone();
      const afterFirst = started();
      expect(await clone()).toBe(first);
      expect(started()).toBe(afterFirst);
      const readme = await contents('fetched', 'README.md').expect(200);
      const written = await t
        .request()
        .put(`/api/v1/repos/${alice.user.name}/fetched/contents/README.md`)
        .set('Authorization', alice.auth)
        .send({ content: b64('fetched again\n'), message: 'Fetch again', sha: readme.body.sha })
        .expect(200);
      expect(await clone()).toBe(`${written.body.commit.sha} Fetch again\n${first}`);
      expect(started()).toBeGreaterThan(afterFirst);
    } finally {
      uploadPacks.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
