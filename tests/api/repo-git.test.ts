// git smart HTTP with the real git client: clone, push, permissions, and the database following pushes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Server } from 'node:http';
import { createTestUser, createToken, type TestUser, uniqueName } from '../helpers/factories.ts';
import { git, gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let server: Server;
let base: string;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  ({ server, base } = await listen(t));
  alice = await createTestUser(t);
  bob = await createTestUser(t);
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

async function createRepo(owner: TestUser, body: Record<string, unknown>) {
  return (await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send(body).expect(201)).body;
}

async function commitAndPush(dir: string, file: string, remote: string, branch = 'main') {
  fs.writeFileSync(path.join(dir, file), `content of ${file}\n`);
  await gitOk(['add', file], dir);
  await gitOk(['commit', '-q', '-m', `add ${file}`], dir);
  return git(['push', remote, `HEAD:refs/heads/${branch}`], dir);
}

describe('clone', () => {
  it('lets anyone clone a public repository', async () => {
    await createRepo(alice, { name: 'public-one', auto_init: true, description: 'hello' });
    const dir = path.join(tempDir(), 'clone');
    await gitOk(['clone', '-q', `${base}${alice.user.name}/public-one.git`, dir]);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('# public-one\n\nhello\n');
  });

  it('asks anonymous callers for credentials on a private repository, and lets the owner in by password or token', async () => {
    await createRepo(alice, { name: 'secret-one', auto_init: true, private: true });
    const res = await t
      .request()
      .get(`/${alice.user.name}/secret-one.git/info/refs?service=git-upload-pack`)
      .expect(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    const anonymous = await git(['clone', '-q', `${base}${alice.user.name}/secret-one.git`, path.join(tempDir(), 'x')]);
    expect(anonymous.code).not.toBe(0);

    await gitOk([
      'clone',
      '-q',
      `${withCredentials(base, alice.user.name, alice.password)}${alice.user.name}/secret-one.git`,
      path.join(tempDir(), 'a'),
    ]);
    await gitOk([
      'clone',
      '-q',
      `${withCredentials(base, alice.token)}${alice.user.name}/secret-one.git`,
      path.join(tempDir(), 'b'),
    ]);
    await gitOk([
      'clone',
      '-q',
      `${withCredentials(base, 'anything', alice.token)}${alice.user.name}/secret-one.git`,
      path.join(tempDir(), 'c'),
    ]);
  });

  it('hides a private repository from signed-in outsiders (404) and refuses bad credentials', async () => {
    await createRepo(alice, { name: 'secret-two', private: true });
    await t
      .request()
      .get(`/${alice.user.name}/secret-two.git/info/refs?service=git-upload-pack`)
      .set('Authorization', bob.auth)
      .expect(404);
    const outsider = await git([
      'clone',
      '-q',
      `${withCredentials(base, bob.token)}${alice.user.name}/secret-two.git`,
      path.join(tempDir(), 'x'),
    ]);
    expect(outsider.stderr).toMatch(/not found/i);
    const wrong = await git([
      'clone',
      '-q',
      `${withCredentials(base, alice.user.name, 'wrong-password')}${alice.user.name}/secret-two.git`,
      path.join(tempDir(), 'y'),
    ]);
    expect(wrong.code).not.toBe(0);
  });

  it('answers 404 to a signed-in caller for a repository that does not exist and for unsafe names', async () => {
    await t
      .request()
      .get(`/${alice.user.name}/nothing-here.git/info/refs?service=git-upload-pack`)
      .set('Authorization', bob.auth)
      .expect(404);
    await t
      .request()
      .get(`/${alice.user.name}/..%2F..%2Fetc.git/info/refs?service=git-upload-pack`)
      .set('Authorization', bob.auth)
      .expect(404);
    await t
      .request()
      .get(`/..%2F${alice.user.name}/public-one.git/info/refs?service=git-upload-pack`)
      .set('Authorization', bob.auth)
      .expect(404);
  });

  it('challenges an anonymous caller alike for a missing and a private repository, so neither is revealed', async () => {
    await createRepo(alice, { name: 'hidden-from-anonymous', private: true });
    const missing = await t
      .request()
      .get(`/${alice.user.name}/nothing-here.git/info/refs?service=git-upload-pack`)
      .expect(401);
    const hidden = await t
      .request()
      .get(`/${alice.user.name}/hidden-from-anonymous.git/info/refs?service=git-upload-pack`)
      .expect(401);
    expect(missing.body).toEqual(hidden.body);
    expect(missing.headers['www-authenticate']).toBe(hidden.headers['www-authenticate']);
  });

  it('serves protocol v0 and v2', async () => {
    const dir = path.join(tempDir(), 'v2');
    await gitOk(['-c', 'protocol.version=2', 'clone', '-q', `${base}${alice.user.name}/public-one.git`, dir]);
    await gitOk(['-c', 'protocol.version=0', 'fetch', '-q', 'origin'], dir);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);
  });

  it('accepts a gzip-compressed upload-pack request', async () => {
    const sha = (await gitOk(['ls-remote', `${base}${alice.user.name}/public-one.git`, 'refs/heads/main'])).split(
      '\t',
    )[0];
    const pkt = (line: string) => (line.length + 4).toString(16).padStart(4, '0') + line;
    const request = `${pkt(`want ${sha}\n`)}0000${pkt('done\n')}`;
    const res = await t
      .request()
      .post(`/${alice.user.name}/public-one.git/git-upload-pack`)
      .set('Content-Type', 'application/x-git-upload-pack-request')
      .set('Content-Encoding', 'gzip')
      .send(zlib.gzipSync(request))
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(res.headers['content-type']).toBe('application/x-git-upload-pack-result');
    expect((res.body as Buffer).toString('latin1')).toContain('PACK');
  });
});

describe('push', () => {
  it('lets the owner push; size, updated and emptiness follow the push', async () => {
    const created = await createRepo(alice, { name: 'pushed' });
    expect(created.empty).toBe(true);
    const dir = tempDir();
    await gitOk(['init', '-q', dir]);
    // A big enough file that the size is at least 1 KiB.
    fs.writeFileSync(
      path.join(dir, 'data.bin'),
      Buffer.from(Array.from({ length: 20_000 }, (_, i) => (i * 7919) % 251)),
    );
    await gitOk(['add', 'data.bin'], dir);
    const remote = `${withCredentials(base, alice.user.name, alice.token)}${alice.user.name}/pushed.git`;
    const push = await commitAndPush(dir, 'a.txt', remote);
    expect(push.code).toBe(0);
    const after = (
      await t.request().get(`/api/v1/repos/${alice.user.name}/pushed`).set('Authorization', alice.auth).expect(200)
    ).body;
    expect(after.empty).toBe(false);
    expect(after.size).toBeGreaterThan(0);
    expect(new Date(after.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(created.updated_at).getTime());
    const ls = await gitOk(['ls-remote', remote]);
    expect(ls).toMatch(/refs\/heads\/main/);
  });

  it('makes the first pushed branch the default when the configured one was not pushed', async () => {
    await createRepo(alice, { name: 'other-branch' });
    const dir = tempDir();
    await gitOk(['init', '-q', dir]);
    const remote = `${withCredentials(base, alice.token)}${alice.user.name}/other-branch.git`;
    expect((await commitAndPush(dir, 'x.txt', remote, 'develop')).code).toBe(0);
    const repo = (await t.request().get(`/api/v1/repos/${alice.user.name}/other-branch`).expect(200)).body;
    expect(repo.default_branch).toBe('develop');
    const clone = path.join(tempDir(), 'c');
    await gitOk(['clone', '-q', `${base}${alice.user.name}/other-branch.git`, clone]);
    expect(fs.existsSync(path.join(clone, 'x.txt'))).toBe(true);
  });

  it('refuses pushes from anonymous callers (401), readers (403) and read-only tokens (403)', async () => {
    await createRepo(alice, { name: 'guarded', auto_init: true });
    const dir = path.join(tempDir(), 'g');
    await gitOk(['clone', '-q', `${base}${alice.user.name}/guarded.git`, dir]);

    await t.request().get(`/${alice.user.name}/guarded.git/info/refs?service=git-receive-pack`).expect(401);
    const anonymous = await commitAndPush(dir, 'anon.txt', `${base}${alice.user.name}/guarded.git`);
    expect(anonymous.code).not.toBe(0);

    const byReader = await commitAndPush(
      dir,
      'bob.txt',
      `${withCredentials(base, bob.token)}${alice.user.name}/guarded.git`,
    );
    expect(byReader.code).not.toBe(0);
    expect(byReader.stderr).toMatch(/403/);

    const readOnly = await createToken(t, alice.user, 'read:repository');
    // The scope follows the git service, not the method: the ref advertisement before a push needs write.
    await t
      .request()
      .get(`/${alice.user.name}/guarded.git/info/refs?service=git-receive-pack`)
      .set('Authorization', `token ${readOnly}`)
      .expect(403);
    await t
      .request()
      .get(`/${alice.user.name}/guarded.git/info/refs?service=git-upload-pack`)
      .set('Authorization', `token ${readOnly}`)
      .expect(200);
    const withReadToken = await git(
      ['push', `${withCredentials(base, readOnly)}${alice.user.name}/guarded.git`, 'HEAD:refs/heads/main'],
      dir,
    );
    expect(withReadToken.code).not.toBe(0);
  });

  it('lets a collaborator with write access push', async () => {
    const repo = await createRepo(alice, { name: 'shared', auto_init: true, private: true });
    await t.context.db.prisma.collaboration.create({ data: { repoId: repo.id, userId: bob.user.id, accessMode: 2 } });
    const dir = path.join(tempDir(), 's');
    const remote = `${withCredentials(base, bob.token)}${alice.user.name}/shared.git`;
    await gitOk(['clone', '-q', remote, dir]);
    expect((await commitAndPush(dir, 'bob.txt', remote)).code).toBe(0);
  });

  it('refuses pushes to archived repositories', async () => {
    await createRepo(alice, { name: 'frozen', auto_init: true });
    await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/frozen`)
      .set('Authorization', alice.auth)
      .send({ archived: true })
      .expect(200);
    const dir = path.join(tempDir(), 'f');
    const remote = `${withCredentials(base, alice.token)}${alice.user.name}/frozen.git`;
    await gitOk(['clone', '-q', remote, dir]);
    expect((await commitAndPush(dir, 'late.txt', remote)).code).not.toBe(0);
  });
});

describe('renames', () => {
  it('after a user rename, clones the new path; the old one follows the redirect, in the API and for git', async () => {
    const admin = await createTestUser(t, { admin: true });
    const carol = await createTestUser(t);
    await createRepo(carol, { name: 'travels', auto_init: true, description: 'moving' });
    const newName = uniqueName('carol');
    await t
      .request()
      .post(`/api/v1/admin/users/${carol.user.name}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: newName })
      .expect(204);
    expect(fs.existsSync(path.join(t.context.settings.repository.ROOT, newName.toLowerCase(), 'travels.git'))).toBe(
      true,
    );

    const fresh = path.join(tempDir(), 'new');
    await gitOk(['clone', '-q', `${base}${newName}/travels.git`, fresh]);
    expect(fs.readFileSync(path.join(fresh, 'README.md'), 'utf8')).toBe('# travels\n\nmoving\n');
    const api = await t.request().get(`/api/v1/repos/${carol.user.name}/travels`).expect(307);
    expect(api.headers.location).toBe(`/api/v1/repos/${newName}/travels`);
    const old = path.join(tempDir(), 'old');
    await gitOk(['clone', '-q', `${base}${carol.user.name}/travels.git`, old]);
    expect(fs.existsSync(path.join(old, 'README.md'))).toBe(true);
  });

  it('after a repository rename, the old URL redirects info/refs and git clones and pushes through it', async () => {
    await createRepo(alice, { name: 'was-called', auto_init: true });
    await t
      .request()
      .patch(`/api/v1/repos/${alice.user.name}/was-called`)
      .set('Authorization', alice.auth)
      .send({ name: 'Now-Called' })
      .expect(200);
    const refs = await t
      .request()
      .get(`/${alice.user.name}/was-called.git/info/refs?service=git-upload-pack`)
      .expect(307);
    expect(refs.headers.location).toBe(`/${alice.user.name}/Now-Called.git/info/refs?service=git-upload-pack`);

    const dir = path.join(tempDir(), 'renamed');
    await gitOk(['clone', '-q', `${base}${alice.user.name}/was-called.git`, dir]);
    expect(fs.existsSync(path.join(dir, 'README.md'))).toBe(true);
    const push = await commitAndPush(
      dir,
      'through-old-url.txt',
      `${withCredentials(base, alice.token)}${alice.user.name}/was-called.git`,
    );
    expect(push.code).toBe(0);
    const ls = await gitOk(['ls-remote', `${base}${alice.user.name}/Now-Called.git`, 'refs/heads/main']);
    expect(ls.split('\t')[0]).toBe((await gitOk(['rev-parse', 'HEAD'], dir)).trim());
  });
});

