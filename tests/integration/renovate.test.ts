// Renovate, as its users run it against a Forgejo, run against a running Anvil on loopback: a repository whose
// package.json depends on a package from Anvil's own npm registry at an old version, Renovate with platform
// `gitea`, a token and no network beyond loopback (an unroutable proxy for anything else), and on Anvil the update
// pull request from its renovate/ branch (package.json at the new version) and the Dependency Dashboard issue.
// Renovate is pinned in tests/renovate with its own lockfile, apart from the project's dependencies (about 400 MB);
// it is installed there when missing. The endpoints it called are written to renovate-endpoints.txt in the work
// folder, from Anvil's access log.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type AnvilProcess, startAnvilProcess } from '../helpers/anvil-process.ts';
import { npmTarball, publishBody } from '../helpers/npm.ts';

const root = path.resolve(__dirname, '../..');
const renovateDir = path.join(root, 'tests/renovate');
const renovateBin = path.join(renovateDir, 'node_modules/renovate/dist/renovate.js');
const run = promisify(execFile);
const PACKAGE = 'left-pad-anvil';

/** Installs the pinned Renovate from its lockfile when it is not there yet. */
async function ensureRenovate(): Promise<void> {
  if (fs.existsSync(renovateBin)) return;
  await run('npm', ['ci', '--prefix', renovateDir, '--no-audit', '--no-fund'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** Method and path (query dropped, numbers kept) of every request in Anvil's access log, counted. */
function endpointsOf(output: string): Map<string, number> {
  const seen = new Map<string, number>();
  for (const line of output.split('\n')) {
    let entry: { msg?: string; req?: { method: string; path: string }; res?: { status: number } };
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (entry.msg !== 'request' || !entry.req || !entry.res) continue;
    const key = `${entry.req.method} ${entry.req.path.split('?')[0]} ${entry.res.status}`;
    seen.set(key, (seen.get(key) ?? 0) + 1);
  }
  return seen;
}

describe('Renovate against a running Anvil', () => {
  let work: string;
  let server: AnvilProcess;
  let token: string;

  const anvilEnv = (): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ANVIL_DATA_DIR: path.join(work, 'data'),
      ANVIL__security__PASSWORD_HASH_ALGO: 'argon2$1$64$1$16',
    };
    delete env.DATABASE_URL;
    return env;
  };

  async function api(method: string, url: string, body?: unknown): Promise<Response> {
    return fetch(`${server.base}api/v1/${url}`, {
      method,
      headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  async function json<T>(method: string, url: string, expected: number, body?: unknown): Promise<T> {
    const res = await api(method, url, body);
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async function publish(version: string): Promise<void> {
    const tarball = await npmTarball(PACKAGE, version);
    const res = await fetch(`${server.base}api/packages/alice/npm/${PACKAGE}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: publishBody(PACKAGE, version, tarball),
    });
    expect(res.status).toBe(201);
  }

  /** The repository alice/app: package.json on the old version, the registry in .npmrc, Renovate's config. */
  async function createRepository(): Promise<void> {
    await json('POST', 'user/repos', 201, { name: 'app', auto_init: true, default_branch: 'main' });
    const manifest = { name: 'app', version: '1.0.0', private: true, dependencies: { [PACKAGE]: '1.0.0' } };
    const files: Record<string, string> = {
      'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
      '.npmrc': `registry=${server.base}api/packages/alice/npm/\n`,
      'renovate.json': `${JSON.stringify({ extends: ['config:recommended'] }, null, 2)}\n`,
    };
    await json('POST', 'repos/alice/app/contents', 201, {
      branch: 'main',
      message: 'Depend on left-pad-anvil',
      files: Object.entries(files).map(([name, text]) => ({
        operation: 'create',
        path: name,
        content: Buffer.from(text).toString('base64'),
      })),
    });
  }

  async function runRenovate(): Promise<void> {
    const logFile = path.join(work, 'renovate.log');
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: path.join(work, 'home'),
      LANG: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      RENOVATE_PLATFORM: 'gitea',
      RENOVATE_ENDPOINT: `${server.base}api/v1/`,
      RENOVATE_TOKEN: token,
      RENOVATE_REPOSITORIES: 'alice/app',
      RENOVATE_ONBOARDING: 'false',
      RENOVATE_REQUIRE_CONFIG: 'optional',
      RENOVATE_GIT_AUTHOR: 'Renovate Bot <renovate@example.com>',
      RENOVATE_BASE_DIR: path.join(work, 'renovate'),
      RENOVATE_OSV_VULNERABILITY_ALERTS: 'false',
      RENOVATE_HOST_RULES: JSON.stringify([{ matchHost: `${server.base}api/packages/`, hostType: 'npm', token }]),
      RENOVATE_X_IGNORE_NODE_WARN: 'true',
      // Anything beyond loopback goes to a proxy that is not there, and fails at once.
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '127.0.0.1,localhost',
      LOG_LEVEL: 'debug',
      LOG_FILE: logFile,
      LOG_FILE_LEVEL: 'debug',
    };
    fs.mkdirSync(env.HOME!, { recursive: true });
    try {
      await run(process.execPath, [renovateBin], { cwd: work, env, maxBuffer: 256 * 1024 * 1024 });
    } catch (error) {
      const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
      throw new Error(`renovate failed: ${(error as Error).message}\n${log.slice(-8000)}`, { cause: error });
    }
  }

  beforeAll(async () => {
    await ensureRenovate();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-renovate-'));
    const { stdout } = await run(
      process.execPath,
      [
        'dist/src/cli.js',
        'admin',
        'user',
        'create',
        ...['--username', 'alice', '--password', 'alice-password', '--email', 'alice@example.com'],
        '--admin',
        '--must-change-password=false',
        '--access-token',
      ],
      { cwd: root, env: anvilEnv() },
    );
    token = stdout.trim().split('\n').pop()!;
    server = await startAnvilProcess((port) => ({
      ...anvilEnv(),
      PORT: String(port),
      ANVIL__server__HTTP_ADDR: '127.0.0.1',
      ANVIL_ROOT_URL: `http://127.0.0.1:${port}/`,
      ANVIL__log__ENABLE_ACCESS_LOG: 'true',
    }));
  }, 900_000);

  afterAll(() => {
    server?.child.kill();
    if (work && !process.env.ANVIL_KEEP_RENOVATE_WORK) fs.rmSync(work, { recursive: true, force: true });
  });

  it('opens the update pull request from its branch and the Dependency Dashboard issue', async () => {
    await publish('1.0.0');
    await publish('1.1.0');
    await createRepository();

    await runRenovate();

    const endpoints = [...endpointsOf(server.output()).entries()].map(([key, count]) => `${key} ×${count}`);
    fs.writeFileSync(path.join(work, 'renovate-endpoints.txt'), `${endpoints.join('\n')}\n`);
    if (process.env.ANVIL_KEEP_RENOVATE_WORK) process.stdout.write(`Renovate's work folder: ${work}\n`);

    type Pull = { title: string; state: string; head: { ref: string }; base: { ref: string } };
    const pulls = await json<Pull[]>('GET', 'repos/alice/app/pulls?state=open', 200);
    const update = pulls.find((pull) => pull.head.ref.startsWith('renovate/') && pull.title.includes(PACKAGE));
    expect(update).toMatchObject({ state: 'open', base: { ref: 'main' } });

    const branch = encodeURIComponent(update!.head.ref);
    const file = await json<{ content: string }>('GET', `repos/alice/app/contents/package.json?ref=${branch}`, 200);
    const manifest = JSON.parse(Buffer.from(file.content, 'base64').toString('utf8'));
    expect(manifest.dependencies).toEqual({ [PACKAGE]: '1.1.0' });
    const onMain = await json<{ content: string }>('GET', 'repos/alice/app/contents/package.json?ref=main', 200);
    expect(JSON.parse(Buffer.from(onMain.content, 'base64').toString('utf8')).dependencies).toEqual({
      [PACKAGE]: '1.0.0',
    });

    type Issue = { title: string; state: string; body: string };
    const issues = await json<Issue[]>('GET', 'repos/alice/app/issues?state=open&type=issues', 200);
    const dashboard = issues.find((issue) => issue.title === 'Dependency Dashboard');
    expect(dashboard?.body).toContain(PACKAGE);
  }, 900_000);
});
