// The bootstrap path of a fresh install: the CLI on an empty data directory, then the server it prepared.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '../..');
const run = promisify(execFile);

function cli(dataDir: string, args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, ANVIL_DATA_DIR: dataDir, ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16' };
  delete env.DATABASE_URL;
  return run(process.execPath, ['-r', './scripts/register-ts.cjs', 'src/cli.ts', ...args], { cwd: root, env });
}

async function waitFor(url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      return await fetch(url, init);
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`${url} never answered`);
}

describe('command line bootstrap', () => {
  let dataDir: string;
  let server: ChildProcess | undefined;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-cli-'));
  });
  afterEach(() => {
    server?.kill();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates an administrator with a working token on an empty data directory', async () => {
    const { stdout } = await cli(dataDir, ['admin', 'user', 'create', '--username', 'root', '--password', 'secret-password', '--email', 'root@example.com', '--admin', '--must-change-password=false', '--access-token']);
    const token = stdout.trim().split('\n').pop()!;
    expect(token).toMatch(/^[0-9a-f]{40}$/);

    const port = 41_000 + Math.floor(Math.random() * 2000);
    const env: NodeJS.ProcessEnv = { ...process.env, ANVIL_DATA_DIR: dataDir, PORT: String(port), ANVIL__server__HTTP_ADDR: '127.0.0.1', ANVIL__log__LEVEL: 'warn' };
    delete env.DATABASE_URL;
    server = spawn(process.execPath, ['-r', './scripts/register-ts.cjs', 'src/main.ts'], { cwd: root, env, stdio: 'ignore' });
    const res = await waitFor(`http://127.0.0.1:${port}/api/v1/user`, { headers: { Authorization: `token ${token}` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ login: 'root', is_admin: true });
  });

  it('refuses a second user of the same name and reports a healthy installation', async () => {
    const args = ['admin', 'user', 'create', '--username', 'Dup', '--password', 'secret-password', '--email', 'dup@example.com'];
    await cli(dataDir, args);
    await expect(cli(dataDir, [...args.slice(0, -1), 'other@example.com'])).rejects.toMatchObject({ stderr: expect.stringMatching(/already exists/) });
    const { stdout } = await cli(dataDir, ['doctor']);
    expect(stdout).toMatch(/ok {4}database: sqlite/);
  });

  it('names the key of an invalid setting', async () => {
    fs.writeFileSync(path.join(dataDir, 'app.ini'), '[api]\nMAX_RESPONSE_ITEMS = lots\n');
    await expect(cli(dataDir, ['migrate'])).rejects.toMatchObject({ stderr: expect.stringMatching(/\[api\] MAX_RESPONSE_ITEMS/) });
  });
});