describe('migrate', () => {
  const migrations = () => t.context.settings.migrations as { ALLOW_LOCALNETWORKS: boolean };
  const security = () => t.context.settings.security as { IMPORT_LOCAL_PATHS: boolean };
  const repoDir = (owner: string, name: string) =>
    path.join(t.context.settings.repository.ROOT, owner.toLowerCase(), `${name.toLowerCase()}.git`);
  const migrate = (user: TestUser, body: Record<string, unknown>) =>
    t.request().post('/api/v1/repos/migrate').set('Authorization', user.auth).send(body);
  let source: string;

  beforeAll(async () => {
    await createRepo(alice, { name: 'source', auto_init: true, description: 'to copy' });
    source = `${base}${alice.user.name}/source.git`;
  });
  afterEach(() => {
    migrations().ALLOW_LOCALNETWORKS = false;
    security().IMPORT_LOCAL_PATHS = false;
  });

  it('refuses sources on the local network unless ALLOW_LOCALNETWORKS, leaving nothing behind', async () => {
    for (const clone_addr of [
      source,
      `http://localhost:${new URL(base).port}/${alice.user.name}/source.git`,
      'http://[::1]/x.git',
      'http://169.254.169.254/latest',
      'http://10.1.2.3/x.git',
      'http://192.168.0.1/x.git',
    ]) {
      const res = await migrate(bob, { clone_addr, repo_name: 'copy-refused' }).expect(422);
      expect(res.body.message).toMatch(/disallowed hosts/);
    }
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: 'copy-refused' } })).toBe(0);
    expect(fs.existsSync(repoDir(bob.user.name, 'copy-refused'))).toBe(false);
  });

  it('clones a repository served by Anvil itself when local networks are allowed', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    const res = await migrate(bob, {
      clone_addr: source,
      repo_name: 'copy',
      description: 'copied',
      service: 'git',
    }).expect(201);
    expect(res.body).toMatchObject({
      name: 'copy',
      empty: false,
      mirror: false,
      description: 'copied',
      original_url: source,
      default_branch: 'main',
    });
    expect(res.body.permissions).toEqual({ admin: true, push: true, pull: true });
    const dir = path.join(tempDir(), 'copy');
    await gitOk(['clone', '-q', `${base}${bob.user.name}/copy.git`, dir]);
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toContain('# source');
    // A plain migration keeps no link to its source.
    expect(
      (await git(['--git-dir', repoDir(bob.user.name, 'copy'), 'config', '--get', 'remote.origin.url'])).code,
    ).not.toBe(0);
  });

  it('uses credentials from the body and never shows them', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    await createRepo(alice, { name: 'private-source', auto_init: true, private: true });
    const privateSource = `${base}${alice.user.name}/private-source.git`;
    const failed = await migrate(alice, { clone_addr: privateSource, repo_name: 'no-credentials' }).expect(422);
    expect(failed.body.message).toMatch(/Authentication failed|Migration failed/);
    const res = await migrate(alice, {
      clone_addr: privateSource,
      repo_name: 'with-credentials',
      auth_username: alice.user.name,
      auth_password: alice.password,
      private: true,
    }).expect(201);
    expect(res.body.original_url).toBe(privateSource);
    expect(res.body.private).toBe(true);
    await migrate(alice, { clone_addr: privateSource, repo_name: 'with-token', auth_token: alice.token }).expect(201);
  });

  it('makes a mirror that update_mirrors can fetch', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    const res = await migrate(bob, {
      clone_addr: source,
      repo_name: 'mirrored',
      mirror: true,
      mirror_interval: '1h',
    }).expect(201);
    expect(res.body).toMatchObject({ mirror: true, mirror_interval: '1h0m0s', empty: false });
    const mirror = await t.context.db.prisma.mirror.findUnique({ where: { repoId: res.body.id } });
    expect(mirror).toMatchObject({ intervalSecs: 3600, remoteAddress: source });

    const work = path.join(tempDir(), 'w');
    const remote = `${withCredentials(base, alice.token)}${alice.user.name}/source.git`;
    await gitOk(['clone', '-q', remote, work]);
    expect((await commitAndPush(work, 'news.txt', remote)).code).toBe(0);
    const head = (await gitOk(['rev-parse', 'HEAD'], work)).trim();
    await t.context.services.repoMigrations.updateMirror(res.body.id);
    const mirrored = await gitOk(['ls-remote', `${base}${bob.user.name}/mirrored.git`, 'refs/heads/main']);
    expect(mirrored.split('\t')[0]).toBe(head);
    // Mirrors are read-only.
    expect(
      (await commitAndPush(work, 'x.txt', `${withCredentials(base, bob.token)}${bob.user.name}/mirrored.git`)).code,
    ).not.toBe(0);
  });

  it('answers 409 for a taken name and 422 for bad addresses, names and failed clones', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    await createRepo(bob, { name: 'taken' });
    await migrate(bob, { clone_addr: source, repo_name: 'taken' }).expect(409);
    await migrate(bob, { clone_addr: 'ssh://git@example.com/x.git', repo_name: 'bad-scheme' }).expect(422);
    await migrate(bob, { clone_addr: 'http://', repo_name: 'bad-url' }).expect(422);
    await migrate(bob, { clone_addr: source, repo_name: 'bad.git' }).expect(422);
    await migrate(bob, { clone_addr: source, repo_name: 'x', repo_owner: 'nobody-like-this' }).expect(422);
    // Signed in, because Anvil challenges an anonymous git caller for a missing repository as for a private one.
    const missing = await migrate(bob, {
      clone_addr: `${base}${alice.user.name}/does-not-exist.git`,
      repo_name: 'failed-clone',
      auth_username: bob.user.name,
      auth_password: bob.token,
    }).expect(422);
    expect(missing.body.message).toMatch(/^Migration failed/);
    expect(await t.context.db.prisma.repository.count({ where: { lowerName: 'failed-clone' } })).toBe(0);
    expect(fs.existsSync(repoDir(bob.user.name, 'failed-clone'))).toBe(false);
    expect(fs.readdirSync(path.join(t.context.settings.repository.ROOT, '.staging'))).toEqual([]);
  });

  it('lets only admins target other users, and org owners their orgs', async () => {
    migrations().ALLOW_LOCALNETWORKS = true;
    await migrate(bob, { clone_addr: source, repo_name: 'for-alice', repo_owner: alice.user.name }).expect(403);
    const admin = await createTestUser(t, { admin: true });
    const res = await migrate(admin, {
      clone_addr: source,
      repo_name: 'for-alice',
      repo_owner: alice.user.name,
    }).expect(201);
    expect(res.body.owner.login).toBe(alice.user.name);
  });

  it('imports local paths only for users allowed to, when the site allows it', async () => {
    const localPath = repoDir(alice.user.name, 'source');
    await migrate(alice, { clone_addr: localPath, repo_name: 'local-copy' }).expect(422);
    security().IMPORT_LOCAL_PATHS = true;
    await migrate(alice, { clone_addr: localPath, repo_name: 'local-copy' }).expect(422);
    await t.context.db.prisma.user.update({ where: { id: alice.user.id }, data: { allowImportLocal: true } });
    await migrate(alice, { clone_addr: '/does/not/exist', repo_name: 'local-copy' }).expect(422);
    const res = await migrate(alice, { clone_addr: localPath, repo_name: 'local-copy' }).expect(201);
    expect(res.body.empty).toBe(false);
  });
});
