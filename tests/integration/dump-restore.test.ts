// `cli dump` while the server serves and writes, then `cli restore` into an empty data directory (and an empty
// database on PostgreSQL): a second Anvil started there answers the API as the first did, serves the same git
// history and package bytes, still decrypts what was stored encrypted and still accepts the same credentials.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import { Jimp } from 'jimp';
import type supertest from 'supertest';
import { ownerScope } from '../../src/domain/action-scope.ts';
import { ArchiveWriter } from '../../src/maintenance/archive.ts';
import { restoreInstance } from '../../src/maintenance/restore.ts';
import { basicAuth, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { gitOk, listen, tempDir, withCredentials } from '../helpers/git-client.ts';
import { type HookReceiver, startHookReceiver } from '../helpers/hook-receiver.ts';
import { genericUrl } from '../helpers/packages.ts';
import { type SecondApp, startSecondApp } from '../helpers/second-app.ts';
import { freshPostgresDatabase, startTestApp, type TestApp } from '../helpers/test-app.ts';

const ROOT = path.resolve(__dirname, '../..');
const HOOK_SECRET = 'hook-secret-value';
const ACTION_SECRET = 'deploy key value';

let t: TestApp;
let server: Server;
let base: string;
let receiver: HookReceiver;
let admin: TestUser;
let work: string;
const member = { name: uniqueName('member'), password: 'member-password-1', token: '' };
const org = uniqueName('org');
const repo = 'project';
let teamId: number;
let pushedCommit: string;
const packageBytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));

