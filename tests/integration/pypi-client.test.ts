// The PyPI registry driven by the real clients: a project built here without network (python3 -m build
// --no-isolation) into an sdist and a wheel, uploaded by twine, installed by pip from the simple index into a fresh
// directory and imported, downloaded by pip; a second upload refused; a private organization's project refused to
// an outsider and to anonymous pip; token scopes; a version deleted through the API no longer installs.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
/** Debian's interpreter holds the Debian packages the test uses (build, setuptools, wheel, pip). */
const python = fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const hasPython =
  has('twine') && spawnSync(python, ['-c', 'import build, setuptools, wheel, pip'], { stdio: 'ignore' }).status === 0;
if (!hasPython) {
  if (process.env.CI) throw new Error('twine or python3-pip/build/wheel is missing: .ci/run installs them');
  console.log('pypi client test skipped: apt-get install twine python3-pip python3-build python3-wheel');
}
const describeWithPython = hasPython ? describe : describe.skip;

const PROJECT = 'Anvil_Probe';
const NORMAL = 'anvil-probe';

describeWithPython('twine and pip against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let sdist: string;
  let wheel: string;

  const api = (pathName: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(`${server.base}api/v1/${pathName}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Authorization: init.auth ?? `token ${aliceToken}` },
    });

  /** A token of alice's with these scopes. */
  async function scopedToken(scopes: string[]): Promise<string> {
    const res = await api('users/alice/tokens', {
      method: 'POST',
      auth: `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
      body: JSON.stringify({ name: `t${Math.random().toString(36).slice(2)}`, scopes }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sha1: string }).sha1;
  }

  const registry = (owner: string, user?: string, secret?: string) => {
    const credentials = user ? `${encodeURIComponent(user)}:${encodeURIComponent(secret ?? '')}@` : '';
    return `http://${credentials}127.0.0.1:${server.port}/api/packages/${owner}/pypi`;
  };

  /** The clients see no configuration of this machine's user: HOME is the test's directory. */
  const clientEnv = () => ({ ...process.env, HOME: work, PIP_CONFIG_FILE: os.devNull, PYTHONNOUSERSITE: '1' });

  const twine = (owner: string, user: string, secret: string, files: string[], extra: string[] = []) =>
    run('twine', ['upload', '--non-interactive', '--disable-progress-bar', ...extra, ...files], {
      env: { ...clientEnv(), TWINE_REPOSITORY_URL: registry(owner), TWINE_USERNAME: user, TWINE_PASSWORD: secret },
    });

  /** What a twine run that failed printed (twine reports on standard output). */
  const twineFailure = (owner: string, user: string, secret: string, files: string[]) =>
    twine(owner, user, secret, files).then(
      () => 'twine succeeded',
      (error: { stdout: string; stderr: string }) => `${error.stdout}${error.stderr}`,
    );

  const pip = (args: string[]) =>
    run(python, ['-m', 'pip', '--disable-pip-version-check', '--no-cache-dir', '--no-input', ...args], {
      env: clientEnv(),
    });

  /** pip install into a fresh directory, then the module imported from there; answers what it prints. */
  async function installAndImport(index: string): Promise<string> {
    const target = fs.mkdtempSync(path.join(work, 'target-'));
    await pip(['install', '--no-deps', '--index-url', `${index}/simple`, '--target', target, PROJECT]);
    const { stdout } = await run(python, ['-c', 'import anvilprobe; print(anvilprobe.VALUE)'], {
      env: { ...clientEnv(), PYTHONPATH: target },
    });
    return stdout.trim();
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-pypi-'));
    const project = path.join(work, 'project');
    fs.mkdirSync(path.join(project, 'src', 'anvilprobe'), { recursive: true });
    fs.writeFileSync(
      path.join(project, 'pyproject.toml'),
      [
        '[build-system]',
        'requires = ["setuptools"]',
        'build-backend = "setuptools.build_meta"',
        '[project]',
        `name = "${PROJECT}"`,
        'version = "1.2.0"',
        'description = "A probe for the registry"',
        'requires-python = ">=3.7"',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(project, 'src', 'anvilprobe', '__init__.py'), 'VALUE = 42\n');
    await run(python, ['-m', 'build', '--no-isolation', '--outdir', path.join(work, 'dist'), project], {
      env: clientEnv(),
    });
    const built = fs.readdirSync(path.join(work, 'dist'));
    sdist = path.join(
      work,
      'dist',
      built.find((name) => name.endsWith('.tar.gz'))!,
    );
    wheel = path.join(
      work,
      'dist',
      built.find((name) => name.endsWith('.whl'))!,
    );

    anvil = await startClientTestServer({ name: 'pypi', work, users: ['alice', 'bob'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('uploads an sdist and a wheel with twine, installs with pip into a fresh directory and imports it', async () => {
    await twine('alice', 'alice', aliceToken, [sdist, wheel]);
    expect(await installAndImport(registry('alice'))).toBe('42');

    const listed = await api('packages/alice?type=pypi');
    const packages = (await listed.json()) as { name: string; version: string; type: string }[];
    expect(packages).toEqual([expect.objectContaining({ type: 'pypi', name: 'Anvil-Probe', version: '1.2.0' })]);
  }, 120_000);

  it('downloads the wheel and the sdist with pip, byte for byte', async () => {
    const into = fs.mkdtempSync(path.join(work, 'download-'));
    const index = `${registry('alice')}/simple`;
    await pip(['download', '--no-deps', '--only-binary', ':all:', '--index-url', index, '--dest', into, NORMAL]);
    await pip(
      ['download', '--no-deps', '--no-binary', ':all:', '--no-build-isolation', '--index-url', index].concat([
        '--dest',
        into,
        `${NORMAL}==1.2.0`,
      ]),
    );
    for (const file of [wheel, sdist]) {
      expect(fs.readFileSync(path.join(into, path.basename(file)))).toEqual(fs.readFileSync(file));
    }
  }, 120_000);

  it('refuses the same file twice, which twine --skip-existing passes over', async () => {
    expect(await twineFailure('alice', 'alice', aliceToken, [wheel])).toMatch(/409 Conflict/);
    await twine('alice', 'alice', aliceToken, [wheel], ['--skip-existing']);
  }, 60_000);

  it("keeps a private organization's project from outsiders and anonymous pip; token scopes decide", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    const readOnly = await scopedToken(['read:package']);
    const other = await scopedToken(['read:repository']);
    expect(await twineFailure('hidden', 'alice', readOnly, [wheel])).toMatch(/403 Forbidden/);
    await twine('hidden', 'alice', aliceToken, [wheel]);

    expect(await installAndImport(registry('hidden', 'alice', readOnly))).toBe('42');
    await expect(installAndImport(registry('hidden'))).rejects.toThrow();
    await expect(installAndImport(registry('hidden', 'bob', 'bob-password'))).rejects.toThrow();
    await expect(installAndImport(registry('hidden', 'alice', other))).rejects.toThrow();
    expect(await twineFailure('hidden', 'bob', 'bob-password', [sdist])).toMatch(/404 Not Found/);
  }, 180_000);

  it('no longer installs a version deleted through the API', async () => {
    const removed = await api(`packages/alice/pypi/${NORMAL}/1.2.0`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    await expect(installAndImport(registry('alice'))).rejects.toThrow();
  }, 60_000);
});
