// Quota from real data and its enforcement: a real git client pushes, the used sizes follow the repositories on
// disk (and shrink when one is deleted); over the limit, pushes, repository creation and migration are refused
// and nothing is stored. With [quota] ENABLED=false, every quota route is 404 and nothing is enforced.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { User } from '../../src/db/prisma.ts';
import { repositorySize } from '../../src/infra/git/object-size.ts';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;

/** The owner's quota reservations once pushes have let theirs go: git's client may see the end of its push before
 * the server's request has finished releasing. */
async function reservationsLeft(ownerId: number): Promise<number> {
  const count = () => t.context.db.prisma.quotaReservation.count({ where: { ownerId } });
  for (const deadline = Date.now() + 30_000; (await count()) > 0 && Date.now() < deadline;)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return count();
}

let server: Server;
let base: string;

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

const repoDir = (owner: string, name: string) =>
  path.join(t.context.settings.repository.ROOT, owner.toLowerCase(), `${name.toLowerCase()}.git`);

/** Puts the owner in a new group whose one rule is `limit` bytes on `subjects`. */
async function limitOwner(app: TestApp, owner: User, limit: number, subjects = ['size:repos:all']): Promise<void> {
  const quota = app.context.services.quota;
  const group = await quota.createGroup({
    name: uniqueName('group'),
    rules: [{ name: uniqueName('rule'), limit, subjects }],
  });
  await quota.addUserToGroup(group.name, owner);
}

async function usedOf(user: TestUser) {
  return (await t.request().get('/api/v1/user/quota').set('Authorization', user.auth).expect(200)).body.used.size;
}

async function reposUsed(user: TestUser): Promise<number> {
  const { repos } = await usedOf(user);
  return repos.public + repos.private;
}

/** A working copy with one commit of `bytes` random (incompressible) bytes, its remote pointing at Anvil. */
async function workingCopy(user: TestUser, owner: string, repo: string, bytes: number): Promise<string> {
  const dir = tempDir();
  await gitOk(['init', '-q', dir]);
  fs.writeFileSync(path.join(dir, 'blob.bin'), randomBytes(bytes));
  await gitOk(['add', 'blob.bin'], dir);
  await gitOk(['commit', '-q', '-m', 'data'], dir);
  await gitOk(
    ['remote', 'add', 'origin', `${withCredentials(base, user.user.name, user.password)}${owner}/${repo}.git`],
    dir,
  );
  return dir;
}

async function commitMore(dir: string, bytes: number): Promise<void> {
  fs.writeFileSync(path.join(dir, `more-${randomBytes(3).toString('hex')}.bin`), randomBytes(bytes));
  await gitOk(['add', '-A'], dir);
  await gitOk(['commit', '-q', '-m', 'more'], dir);
}

function createRepo(user: TestUser, name: string, isPrivate = false) {
  return t.request().post('/api/v1/user/repos').set('Authorization', user.auth).send({ name, private: isPrivate });
}

describe('accounting from the repositories on disk', () => {
  it('counts a pushed repository as public or private, each byte once in size:all, and forgets a deleted one', async () => {
    const user = await createTestUser(t);
    await createRepo(user, 'data').expect(201);
    await createRepo(user, 'hidden', true).expect(201);
    expect(await usedOf(user)).toMatchObject({ repos: { public: 0, private: 0 } });

    await gitOk(
      ['push', '-q', 'origin', 'HEAD:refs/heads/main'],
      await workingCopy(user, user.user.name, 'data', 64 * 1024),
    );
    const afterPush = await usedOf(user);
    const onDisk = await repositorySize(repoDir(user.user.name, 'data'));
    expect(onDisk).toBeGreaterThanOrEqual(64 * 1024);
    expect(afterPush.repos).toEqual({ public: onDisk, private: 0 });

    await gitOk(
      ['push', '-q', 'origin', 'HEAD:refs/heads/main'],
      await workingCopy(user, user.user.name, 'hidden', 32 * 1024),
    );
    const privateOnDisk = await repositorySize(repoDir(user.user.name, 'hidden'));
    expect((await usedOf(user)).repos).toEqual({ public: onDisk, private: privateOnDisk });

    // size:all counts each byte once: a limit of exactly the repositories' bytes passes, one byte less fails.
    const quota = t.context.services.quota;
    const rule = uniqueName('rule');
    const group = await quota.createGroup({
      name: uniqueName('group'),
      rules: [{ name: rule, limit: onDisk + privateOnDisk, subjects: ['size:all'] }],
    });
    await quota.addUserToGroup(group.name, user.user);
    expect(await quota.isWithin(user.user, 'size:all')).toBe(true);
    await quota.editRule(rule, { limit: onDisk + privateOnDisk - 1 });
    expect(await quota.isWithin(user.user, 'size:all')).toBe(false);

    await t.request().delete(`/api/v1/repos/${user.user.name}/data`).set('Authorization', user.auth).expect(204);
    expect((await usedOf(user)).repos).toEqual({ public: 0, private: privateOnDisk });
    expect(await quota.isWithin(user.user, 'size:all')).toBe(true);
  });

  it('shows an organization’s pushed repositories to its owners', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'code', private: true })
      .expect(201);
    await gitOk(
      ['push', '-q', 'origin', 'HEAD:refs/heads/main'],
      await workingCopy(owner, org.name, 'code', 16 * 1024),
    );
    const res = await t.request().get(`/api/v1/orgs/${org.name}/quota`).set('Authorization', owner.auth).expect(200);
    expect(res.body.used.size.repos).toEqual({ public: 0, private: await repositorySize(repoDir(org.name, 'code')) });
  });
});

