// Renovate, as its users run it against a Forgejo, run against a running Anvil on loopback: repositories whose
// package.json depends on a package from Anvil's own npm registry at an old version, Renovate with platform `gitea`,
// a bot user's token (a write collaborator) and no network beyond loopback (an unroutable proxy for anything else).
// On Anvil: the update pull request from its renovate/ branch (package.json at the new version) and the Dependency
// Dashboard issue; a later run moves the same pull request to a newer version; and a repository without a config
// gets the onboarding pull request, which the owner merges, and then its update pull request; with automerge,
// Renovate asks Anvil to merge when the checks succeed, which it does once the required check turns green.
// Renovate is pinned in tests/renovate with its own lockfile, apart from the project's dependencies (about 400 MB),
// and installed there when missing. ANVIL_KEEP_RENOVATE_WORK=1 keeps the work folder: Renovate's debug logs
// (renovate-<n>.log) and the endpoints each run called, from Anvil's access log (renovate-<n>-endpoints.txt).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
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
  let anvil: ClientTestServer;
  /** Renovate's home, base directory and logs: a folder apart from Anvil's, so ANVIL_KEEP_RENOVATE_WORK can keep it. */
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let botToken: string;
  let runs = 0;

  /** A call to the API as alice; throws unless it answers `expected`. */
  async function api<T>(method: string, url: string, expected: number, body?: unknown): Promise<T> {
    const res = await fetch(`${server.base}api/v1/${url}`, {
      method,
      headers: { Authorization: `token ${aliceToken}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status !== expected) throw new Error(`${method} ${url}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  async function publish(version: string): Promise<void> {
    const tarball = await npmTarball(PACKAGE, version);
    const res = await fetch(`${server.base}api/packages/alice/npm/${PACKAGE}`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${aliceToken}`, 'Content-Type': 'application/json' },
      body: publishBody(PACKAGE, version, tarball),
    });
    expect(res.status).toBe(201);
  }

  /** alice/<name>: package.json on 1.0.0, the registry in .npmrc, the given files; the bot a write collaborator. */
  async function createRepository(name: string, extra: Record<string, string>): Promise<void> {
    await api('POST', 'user/repos', 201, { name, auto_init: true, default_branch: 'main' });
    const manifest = { name, version: '1.0.0', private: true, dependencies: { [PACKAGE]: '1.0.0' } };
    const files: Record<string, string> = {
      'package.json': `${JSON.stringify(manifest, null, 2)}\n`,
      '.npmrc': `registry=${server.base}api/packages/alice/npm/\n`,
      ...extra,
    };
    await api('POST', `repos/alice/${name}/contents`, 201, {
      branch: 'main',
      message: `Depend on ${PACKAGE}`,
      files: Object.entries(files).map(([file, text]) => ({
        operation: 'create',
        path: file,
        content: Buffer.from(text).toString('base64'),
      })),
    });
    await api('PUT', `repos/alice/${name}/collaborators/renovate-bot`, 204, { permission: 'write' });
  }

  /** Runs Renovate on one repository as the bot; its debug log and the endpoints it called go to the work folder. */
  async function runRenovate(repository: string, onboarding: boolean): Promise<void> {
    runs += 1;
    const logFile = path.join(work, `renovate-${runs}.log`);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: path.join(work, 'home'),
      LANG: 'C',
      GIT_CONFIG_NOSYSTEM: '1',
      RENOVATE_PLATFORM: 'gitea',
      RENOVATE_ENDPOINT: `${server.base}api/v1/`,
      RENOVATE_TOKEN: botToken,
      RENOVATE_REPOSITORIES: repository,
      RENOVATE_ONBOARDING: String(onboarding),
      RENOVATE_REQUIRE_CONFIG: onboarding ? 'required' : 'optional',
      // What self-hosters set: Renovate's own default proposes a config with no presets (so no dashboard).
      RENOVATE_ONBOARDING_CONFIG: JSON.stringify({ extends: ['config:recommended'] }),
      RENOVATE_GIT_AUTHOR: 'Renovate Bot <renovate-bot@example.com>',
      RENOVATE_BASE_DIR: path.join(work, 'renovate'),
      RENOVATE_OSV_VULNERABILITY_ALERTS: 'false',
      RENOVATE_HOST_RULES: JSON.stringify([
        { matchHost: `${server.base}api/packages/`, hostType: 'npm', token: botToken },
      ]),
      RENOVATE_X_IGNORE_NODE_WARN: 'true',
      // Anything beyond loopback goes to a proxy that is not there, and fails at once.
      HTTP_PROXY: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      NO_PROXY: '127.0.0.1,localhost',
      // Renovate lowercases LOG_FILE's path, so its log is read from standard output instead.
      LOG_LEVEL: 'debug',
      LOG_FORMAT: 'json',
    };
    fs.mkdirSync(env.HOME!, { recursive: true });
    const seen = server.output().length;
    let log: string;
    try {
      log = (await run(process.execPath, [renovateBin], { cwd: work, env, maxBuffer: 256 * 1024 * 1024 })).stdout;
    } catch (error) {
      const failed = error as Error & { stdout?: string };
      fs.writeFileSync(logFile, failed.stdout ?? '');
      throw new Error(`renovate failed: ${failed.message}\n${(failed.stdout ?? '').slice(-8000)}`, { cause: error });
    }
    fs.writeFileSync(logFile, log);
    const endpoints = [...endpointsOf(server.output().slice(seen)).entries()].map(([key, n]) => `${key} ×${n}`);
    fs.writeFileSync(logFile.replace(/\.log$/, '-endpoints.txt'), `${endpoints.join('\n')}\n`);
    const entries = log
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { level: number; msg: string; hosts?: Record<string, unknown> });
    // Nothing worse than info (30) was logged, and every request Renovate made went to Anvil.
    expect(entries.filter((entry) => entry.level > 30).map((entry) => entry.msg)).toEqual([]);
    const statistics = entries.find((entry) => entry.msg === 'HTTP statistics');
    expect(Object.keys(statistics?.hosts ?? {})).toEqual(['127.0.0.1']);
  }

  type Pull = {
    labels: { name: string }[];
    assignees: { login: string }[] | null;
    number: number;
    title: string;
    state: string;
    merged: boolean;
    head: { ref: string };
    base: { ref: string };
  };
  type Issue = { number: number; title: string; state: string; body: string };

  async function dependencyIn(repository: string, ref: string): Promise<string> {
    const file = await api<{ content: string }>(
      'GET',
      `repos/${repository}/contents/package.json?ref=${encodeURIComponent(ref)}`,
      200,
    );
    return JSON.parse(Buffer.from(file.content, 'base64').toString('utf8')).dependencies[PACKAGE];
  }

  async function updatePull(repository: string): Promise<Pull> {
    const pulls = await api<Pull[]>('GET', `repos/${repository}/pulls?state=open`, 200);
    const updates = pulls.filter((pull) => pull.head.ref.startsWith('renovate/') && pull.title.includes(PACKAGE));
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ state: 'open', base: { ref: 'main' } });
    return updates[0];
  }

  async function dashboard(repository: string): Promise<Issue> {
    const issues = await api<Issue[]>('GET', `repos/${repository}/issues?state=open&type=issues`, 200);
    const dashboards = issues.filter((issue) => issue.title === 'Dependency Dashboard');
    expect(dashboards).toHaveLength(1);
    return dashboards[0];
  }

  beforeAll(async () => {
    await ensureRenovate();
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-renovate-'));
    anvil = await startClientTestServer({
      name: 'renovate-server',
      users: ['alice', 'renovate-bot'],
      env: { ANVIL__log__ENABLE_ACCESS_LOG: 'true' },
    });
    server = anvil.server;
    ({ alice: aliceToken, 'renovate-bot': botToken } = anvil.tokens);
    await publish('1.0.0');
    await publish('1.1.0');
  }, 900_000);

  afterAll(async () => {
    await anvil?.stop();
    if (!work) return;
    if (process.env.ANVIL_KEEP_RENOVATE_WORK) process.stdout.write(`Renovate's work folder: ${work}\n`);
    else fs.rmSync(work, { recursive: true, force: true });
  });

  it('opens the update pull request from its branch and the Dependency Dashboard issue', async () => {
    const config = { extends: ['config:recommended'], labels: ['dependencies'], assignees: ['alice'] };
    await createRepository('app', { 'renovate.json': `${JSON.stringify(config, null, 2)}\n` });
    await api('POST', 'repos/alice/app/labels', 201, { name: 'dependencies', color: '#0075ca' });

    await runRenovate('alice/app', false);

    const update = await updatePull('alice/app');
    expect(update.labels.map((label) => label.name)).toEqual(['dependencies']);
    expect(update.assignees?.map((user) => user.login)).toEqual(['alice']);
    expect(await dependencyIn('alice/app', update.head.ref)).toBe('1.1.0');
    expect(await dependencyIn('alice/app', 'main')).toBe('1.0.0');
    expect((await dashboard('alice/app')).body).toContain(PACKAGE);
  }, 600_000);

  it('moves the same pull request to a newer version on the next run', async () => {
    const before = await updatePull('alice/app');
    await publish('1.2.0');

    await runRenovate('alice/app', false);

    const after = await updatePull('alice/app');
    expect(after.number).toBe(before.number);
    expect(await dependencyIn('alice/app', after.head.ref)).toBe('1.2.0');
    expect((await dashboard('alice/app')).body).toContain(PACKAGE);
  }, 600_000);

  it('onboards a repository without a config: the owner merges the onboarding pull request, then updates come', async () => {
    await createRepository('web', {});

    await runRenovate('alice/web', true);

    const pulls = await api<Pull[]>('GET', 'repos/alice/web/pulls?state=open', 200);
    expect(pulls.map((pull) => pull.title)).toEqual(['Configure Renovate']);
    const onboarding = pulls[0];
    expect(onboarding.head.ref).toBe('renovate/configure');
    await api('POST', `repos/alice/web/pulls/${onboarding.number}/merge`, 200, { Do: 'merge' });
    const config = await api<{ content: string }>('GET', 'repos/alice/web/contents/renovate.json?ref=main', 200);
    expect(JSON.parse(Buffer.from(config.content, 'base64').toString('utf8'))).toMatchObject({
      extends: ['config:recommended'],
    });

    await runRenovate('alice/web', true);

    const update = await updatePull('alice/web');
    expect(await dependencyIn('alice/web', update.head.ref)).toBe('1.2.0');
    expect((await dashboard('alice/web')).body).toContain(PACKAGE);
  }, 600_000);
  it('automerges through merge_when_checks_succeed: scheduled until the required check turns green', async () => {
    const config = { extends: ['config:recommended'], automerge: true };
    await createRepository('svc', { 'renovate.json': `${JSON.stringify(config, null, 2)}\n` });
    await api('POST', 'repos/alice/svc/branch_protections', 201, {
      rule_name: 'main',
      enable_status_check: true,
      status_check_contexts: ['ci/test'],
    });

    await runRenovate('alice/svc', false);

    const update = await updatePull('alice/svc');
    expect(await dependencyIn('alice/svc', 'main')).toBe('1.0.0');
    const head = await api<{ head: { sha: string } }>('GET', `repos/alice/svc/pulls/${update.number}`, 200);
    await api('POST', `repos/alice/svc/statuses/${head.head.sha}`, 201, { state: 'success', context: 'ci/test' });

    const done = await api<Pull>('GET', `repos/alice/svc/pulls/${update.number}`, 200);
    expect(done.merged).toBe(true);
    expect(await dependencyIn('alice/svc', 'main')).toBe('1.2.0');
    const branch = await fetch(`${server.base}api/v1/repos/alice/svc/branches/${encodeURIComponent(update.head.ref)}`);
    expect(branch.status).toBe(404);
  }, 600_000);
});
