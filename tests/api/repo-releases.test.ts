// Releases and their attachments: a published release's tag is a real git tag (seen with ls-remote), drafts make
// none and are hidden from readers, attachments are streamed in (multipart or raw), downloaded by their browser URL,
// and counted in the owner's quota for release attachments. Every response is checked against the contract.
import type { Server } from 'node:http';
import type { User } from '../../src/db/prisma.ts';
import { createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { gitOk, listen } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;
let repoPath: string;
let mainSha: string;

const api = (suffix: string) => `/api/v1/repos/${repoPath}${suffix}`;
const remoteRefs = () => gitOk(['ls-remote', `${base}${repoPath}.git`]);

async function limitOwner(owner: User, limit: number): Promise<void> {
  const quota = t.context.services.quota;
  const group = await quota.createGroup({
    name: uniqueName('group'),
    rules: [{ name: uniqueName('rule'), limit, subjects: ['size:assets:attachments:releases'] }],
  });
  await quota.addUserToGroup(group.name, owner);
}

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
  await t
    .request()
    .post('/api/v1/user/repos')
    .set('Authorization', alice.auth)
    .send({ name: 'shipping', auto_init: true })
    .expect(201);
  repoPath = `${alice.user.name}/shipping`;
  mainSha = (await remoteRefs()).split('\t')[0];
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

describe('releases', () => {
  let firstId: number;

  it('publishes a release whose tag git sees; the same tag again is 409, a bad tag 422', async () => {
    const created = await t
      .request()
      .post(api('/releases'))
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v1.0', name: 'First', body: 'Notes' })
      .expect(201);
    expect(created.body).toMatchObject({
      tag_name: 'v1.0',
      name: 'First',
      draft: false,
      author: { id: alice.user.id },
    });
    firstId = created.body.id;
    expect(await remoteRefs()).toContain(`${mainSha}\trefs/tags/v1.0`);
    const tag = await t.request().get(api('/tags/v1.0')).expect(200);
    expect(tag.body.commit.sha).toBe(mainSha);
    await t.request().post(api('/releases')).set('Authorization', alice.auth).send({ tag_name: 'v1.0' }).expect(409);
    await t.request().post(api('/releases')).set('Authorization', alice.auth).send({ tag_name: 'a..b' }).expect(422);
    await t
      .request()
      .post(api('/releases'))
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v0', target_commitish: 'nobranch' })
      .expect(404);
    await t.request().post(api('/releases')).set('Authorization', bob.auth).send({ tag_name: 'v9' }).expect(403);
  });

  it('keeps drafts tagless and hidden from readers until published', async () => {
    const draft = await t
      .request()
      .post(api('/releases'))
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v2.0', draft: true })
      .expect(201);
    expect(await remoteRefs()).not.toContain('refs/tags/v2.0');
    const asReader = await t.request().get(api('/releases')).expect(200);
    expect(asReader.body.map((release: { tag_name: string }) => release.tag_name)).toEqual(['v1.0']);
    await t
      .request()
      .get(api(`/releases/${draft.body.id}`))
      .expect(404);
    const asWriter = await t.request().get(api('/releases')).set('Authorization', alice.auth).expect(200);
    expect(asWriter.body).toHaveLength(2);
    const published = await t
      .request()
      .patch(api(`/releases/${draft.body.id}`))
      .set('Authorization', alice.auth)
      .send({ draft: false, name: 'Second' })
      .expect(200);
    expect(published.body).toMatchObject({ draft: false, name: 'Second' });
    expect(await remoteRefs()).toContain('refs/tags/v2.0');
  });

  it('answers the latest non-pre-release and releases by tag', async () => {
    await t
      .request()
      .post(api('/releases'))
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v3.0-rc1', prerelease: true })
      .expect(201);
    const latest = await t.request().get(api('/releases/latest')).expect(200);
    expect(latest.body.tag_name).toBe('v2.0');
    const byTag = await t.request().get(api('/releases/tags/v1.0')).expect(200);
    expect(byTag.body.id).toBe(firstId);
    const pre = await t.request().get(api('/releases?pre-release=true')).expect(200);
    expect(pre.body.map((release: { tag_name: string }) => release.tag_name)).toEqual(['v3.0-rc1']);
    await t.request().get(api('/releases/tags/nope')).expect(404);
  });

  it('deletes a release by id and by tag; the tags stay', async () => {
    await t.request().delete(api('/releases/tags/v3.0-rc1')).set('Authorization', alice.auth).expect(204);
    await t.request().get(api('/releases/tags/v3.0-rc1')).expect(404);
    expect(await remoteRefs()).toContain('refs/tags/v3.0-rc1');
    await t.request().delete(api('/releases/tags/v3.0-rc1')).set('Authorization', alice.auth).expect(404);
  });
});

describe('release attachments', () => {
  let releaseId: number;

  beforeAll(async () => {
    releaseId = (await t.request().get(api('/releases/tags/v1.0')).expect(200)).body.id;
  });

  it('uploads multipart and raw; lists, gets, renames, downloads by the browser URL, deletes', async () => {
    const multipart = await t
      .request()
      .post(api(`/releases/${releaseId}/assets`))
      .set('Authorization', alice.auth)
      .attach('attachment', Buffer.from('binary bytes'), 'app.bin')
      .expect(201);
    expect(multipart.body).toMatchObject({ name: 'app.bin', size: 12, type: 'attachment' });
    const raw = await t
      .request()
      .post(api(`/releases/${releaseId}/assets?name=notes.txt`))
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('release notes'))
      .expect(201);
    const list = await t
      .request()
      .get(api(`/releases/${releaseId}/assets`))
      .expect(200);
    expect(list.body.map((asset: { name: string }) => asset.name)).toEqual(['app.bin', 'notes.txt']);
    const renamed = await t
      .request()
      .patch(api(`/releases/${releaseId}/assets/${raw.body.id}`))
      .set('Authorization', alice.auth)
      .send({ name: 'NOTES.txt' })
      .expect(201);
    const url = new URL(renamed.body.browser_download_url);
    const download = await t.request().get(url.pathname).expect(200);
    expect(download.text).toBe('release notes');
    const got = await t
      .request()
      .get(api(`/releases/${releaseId}/assets/${raw.body.id}`))
      .expect(200);
    expect(got.body.download_count).toBe(1);
    await t
      .request()
      .delete(api(`/releases/${releaseId}/assets/${raw.body.id}`))
      .set('Authorization', alice.auth)
      .expect(204);
    await t.request().get(url.pathname).expect(404);
    await t
      .request()
      .post(api(`/releases/${releaseId}/assets`))
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.from('x'))
      .expect(400);
  });

  it('counts attachments in the owner quota and refuses uploads past it (413), keeping nothing', async () => {
    const used = await t.request().get('/api/v1/user/quota').set('Authorization', alice.auth).expect(200);
    expect(used.body.used.size.assets.attachments.releases).toBe(12);
    await limitOwner(alice.user, 20);
    await t
      .request()
      .post(api(`/releases/${releaseId}/assets?name=big.bin`))
      .set('Authorization', alice.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(Buffer.alloc(64 * 1024, 1))
      .expect(413);
    const list = await t
      .request()
      .get(api(`/releases/${releaseId}/assets`))
      .expect(200);
    expect(list.body.map((asset: { name: string }) => asset.name)).toEqual(['app.bin']);
  });
});