describe('enforcement', () => {
  it('refuses a push once the owner is over the limit, storing nothing, and still lets branches be deleted', async () => {
    const user = await createTestUser(t);
    await createRepo(user, 'full').expect(201);
    const dir = await workingCopy(user, user.user.name, 'full', 8 * 1024);
    await gitOk(['push', '-q', 'origin', 'HEAD:refs/heads/main', 'HEAD:refs/heads/spare'], dir);
    // Usage is compared before the write: a limit of 0 still lets the repository be created.
    await limitOwner(t, user.user, 0);

    const bare = repoDir(user.user.name, 'full');
    const refsBefore = await gitOk(['--git-dir', bare, 'for-each-ref']);
    const sizeBefore = await repositorySize(bare);
    await commitMore(dir, 8 * 1024);
    const refused = await git(['push', 'origin', 'HEAD:refs/heads/main', 'HEAD:refs/heads/new'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Quota exceeded');
    expect(await gitOk(['--git-dir', bare, 'for-each-ref'])).toBe(refsBefore);
    expect(await repositorySize(bare)).toBe(sizeBefore);
    const head = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
    expect((await git(['--git-dir', bare, 'cat-file', '-e', head])).code).not.toBe(0);

    await gitOk(['push', '-q', 'origin', ':refs/heads/spare'], dir);
    expect(await gitOk(['--git-dir', bare, 'for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main\n');
  });

  it('stops a push whose pack would take the owner past the limit, storing nothing; a smaller one passes', async () => {
    const user = await createTestUser(t);
    await createRepo(user, 'edge').expect(201);
    const dir = await workingCopy(user, user.user.name, 'edge', 4 * 1024);
    await gitOk(['push', '-q', 'origin', 'HEAD:refs/heads/main'], dir);
    const bare = repoDir(user.user.name, 'edge');
    const used = await reposUsed(user);
    await limitOwner(t, user.user, used + 32 * 1024);

    // Within the limit before the push, past it with the push: before, only what was stored counted.
    await commitMore(dir, 256 * 1024);
    const refsBefore = await gitOk(['--git-dir', bare, 'for-each-ref']);
    const refused = await git(['push', 'origin', 'HEAD:refs/heads/main'], dir);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('Quota exceeded');
    expect(await gitOk(['--git-dir', bare, 'for-each-ref'])).toBe(refsBefore);
    const head = (await gitOk(['rev-parse', 'HEAD'], dir)).trim();
    expect((await git(['--git-dir', bare, 'cat-file', '-e', head])).code).not.toBe(0);
    expect(await reservationsLeft(user.user.id)).toBe(0);

    await gitOk(['reset', '-q', '--hard', 'HEAD~1'], dir);
    await commitMore(dir, 4 * 1024);
    await gitOk(['push', '-q', '-f', 'origin', 'HEAD:refs/heads/main'], dir);
    expect(await reservationsLeft(user.user.id)).toBe(0);
  });

  it('lets only one of two pushes at once through when both together would pass the limit', async () => {
    const user = await createTestUser(t);
    await createRepo(user, 'left').expect(201);
    await createRepo(user, 'right').expect(201);
    const left = await workingCopy(user, user.user.name, 'left', 64 * 1024);
    const right = await workingCopy(user, user.user.name, 'right', 64 * 1024);
    await limitOwner(t, user.user, (await reposUsed(user)) + 100 * 1024);
    const results = await Promise.all([left, right].map((dir) => git(['push', 'origin', 'HEAD:refs/heads/main'], dir)));
    expect(results.map((result) => result.code === 0).sort()).toEqual([false, true]);
    expect(results.find((result) => result.code !== 0)!.stderr).toContain('Quota exceeded');
    expect(await reservationsLeft(user.user.id)).toBe(0);
  });

  it('refuses creating a repository over the limit with 413 and Forgejo’s body, and stores nothing', async () => {
    const user = await createTestUser(t);
    await createRepo(user, 'first').expect(201);
    await gitOk(
      ['push', '-q', 'origin', 'HEAD:refs/heads/main'],
      await workingCopy(user, user.user.name, 'first', 4 * 1024),
    );
    await limitOwner(t, user.user, 100);
    const res = await createRepo(user, 'second').expect(413);
    expect(res.body).toEqual({ message: 'quota exceeded', user_id: user.user.id, username: user.user.name });
    expect(await t.context.db.prisma.repository.count({ where: { ownerId: user.user.id, lowerName: 'second' } })).toBe(
      0,
    );
    expect(fs.existsSync(repoDir(user.user.name, 'second'))).toBe(false);
  });

  it('counts an organization’s repositories against the organization, not the creator', async () => {
    const owner = await createTestUser(t);
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'one' })
      .expect(201);
    await gitOk(['push', '-q', 'origin', 'HEAD:refs/heads/main'], await workingCopy(owner, org.name, 'one', 4 * 1024));
    await limitOwner(t, org, 0);
    const res = await t
      .request()
      .post(`/api/v1/orgs/${org.name}/repos`)
      .set('Authorization', owner.auth)
      .send({ name: 'two' })
      .expect(413);
    expect(res.body).toEqual({ message: 'quota exceeded', user_id: org.id, username: org.name });
    // The creator's own quota is untouched.
    await createRepo(owner, 'mine').expect(201);
  });

  it('refuses a migration into an owner over the limit with 413, leaving no row or directory', async () => {
    const migrations = t.context.settings.migrations as { ALLOW_LOCALNETWORKS: boolean };
    const source = await createTestUser(t);
    await createRepo(source, 'origin-repo').expect(201);
    await gitOk(
      ['push', '-q', 'origin', 'HEAD:refs/heads/main'],
      await workingCopy(source, source.user.name, 'origin-repo', 4 * 1024),
    );
    const user = await createTestUser(t);
    await createRepo(user, 'existing').expect(201);
    await gitOk(
      ['push', '-q', 'origin', 'HEAD:refs/heads/main'],
      await workingCopy(user, user.user.name, 'existing', 4 * 1024),
    );
    await limitOwner(t, user.user, 0);
    migrations.ALLOW_LOCALNETWORKS = true;
    try {
      const res = await t
        .request()
        .post('/api/v1/repos/migrate')
        .set('Authorization', user.auth)
        .send({ clone_addr: `${base}${source.user.name}/origin-repo.git`, repo_name: 'copied' })
        .expect(413);
      expect(res.body).toEqual({ message: 'quota exceeded', user_id: user.user.id, username: user.user.name });
    } finally {
      migrations.ALLOW_LOCALNETWORKS = false;
    }
    expect(await t.context.db.prisma.repository.count({ where: { ownerId: user.user.id, lowerName: 'copied' } })).toBe(
      0,
    );
    expect(fs.existsSync(repoDir(user.user.name, 'copied'))).toBe(false);
  });

  it('exposes the check that package uploads call: pending bytes count against packages', async () => {
    const user = await createTestUser(t);
    await limitOwner(t, user.user, 1000, ['size:assets:packages:all']);
    const quota = t.context.services.quota;
    await expect(quota.assertWithin(user.user, 'size:assets:packages:all', 1000)).resolves.toBeUndefined();
    await expect(quota.assertWithin(user.user, 'size:assets:packages:all', 1001)).rejects.toMatchObject({
      status: 413,
      userId: user.user.id,
    });
  });
});

describe('[quota] ENABLED=false', () => {
  let off: TestApp;
  let offServer: Server;
  let offBase: string;

  beforeAll(async () => {
    off = await startTestApp({ ANVIL__quota__ENABLED: 'false' });
    ({ server: offServer, base: offBase } = await listen(off));
  });
  afterAll(async () => {
    await new Promise((resolve) => offServer.close(resolve));
    await off.close();
  });

  it('makes every quota route 404, for admins too', async () => {
    const root = await createTestUser(off, { admin: true });
    const org = await createTestOrg(off, root.user);
    for (const [method, url] of [
      ['get', '/api/v1/admin/quota/groups'],
      ['post', '/api/v1/admin/quota/groups'],
      ['get', '/api/v1/admin/quota/groups/g'],
      ['delete', '/api/v1/admin/quota/groups/g'],
      ['get', '/api/v1/admin/quota/groups/g/users'],
      ['put', `/api/v1/admin/quota/groups/g/users/${root.user.name}`],
      ['put', '/api/v1/admin/quota/groups/g/rules/r'],
      ['get', '/api/v1/admin/quota/rules'],
      ['post', '/api/v1/admin/quota/rules'],
      ['get', '/api/v1/admin/quota/rules/r'],
      ['patch', '/api/v1/admin/quota/rules/r'],
      ['delete', '/api/v1/admin/quota/rules/r'],
      ['get', `/api/v1/admin/users/${root.user.name}/quota`],
      ['post', `/api/v1/admin/users/${root.user.name}/quota/groups`],
      ['get', `/api/v1/orgs/${org.name}/quota`],
      ['get', `/api/v1/orgs/${org.name}/quota/check?subject=size:all`],
      ['get', `/api/v1/orgs/${org.name}/quota/attachments`],
      ['get', `/api/v1/orgs/${org.name}/quota/packages`],
      ['get', `/api/v1/orgs/${org.name}/quota/artifacts`],
      ['get', '/api/v1/user/quota'],
      ['get', '/api/v1/user/quota/check?subject=size:all'],
    ] as const) {
      const req = off.request()[method](url).set('Authorization', root.auth);
      const res = await (method === 'post' || method === 'patch' ? req.send({ name: 'x', limit: 1, groups: [] }) : req);
      expect([method, url, res.status]).toEqual([method, url, 404]);
    }
  });

  it('enforces nothing', async () => {
    const user = await createTestUser(off);
    await limitOwner(off, user.user, 0);
    await off.request().post('/api/v1/user/repos').set('Authorization', user.auth).send({ name: 'free' }).expect(201);
    const dir = tempDir();
    await gitOk(['init', '-q', dir]);
    fs.writeFileSync(path.join(dir, 'a.bin'), randomBytes(4096));
    await gitOk(['add', '-A'], dir);
    await gitOk(['commit', '-q', '-m', 'one'], dir);
    const remote = `${withCredentials(offBase, user.user.name, user.password)}${user.user.name}/free.git`;
    await gitOk(['push', '-q', remote, 'HEAD:refs/heads/main'], dir);
    await commitMore(dir, 4096);
    await gitOk(['push', '-q', remote, 'HEAD:refs/heads/main'], dir);
    await off
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', user.auth)
      .send({ name: 'another' })
      .expect(201);
  });
});

describe('packages', () => {
  const upload = (user: TestUser, name: string, bytes: Buffer) =>
    t
      .request()
      .put(`/api/packages/${user.user.name}/generic/${name}/1.0.0/data.bin`)
      .set('Authorization', user.auth)
      .set('Content-Type', 'application/octet-stream')
      .send(bytes);
  const blobFiles = () => {
    const root = t.context.settings.packages.PATH;
    const files: string[] = [];
    const walk = (dir: string) => {
      if (!fs.existsSync(dir)) return;
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) walk(path.join(dir, entry.name));
        else files.push(path.join(dir, entry.name));
      }
    };
    walk(root);
    return files.sort();
  };

  interface Answer {
    status: number;
    body: string;
    /** What the client had sent when the answer came. */
    sentBeforeAnswer: number;
  }
  /** A chunked upload of `total` bytes through the listening server. */
  const chunkedUpload = (user: TestUser, name: string, total: number) =>
    new Promise<Answer>((resolve, reject) => {
      let sent = 0;
      const req = http.request(
        {
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          method: 'PUT',
          path: `/api/packages/${user.user.name}/generic/${name}/1.0.0/data.bin`,
          headers: {
            Authorization: user.auth,
            'Content-Type': 'application/octet-stream',
            'Transfer-Encoding': 'chunked',
          },
        },
        (res) => {
          const sentBeforeAnswer = sent;
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), sentBeforeAnswer });
          });
        },
      );
      // The server closes the connection on a refused body; writing on is the client's loss, not the test's.
      req.on('error', (error) => (sent >= total ? reject(error) : undefined));
      const pump = () => {
        while (sent < total) {
          sent += 64 * 1024;
          if (!req.write(randomBytes(64 * 1024))) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });

  it('stops an upload at the limit while it streams and keeps nothing: no bytes, no rows, no reservation', async () => {
    const user = await createTestUser(t);
    await limitOwner(t, user.user, 100 * 1000, ['size:assets:packages:all']);
    const before = blobFiles();
    const total = 20 * 1024 * 1024;
    const refused = await chunkedUpload(user, 'huge', total);
    expect(refused.status).toBe(413);
    const quotaBody = { message: 'quota exceeded', user_id: user.user.id, username: user.user.name };
    expect(JSON.parse(refused.body)).toEqual(quotaBody);
    // Refused while the body was still arriving, not after it was all read.
    expect(refused.sentBeforeAnswer).toBeLessThan(total);
    // An announced length past the limit is refused before a byte is read.
    await upload(user, 'announced', randomBytes(200 * 1000)).expect(413);
    expect(blobFiles()).toEqual(before);
    expect(fs.readdirSync(path.join(t.context.settings.packages.PATH, 'tmp'))).toEqual([]);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: user.user.id } })).toBe(0);
    expect(await reservationsLeft(user.user.id)).toBe(0);
    await upload(user, 'fits', randomBytes(100 * 1000)).expect(201);
  });

  it('stores only one of two uploads at once that together would pass the limit', async () => {
    const user = await createTestUser(t);
    await limitOwner(t, user.user, 100 * 1000, ['size:assets:packages:all']);
    const uploads = ['one', 'two'].map((name) => upload(user, name, randomBytes(80 * 1000)));
    const statuses = (await Promise.all(uploads)).map((res) => res.status);
    expect(statuses.sort()).toEqual([201, 413]);
    expect((await usedOf(user)).assets.packages.all).toBe(80 * 1000);
    expect(await reservationsLeft(user.user.id)).toBe(0);
  });

  it('holds what a chunked upload received while it streams: a second that would not fit is refused', async () => {
    const user = await createTestUser(t);
    await limitOwner(t, user.user, 100 * 1000, ['size:assets:packages:all']);
    // The first upload sends 64 KiB and waits, its request still open.
    const first = http.request({
      host: '127.0.0.1',
      port: (server.address() as AddressInfo).port,
      method: 'PUT',
      path: `/api/packages/${user.user.name}/generic/first/1.0.0/data.bin`,
      headers: { Authorization: user.auth, 'Content-Type': 'application/octet-stream', 'Transfer-Encoding': 'chunked' },
    });
    const firstStatus = new Promise<number>((resolve, reject) => {
      first.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      first.on('error', reject);
    });
    first.write(randomBytes(64 * 1024));
    const reservations = () => t.context.db.prisma.quotaReservation.count({ where: { ownerId: user.user.id } });
    for (const deadline = Date.now() + 30_000; (await reservations()) === 0;) {
      if (Date.now() > deadline) throw new Error('the first upload reserved nothing in 30 s');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const second = await chunkedUpload(user, 'second', 64 * 1024);
    expect(second.status).toBe(413);
    first.end();
    expect(await firstStatus).toBe(201);
    expect((await usedOf(user)).assets.packages.all).toBe(64 * 1024);
    expect(await reservationsLeft(user.user.id)).toBe(0);
  });

  it('counts uploaded package bytes, refuses an upload once the owner is over its limit (413, nothing stored) and forgets deleted ones', async () => {
    const user = await createTestUser(t);
    await upload(user, 'first', randomBytes(4096)).expect(201);
    expect((await usedOf(user)).assets.packages.all).toBe(4096);
    const listed = await t.request().get('/api/v1/user/quota/packages').set('Authorization', user.auth).expect(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ name: 'first', type: 'generic', version: '1.0.0', size: 4096 }),
    ]);

    // As in Forgejo, what is already stored is compared with the limit: at 4096 bytes used, a limit of 4095 refuses.
    await limitOwner(t, user.user, 4095, ['size:assets:packages:all']);
    const before = blobFiles();
    const refused = await upload(user, 'second', randomBytes(1024)).expect(413);
    expect(refused.body).toEqual({ message: 'quota exceeded', user_id: user.user.id, username: user.user.name });
    expect(blobFiles()).toEqual(before);
    expect(await t.context.db.prisma.package.count({ where: { ownerId: user.user.id, lowerName: 'second' } })).toBe(0);

    await t
      .request()
      .delete(`/api/packages/${user.user.name}/generic/first/1.0.0`)
      .set('Authorization', user.auth)
      .expect(204);
    expect((await usedOf(user)).assets.packages.all).toBe(0);
    await upload(user, 'second', randomBytes(1024)).expect(201);
  });
});