/** Runs the command-line tool as an operator would, in its own process, while this process keeps serving. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ANVIL__log__LEVEL: 'warn', ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/src/cli.js', ...args],
      { cwd: ROOT, env: childEnv, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) || 1 : 0, stdout, stderr }),
    );
  });
}

function binary(res: supertest.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

const auth = (token: string) => `token ${token}`;

beforeAll(async () => {
  work = tempDir('anvil-dump-test-');
  receiver = await startHookReceiver();
  t = await startTestApp({ ANVIL__webhook__ALLOWED_HOST_LIST: 'loopback' });
  // The restored instance has only this file to learn that hooks may reach loopback.
  fs.writeFileSync(path.join(t.dataDir, 'app.ini'), '[webhook]\nALLOWED_HOST_LIST = loopback\n');
  ({ server, base } = await listen(t));
  admin = await createTestUser(t, { admin: true });

  // Everything else through the API.
  await t
    .request()
    .post('/api/v1/admin/users')
    .set('Authorization', admin.auth)
    .send({
      username: member.name,
      email: `${member.name}@example.com`,
      password: member.password,
      must_change_password: false,
    })
    .expect(201);
  const minted = await t
    .request()
    .post(`/api/v1/users/${member.name}/tokens`)
    .set('Authorization', basicAuth(member.name, member.password))
    .send({ name: 'backup-test', scopes: ['all'] })
    .expect(201);
  member.token = minted.body.sha1;
  await t.request().post('/api/v1/orgs').set('Authorization', admin.auth).send({ username: org }).expect(201);
  const team = await t
    .request()
    .post(`/api/v1/orgs/${org}/teams`)
    .set('Authorization', admin.auth)
    .send({
      name: 'writers',
      permission: 'write',
      units: ['repo.code', 'repo.packages'],
      includes_all_repositories: true,
    })
    .expect(201);
  teamId = team.body.id;
  await t.request().put(`/api/v1/teams/${teamId}/members/${member.name}`).set('Authorization', admin.auth).expect(204);
  await t.request().post(`/api/v1/orgs/${org}/repos`).set('Authorization', admin.auth).send({ name: repo }).expect(201);

  const checkout = path.join(work, 'checkout');
  fs.mkdirSync(checkout);
  await gitOk(['init', '-q'], checkout);
  fs.writeFileSync(path.join(checkout, 'README.md'), '# kept across a restore\n');
  await gitOk(['add', '.'], checkout);
  await gitOk(['commit', '-q', '-m', 'first'], checkout);
  pushedCommit = (await gitOk(['rev-parse', 'HEAD'], checkout)).trim();
  await gitOk(
    ['push', '-q', `${withCredentials(base, member.name, member.token)}${org}/${repo}.git`, 'HEAD:refs/heads/main'],
    checkout,
  );

  await t
    .request()
    .put(genericUrl(org, 'tool', '1.0.0', 'tool.bin'))
    .set('Authorization', auth(member.token))
    .set('Content-Type', 'application/octet-stream')
    .send(packageBytes)
    .expect(201);
  const png = await new Jimp({ width: 64, height: 48, color: 0x3366ccff }).getBuffer('image/png');
  await t
    .request()
    .post(`/api/v1/orgs/${org}/avatar`)
    .set('Authorization', admin.auth)
    .send({ image: png.toString('base64') })
    .expect(204);
  await t
    .request()
    .put(`/api/v1/orgs/${org}/actions/secrets/DEPLOY_KEY`)
    .set('Authorization', admin.auth)
    .send({ data: ACTION_SECRET })
    .expect(201);
  await t
    .request()
    .post(`/api/v1/orgs/${org}/hooks`)
    .set('Authorization', admin.auth)
    .send({
      type: 'gitea',
      active: true,
      events: ['repository'],
      config: { url: `${receiver.url}/restored`, content_type: 'json', secret: HOOK_SECRET },
    })
    .expect(201);
});

afterAll(async () => {
  await receiver?.close();
  server?.close();
  await t?.close();
  fs.rmSync(work, { recursive: true, force: true });
});

const databaseEnv = (url: string | undefined): Record<string, string> => (url ? { DATABASE_URL: url } : {});

describe('dump and restore', () => {
  let archive: string;
  let restoredDir: string;
  let restoreDatabase: { url: string; drop: () => Promise<void> } | null = null;
  let restored: SecondApp;
  const writtenDuringDump: string[] = [];

  afterAll(async () => {
    await restored?.context.services.hookDeliveries.stopWorker();
    await restored?.close();
    await restoreDatabase?.drop();
  });

  it('dumps one archive while the server keeps writing', async () => {
    archive = path.join(work, 'backup.tar.gz');
    let writing = true;
    const writes = (async () => {
      for (let i = 0; writing; i++) {
        const name = `busy${i}`;
        await t
          .request()
          .post(`/api/v1/orgs/${org}/repos`)
          .set('Authorization', admin.auth)
          .send({ name, auto_init: true })
          .expect(201);
        await t
          .request()
          .put(genericUrl(org, 'busy', `${i}.0.0`, 'data.bin'))
          .set('Authorization', auth(member.token))
          .set('Content-Type', 'application/octet-stream')
          .send(Buffer.from(`busy ${i}`))
          .expect(201);
        writtenDuringDump.push(name);
      }
    })();
    const dumped = await cli(['dump', '--file', archive], {
      ANVIL_DATA_DIR: t.dataDir,
      ...databaseEnv(t.context.settings.database.URL),
    });
    writing = false;
    await writes;
    expect(dumped.stderr).toBe('');
    expect(dumped.code).toBe(0);
    expect(dumped.stdout).toContain(`Finished dumping in file ${archive}`);
    expect(writtenDuringDump.length).toBeGreaterThan(0);
    expect(fs.statSync(archive).mode & 0o777).toBe(0o600);
  });

  it('restores into an empty data directory (and an empty database)', async () => {
    restoredDir = path.join(work, 'restored');
    if (t.context.settings.database.URL)
      restoreDatabase = await freshPostgresDatabase(process.env.TEST_DATABASE_URL!, { empty: true });
    const result = await cli(['restore', archive], {
      ANVIL_DATA_DIR: restoredDir,
      ...databaseEnv(restoreDatabase?.url),
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Restored.');
    expect(fs.readFileSync(path.join(restoredDir, 'app.ini'), 'utf8')).toContain('ALLOWED_HOST_LIST = loopback');
    restored = await startSecondApp(t, { ANVIL_DATA_DIR: restoredDir, ...databaseEnv(restoreDatabase?.url) });
  });

  it('refuses a data directory that is not empty, and changes nothing there', async () => {
    const before = fs.readdirSync(restoredDir).sort();
    const result = await cli(['restore', archive], {
      ANVIL_DATA_DIR: restoredDir,
      ...databaseEnv(restoreDatabase?.url),
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the data directory ${restoredDir} is not empty`);
    expect(fs.readdirSync(restoredDir).sort()).toEqual(before);
  });

  it('refuses a database that is not empty, and leaves the data directory empty', async () => {
    const elsewhere = path.join(work, 'elsewhere');
    fs.mkdirSync(elsewhere);
    if (restoreDatabase) {
      const result = await cli(['restore', archive], { ANVIL_DATA_DIR: elsewhere, DATABASE_URL: restoreDatabase.url });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/already has \d+ tables; restore needs an empty database/);
    } else {
      // A SQLite file outside the data directory that already exists.
      const existing = path.join(restoredDir, 'anvil.db');
      const result = await cli(['restore', archive], {
        ANVIL_DATA_DIR: elsewhere,
        ANVIL__database__SQLITE_PATH: existing,
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`the database file ${existing} exists`);
    }
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('answers the same organization, team members and repository', async () => {
    for (const url of [
      `/api/v1/orgs/${org}`,
      `/api/v1/teams/${teamId}/members`,
      `/api/v1/repos/${org}/${repo}`,
      `/api/v1/orgs/${org}/teams`,
    ]) {
      const before = await t.request().get(url).set('Authorization', admin.auth).expect(200);
      const after = await restored.request().get(url).set('Authorization', admin.auth).expect(200);
      expect(after.body).toEqual(before.body);
    }
    const members = await restored
      .request()
      .get(`/api/v1/teams/${teamId}/members`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(members.body.map((user: { login: string }) => user.login)).toEqual([member.name]);
  });

  it('serves the pushed commit to git clone', async () => {
    const listening = await listen(restored);
    try {
      const clone = path.join(work, 'clone');
      await gitOk([
        'clone',
        '-q',
        `${withCredentials(listening.base, member.name, member.token)}${org}/${repo}.git`,
        clone,
      ]);
      expect((await gitOk(['rev-parse', 'HEAD'], clone)).trim()).toBe(pushedCommit);
      expect(fs.readFileSync(path.join(clone, 'README.md'), 'utf8')).toBe('# kept across a restore\n');
    } finally {
      listening.server.close();
    }
  });

  it('serves the package file byte for byte and the same avatar', async () => {
    const download = await restored
      .request()
      .get(genericUrl(org, 'tool', '1.0.0', 'tool.bin'))
      .set('Authorization', auth(member.token))
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(Buffer.compare(download.body as Buffer, packageBytes)).toBe(0);

    const { body: orgBody } = await restored.request().get(`/api/v1/orgs/${org}`).expect(200);
    const avatarPath = new URL(orgBody.avatar_url).pathname;
    expect(avatarPath).toMatch(/^\/avatars\/[0-9a-f]+/);
    const before = await t.request().get(avatarPath).buffer(true).parse(binary).expect(200);
    const after = await restored.request().get(avatarPath).buffer(true).parse(binary).expect(200);
    expect(after.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(after.body as Buffer, before.body as Buffer)).toBe(0);
  });

  it('still authenticates the same token and password', async () => {
    const byToken = await restored.request().get('/api/v1/user').set('Authorization', auth(member.token)).expect(200);
    expect(byToken.body.login).toBe(member.name);
    const byPassword = await restored
      .request()
      .get('/api/v1/user')
      .set('Authorization', basicAuth(member.name, member.password))
      .expect(200);
    expect(byPassword.body.login).toBe(member.name);
    await restored
      .request()
      .get('/api/v1/user')
      .set('Authorization', auth('0'.repeat(40)))
      .expect(401);
  });

  it('still decrypts stored secrets: the action secret reads back and the webhook signs with its secret', async () => {
    const orgUser = await restored.context.db.prisma.user.findFirstOrThrow({ where: { lowerName: org } });
    expect(await restored.context.repos.actionSecrets.values(ownerScope(orgUser))).toEqual(
      new Map([['DEPLOY_KEY', ACTION_SECRET]]),
    );

    restored.context.services.hookDeliveries.startWorker(30, 4);
    await restored
      .request()
      .post(`/api/v1/orgs/${org}/repos`)
      .set('Authorization', admin.auth)
      .send({ name: 'after-restore' })
      .expect(201);
    const isAfterRestore = (body: Buffer) => JSON.parse(body.toString()).repository?.name === 'after-restore';
    await receiver.until((received) => received.some((hook) => hook.path === '/restored' && isAfterRestore(hook.body)));
    const hook = receiver.at('/restored').find((candidate) => isAfterRestore(candidate.body))!;
    expect(hook.headers['x-forgejo-signature']).toBe(createHmac('sha256', HOOK_SECRET).update(hook.body).digest('hex'));
  });

  it('leaves nothing half-made by the writes during the dump: every repository it lists clones, every package downloads', async () => {
    const listening = await listen(restored);
    try {
      const repos = await restored
        .request()
        .get(`/api/v1/orgs/${org}/repos?limit=50`)
        .set('Authorization', admin.auth)
        .expect(200);
      const busy = repos.body
        .map((entry: { name: string }) => entry.name)
        .filter((name: string) => name.startsWith('busy'));
      expect(busy.length).toBeGreaterThan(0);
      for (const name of busy) {
        const heads = await gitOk([
          'ls-remote',
          '--heads',
          `${withCredentials(listening.base, member.name, member.token)}${org}/${name}.git`,
        ]);
        expect(heads).toMatch(/refs\/heads\/main/);
      }
      const packages = await restored
        .request()
        .get(`/api/v1/packages/${org}?type=generic&q=busy&limit=50`)
        .set('Authorization', admin.auth)
        .expect(200);
      expect(packages.body.length).toBeGreaterThan(0);
      for (const entry of packages.body as { version: string }[]) {
        const file = await restored
          .request()
          .get(genericUrl(org, 'busy', entry.version, 'data.bin'))
          .set('Authorization', auth(member.token))
          .buffer(true)
          .parse(binary)
          .expect(200);
        expect((file.body as Buffer).toString()).toBe(`busy ${entry.version.split('.')[0]}`);
      }
    } finally {
      listening.server.close();
    }
  });
});

describe('restore of an archive that is not a good dump', () => {
  async function craft(entries: { name: string; data?: string; type?: 'file' | 'directory' }[]): Promise<string> {
    const file = path.join(work, `${uniqueName('crafted')}.tar.gz`);
    const writer = new ArchiveWriter(fs.createWriteStream(file));
    for (const entry of entries) {
      if (entry.type === 'directory') await writer.addDirectory(entry.name, { mode: 0o755, mtime: new Date() });
      else await writer.addBuffer(entry.name, Buffer.from(entry.data ?? ''));
    }
    await writer.finish();
    return file;
  }
  const manifest = (database = t.context.settings.database.URL ? 'postgresql' : 'sqlite') =>
    JSON.stringify({
      format: 'anvil-dump',
      formatVersion: 1,
      anvilVersion: 'test',
      createdAt: new Date().toISOString(),
      database,
    });

  it('refuses an archive that does not begin with the manifest, writing nothing', async () => {
    const target = fs.mkdtempSync(path.join(work, 'restore-'));
    const archive = await craft([{ name: 'data/secret.key', data: 'x' }]);
    await expect(restoreInstance(archive, { ANVIL_DATA_DIR: target })).rejects.toThrow('is not an Anvil dump');
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('refuses a newer format', async () => {
    const target = fs.mkdtempSync(path.join(work, 'restore-'));
    const archive = await craft([
      { name: 'anvil-dump.json', data: JSON.stringify({ ...JSON.parse(manifest()), formatVersion: 2 }) },
    ]);
    await expect(restoreInstance(archive, { ANVIL_DATA_DIR: target })).rejects.toThrow(
      'this dump has format version 2',
    );
  });

  it('refuses an entry that climbs out of its folder, and removes what it had written', async () => {
    const outer = fs.mkdtempSync(path.join(work, 'restore-'));
    const target = path.join(outer, 'data');
    const archive = await craft([
      { name: 'anvil-dump.json', data: manifest('sqlite') },
      { name: 'data/avatars', type: 'directory' },
      { name: 'data/avatars/ok', data: 'fine' },
      { name: 'data/../escaped', data: 'bad' },
    ]);
    await expect(restoreInstance(archive, { ANVIL_DATA_DIR: target })).rejects.toThrow('points outside its folder');
    expect(fs.existsSync(path.join(outer, 'escaped'))).toBe(false);
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('refuses a PostgreSQL dump without a PostgreSQL database to restore into', async () => {
    const target = fs.mkdtempSync(path.join(work, 'restore-'));
    const archive = await craft([
      { name: 'anvil-dump.json', data: manifest('postgresql') },
      { name: 'anvil-db.pgdump', data: '' },
    ]);
    const env: NodeJS.ProcessEnv = { ANVIL_DATA_DIR: target };
    await expect(restoreInstance(archive, env)).rejects.toThrow('set DATABASE_URL to an empty PostgreSQL database');
    expect(fs.readdirSync(target)).toEqual([]);
  });
});