describe('webhook events', () => {
  it('announces releases (published, updated, deleted; not drafts) and commit statuses to hooks that want them', async () => {
    const repo = (await t.request().get(api('')).expect(200)).body;
    await t.context.db.prisma.webhook.create({
      data: {
        repoId: repo.id,
        type: 'gitea',
        url: 'https://hooks.example/in',
        events: JSON.stringify({ send_everything: true }),
        isActive: true,
      },
    });
    const events = async () =>
      (await t.context.db.prisma.hookTask.findMany({ orderBy: { id: 'asc' } }))
        .filter((task) => task.eventType === 'release' || task.eventType === 'status')
        .map((task) => ({ type: task.eventType, ...JSON.parse(task.payload) }));
    const draft = await t
      .request()
      .post(api('/releases'))
      .set('Authorization', alice.auth)
      .send({ tag_name: 'v5', draft: true })
      .expect(201);
    expect(await events()).toEqual([]);
    await t
      .request()
      .patch(api(`/releases/${draft.body.id}`))
      .set('Authorization', alice.auth)
      .send({ draft: false })
      .expect(200);
    await t
      .request()
      .patch(api(`/releases/${draft.body.id}`))
      .set('Authorization', alice.auth)
      .send({ name: 'Five' })
      .expect(200);
    await t
      .request()
      .delete(api(`/releases/${draft.body.id}`))
      .set('Authorization', alice.auth)
      .expect(204);
    await t
      .request()
      .post(api(`/statuses/${mainSha}`))
      .set('Authorization', alice.auth)
      .send({ state: 'success', context: 'ci' })
      .expect(201);
    const sent = await events();
    expect(sent.map((event) => [event.type, event.action ?? event.state])).toEqual([
      ['release', 'published'],
      ['release', 'updated'],
      ['release', 'deleted'],
      ['status', 'success'],
    ]);
    expect(sent[1]).toMatchObject({ release: { tag_name: 'v5', name: 'Five' }, sender: { login: alice.user.name } });
    expect(sent[3]).toMatchObject({ sha: mainSha, context: 'ci', commit: { id: mainSha } });
  });
});
