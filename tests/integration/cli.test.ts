// The bootstrap path of a fresh install: the CLI on an empty data directory, then the server it prepared.
import { execFile } from 'node:child_process';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { chefHeaders } from '../helpers/chef-sign.ts';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

function cli(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ANVIL_DATA_DIR: dataDir,
    ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
  };
  delete env.DATABASE_URL;
  return run(process.execPath, ['dist/src/cli.js', ...args], { cwd: root, env });
}

// A test runs up to six CLI processes one after another; on a loaded machine that takes more than a minute.
jest.setTimeout(180_000);

describe('command line bootstrap', () => {
  let dataDir: string;
  let server: AnvilProcess | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-cli-'));
  });
  afterEach(() => {
    server?.child.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates an administrator with a working token on an empty data directory', async () => {
    const { stdout } = await cli(dataDir, [
      'admin',
      'user',
      'create',
      '--username',
      'root',
      '--password',
      'secret-password',
      '--email',
      'root@example.com',
      '--admin',
      '--must-change-password=false',
      '--access-token',
    ]);
    const token = stdout.trim().split('\n').pop()!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);

    server = await startAnvilProcess((port) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ANVIL_DATA_DIR: dataDir,
        PORT: String(port),
        ANVIL__server__HTTP_ADDR: '127.0.0.1',
      };
      delete env.DATABASE_URL;
      return env;
    });
    const res = await fetch(`${server.base}api/v1/user`, { headers: { Authorization: `token ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ login: 'root', is_admin: true });
  });

  it('admin user chef-keypair prints a private key the Chef registry then takes signed requests with', async () => {
    const create = ['admin', 'user', 'create', '--username', 'cook', '--password', 'secret-password'];
    await cli(dataDir, [...create, '--email', 'cook@example.com', '--must-change-password=false']);
    const { stdout } = await cli(dataDir, ['admin', 'user', 'chef-keypair', '-u', 'cook']);
    const pem = /-----BEGIN RSA PRIVATE KEY-----[\s\S]+?-----END RSA PRIVATE KEY-----\n/.exec(stdout)?.[0];
    expect(pem).toBeDefined();
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicFile = path.join(dataDir, 'other.pub');
    fs.writeFileSync(publicFile, other.publicKey.export({ type: 'spki', format: 'pem' }));
    await expect(cli(dataDir, ['admin', 'user', 'chef-keypair', '-u', 'nobody'])).rejects.toMatchObject({ code: 1 });

    server = await startAnvilProcess((port) => {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        ANVIL_DATA_DIR: dataDir,
        PORT: String(port),
        ANVIL__server__HTTP_ADDR: '127.0.0.1',
      };
      delete env.DATABASE_URL;
      return env;
    });
    const universe = `${server.base}api/packages/cook/chef/api/v1/universe`;
    const get = (key: ReturnType<typeof createPrivateKey>) =>
      fetch(universe, {
        headers: chefHeaders({ method: 'GET', path: new URL(universe).pathname, userId: 'cook', key }),
      });
    const made = createPrivateKey(pem!);
    expect((await get(made)).status).toBe(200);
    expect((await get(other.privateKey)).status).toBe(401);
    const { stdout: set } = await cli(dataDir, [
      'admin',
      'user',
      'chef-keypair',
      '-u',
      'cook',
      '--public-key-file',
      publicFile,
    ]);
    expect(set).toMatch(/Chef public key has been set/);
    expect((await get(other.privateKey)).status).toBe(200);
    expect((await get(made)).status).toBe(401);
  });

  it('refuses a second user of the same name and reports a healthy installation', async () => {
    const args = [
      'admin',
      'user',
      'create',
      '--username',
      'Dup',
      '--password',
      'secret-password',
      '--email',
      'dup@example.com',
    ];
    await cli(dataDir, args);
    await expect(cli(dataDir, [...args.slice(0, -1), 'other@example.com'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/already exists/),
    });
    const { stdout } = await cli(dataDir, ['doctor']);
    expect(stdout).toMatch(/ok {4}database: sqlite/);
  });

  it('names the key of an invalid setting', async () => {
    fs.writeFileSync(path.join(dataDir, 'app.ini'), '[api]\nMAX_RESPONSE_ITEMS = lots\n');
    await expect(cli(dataDir, ['migrate'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/\[api\] MAX_RESPONSE_ITEMS/),
    });
  });

  it.each([
    [[]],
    [['admin']],
    [['admin', 'user']],
    [['admin', 'user', 'create']],
    [['admin', 'user', 'list']],
    [['admin', 'user', 'delete']],
    [['admin', 'user', 'change-password']],
    [['admin', 'user', 'must-change-password']],
    [['admin', 'user', 'generate-access-token']],
    [['admin', 'user', 'chef-keypair']],
    [['admin', 'regenerate', 'hooks']],
    [['dump']],
    [['restore']],
    [['migrate']],
    [['doctor', 'check']],
  ])('answers --help for %j with exit 0 and changes nothing', async (command) => {
    const { stdout } = await cli(dataDir, [...command, '--help']);
    expect(stdout).toMatch(/^Usage: anvil/);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('refuses unknown flags and boolean flags that are not true or false', async () => {
    const create = ['admin', 'user', 'create', '--username', 'u', '--password', 'secret-password', '--email', 'u@e.io'];
    await expect(cli(dataDir, [...create, '--bogus'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/unknown option '--bogus'/),
    });
    await expect(cli(dataDir, [...create, '--admin', 'yes'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--admin.*'yes' is invalid/),
    });
    expect(fs.existsSync(path.join(dataDir, 'anvil.db'))).toBe(false);
  });

  it('takes the password from standard input, --admin=true, and lists and changes users', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ANVIL_DATA_DIR: dataDir,
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    };
    delete env.DATABASE_URL;
    const withStdin = (args: string[], input: string) =>
      new Promise<string>((resolve, reject) => {
        const child = execFile(process.execPath, ['dist/src/cli.js', ...args], { cwd: root, env }, (error, stdout) =>
          error ? reject(error) : resolve(stdout),
        );
        child.stdin!.end(input);
      });
    const created = await withStdin(
      [
        'admin',
        'user',
        'create',
        '--username',
        'piped',
        '--email',
        'p@example.com',
        '--password-file',
        '-',
        '--admin=true',
        '--must-change-password=false',
      ],
      'piped-password-1\n',
    );
    expect(created).toMatch(/New user 'piped' has been successfully created!/);
    const { stdout: listed } = await cli(dataDir, ['admin', 'user', 'list', '--admin']);
    expect(listed).toMatch(/\tpiped\tp@example.com\ttrue\ttrue/);
    await withStdin(
      ['admin', 'user', 'change-password', '-u', 'piped', '--password-file', '-', '--must-change-password=false'],
      'new-password-22\n',
    );
    const { stdout: token } = await cli(dataDir, ['admin', 'user', 'generate-access-token', '-u', 'piped', '--raw']);
    expect(token.trim()).toMatch(/^[0-9a-f]{40}$/);
    const dumped = await new Promise<Buffer>((resolve, reject) =>
      execFile(
        process.execPath,
        ['dist/src/cli.js', 'dump', '--file', '-'],
        { cwd: root, env, encoding: 'buffer', maxBuffer: 1 << 28 },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      ),
    );
    expect(dumped.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
  });

  it("admin regenerate hooks rewrites Anvil's shared hook scripts and names the hooks repositories carry of their own", async () => {
    // Log lines (the first run generates the at-rest key and says so) are JSON; the command's own are text.
    const regenerate = async () =>
      (await cli(dataDir, ['admin', 'regenerate', 'hooks'])).stdout
        .trim()
        .split('\n')
        .filter((line) => !line.startsWith('{'));
    const shared = ['protected-branches', 'over-quota'].map((dir) =>
      path.join(dataDir, 'git-hooks', dir, 'pre-receive'),
    );
    const first = await regenerate();
    expect(first).toEqual([
      `rewrote: ${shared[0]}`,
      `rewrote: ${shared[1]}`,
      '0 repositories checked; Anvil keeps no hooks inside them (its pushes run the scripts above)',
    ]);
    const script = fs.readFileSync(shared[0], 'utf8');
    expect(script).toMatch(/^#!\/bin\/sh/);
    expect(fs.statSync(shared[0]).mode & 0o111).not.toBe(0);

    // A script changed on disk is put back; a repository moved from Forgejo still has Forgejo's hooks.
    fs.writeFileSync(shared[0], '#!/bin/sh\nexit 0\n');
    const moved = path.join(dataDir, 'repositories', 'alice', 'moved.git');
    await run('git', ['init', '--bare', '-q', moved]);
    fs.writeFileSync(path.join(moved, 'hooks', 'pre-receive'), '#!/bin/sh\n/usr/local/bin/forgejo hook pre-receive\n');
    fs.mkdirSync(path.join(moved, 'hooks', 'pre-receive.d'));
    await run('git', ['init', '--bare', '-q', path.join(dataDir, 'repositories', 'alice', 'clean.git')]);
    const second = await regenerate();
    expect(second).toEqual([
      `rewrote: ${shared[0]}`,
      `up to date: ${shared[1]}`,
      '2 repositories checked; Anvil keeps no hooks inside them (its pushes run the scripts above)',
      'warning: alice/moved has hooks of its own, which git runs on pushes: pre-receive, pre-receive.d/',
    ]);
    expect(fs.readFileSync(shared[0], 'utf8')).toBe(script);
    // Nothing in a repository is removed.
    expect(fs.existsSync(path.join(moved, 'hooks', 'pre-receive'))).toBe(true);
  });
});
