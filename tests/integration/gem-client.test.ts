// The RubyGems registry driven by the real client: two gems built here with `gem build` (an app and the library
// it depends on), pushed with `gem push --host`, installed with `gem install --clear-sources --source` into a fresh
// GEM_HOME (the dependency resolved through the registry's dependency API) and required by ruby; a second push
// refused; a private organization's gems refused to outsiders and anonymous clients; token scopes; a version
// yanked with `gem yank` or deleted through the API no longer installs.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);
const hasGem = spawnSync('sh', ['-c', 'command -v gem && command -v ruby'], { stdio: 'ignore' }).status === 0;
if (!hasGem) {
  if (process.env.CI) throw new Error('gem is missing: .ci/run installs ruby');
  console.log('gem client test skipped: apt-get install ruby');
}
const describeWithGem = hasGem ? describe : describe.skip;

describeWithGem('gem against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  const gems: Record<string, string> = {};

  const api = (pathName: string, init: RequestInit = {}) =>
    fetch(`${server.base}api/v1/${pathName}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Authorization: `token ${aliceToken}` },
    });

  async function scopedToken(scopes: string[]): Promise<string> {
    const res = await fetch(`${server.base}api/v1/users/alice/tokens`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
      },
      body: JSON.stringify({ name: `t${Math.random().toString(36).slice(2)}`, scopes }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sha1: string }).sha1;
  }

  const registry = (owner: string, user?: string, secret?: string) => {
    const credentials = user ? `${encodeURIComponent(user)}:${encodeURIComponent(secret ?? '')}@` : '';
    return `http://${credentials}127.0.0.1:${server.port}/api/packages/${owner}/rubygems`;
  };

  /** gem sees no configuration of this machine's user: HOME is the test's directory. */
  const clientEnv = (extra: NodeJS.ProcessEnv = {}) => ({
    ...process.env,
    HOME: work,
    GEMRC: path.join(work, 'gemrc'),
    ...extra,
  });

  /** What a gem command printed, or threw with (gem reports failures on both streams). */
  const gem = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
    run('gem', args, { env: clientEnv(extra), cwd: work }).then(
      ({ stdout, stderr }) => ({ ok: true, output: `${stdout}${stderr}` }),
      (error: { stdout: string; stderr: string }) => ({ ok: false, output: `${error.stdout}${error.stderr}` }),
    );

  /** The API key is what gem sends as the Authorization header. */
  const push = (owner: string, file: string, key = `Bearer ${aliceToken}`) =>
    gem(['push', file, '--host', registry(owner)], { GEM_HOST_API_KEY: key });

  /** gem install of the app into a fresh GEM_HOME from the registry alone, then ruby requires it. */
  async function installAndRequire(source: string): Promise<string> {
    const home = fs.mkdtempSync(path.join(work, 'gems-'));
    const installed = await gem(
      ['install', '--clear-sources', '--source', `${source}/`, '--install-dir', home, '--no-document', 'anvil_app'],
      { GEM_HOME: home, GEM_PATH: home },
    );
    if (!installed.ok) throw new Error(installed.output);
    const { stdout } = await run('ruby', ['-e', 'require "anvil_app"; puts AnvilApp.value'], {
      env: clientEnv({ GEM_HOME: home, GEM_PATH: home }),
    });
    return stdout.trim();
  }

  function writeGem(name: string, version: string, body: string, dependency?: string): void {
    const dir = path.join(work, `${name}-${version}`);
    fs.mkdirSync(path.join(dir, 'lib'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'lib', `${name}.rb`), body);
    fs.writeFileSync(
      path.join(dir, `${name}.gemspec`),
      [
        'Gem::Specification.new do |s|',
        `  s.name = "${name}"`,
        `  s.version = "${version}"`,
        '  s.summary = "A probe for the registry"',
        '  s.authors = ["Anvil"]',
        '  s.license = "MIT"',
        `  s.files = ["lib/${name}.rb"]`,
        dependency ? `  s.add_runtime_dependency "${dependency}", ">= 1.0"` : '',
        'end',
        '',
      ].join('\n'),
    );
    spawnSync('gem', ['build', `${name}.gemspec`], { cwd: dir, env: clientEnv(), stdio: 'ignore' });
    gems[`${name}-${version}`] = path.join(dir, `${name}-${version}.gem`);
    expect(fs.existsSync(gems[`${name}-${version}`])).toBe(true);
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-gem-'));
    fs.writeFileSync(path.join(work, 'gemrc'), '--- {}\n');
    writeGem('anvil_lib', '1.2.0', 'module AnvilLib\n  VALUE = 42\nend\n');
    writeGem(
      'anvil_app',
      '0.1.0',
      'require "anvil_lib"\nmodule AnvilApp\n  def self.value = AnvilLib::VALUE\nend\n',
      'anvil_lib',
    );
    anvil = await startClientTestServer({ name: 'gem', work, users: ['alice', 'bob'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('pushes two gems, installs the app with its dependency into a fresh GEM_HOME and requires it', async () => {
    for (const file of [gems['anvil_lib-1.2.0'], gems['anvil_app-0.1.0']]) {
      const pushed = await push('alice', file);
      expect(pushed).toEqual({ ok: true, output: expect.stringMatching(/Successfully registered gem/) });
    }
    expect(await installAndRequire(registry('alice'))).toBe('42');

    const listed = await api('packages/alice?type=rubygems');
    const packages = (await listed.json()) as { name: string; version: string }[];
    expect(packages.map((item) => `${item.name}-${item.version}`).sort()).toEqual([
      'anvil_app-0.1.0',
      'anvil_lib-1.2.0',
    ]);
  }, 120_000);

  it('lists the gems with gem search, and refuses a second push of a version', async () => {
    const listed = await gem(['search', '--clear-sources', '--source', `${registry('alice')}/`, '--remote', 'anvil']);
    expect(listed.output).toMatch(/anvil_app \(0\.1\.0\)/);
    expect(listed.output).toMatch(/anvil_lib \(1\.2\.0\)/);
    const again = await push('alice', gems['anvil_lib-1.2.0']);
    expect(again.output).toMatch(/package version already exists/);
  }, 60_000);

  it("keeps a private organization's gems from outsiders and anonymous clients; token scopes decide", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    const readOnly = await scopedToken(['read:package']);
    expect((await push('hidden', gems['anvil_lib-1.2.0'], `Bearer ${readOnly}`)).output).toMatch(/write:package/);
    for (const file of [gems['anvil_lib-1.2.0'], gems['anvil_app-0.1.0']])
      expect((await push('hidden', file)).ok).toBe(true);

    expect(await installAndRequire(registry('hidden', 'alice', readOnly))).toBe('42');
    await expect(installAndRequire(registry('hidden'))).rejects.toThrow();
    await expect(installAndRequire(registry('hidden', 'bob', 'bob-password'))).rejects.toThrow();
    const bob = `Basic ${Buffer.from('bob:bob-password').toString('base64')}`;
    expect((await push('hidden', gems['anvil_lib-1.2.0'], bob)).output).toMatch(/owner does not exist/);
  }, 180_000);

  it('no longer installs a gem yanked with gem yank, or deleted through the API', async () => {
    const yanked = await gem(['yank', 'anvil_lib', '-v', '1.2.0', '--host', registry('hidden')], {
      GEM_HOST_API_KEY: `Bearer ${aliceToken}`,
    });
    expect(yanked).toEqual({ ok: true, output: expect.stringMatching(/Successfully deleted gem/) });
    await expect(installAndRequire(registry('hidden', 'alice', aliceToken))).rejects.toThrow(/anvil_lib/);

    const removed = await api('packages/alice/rubygems/anvil_app/0.1.0', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    await expect(installAndRequire(registry('alice'))).rejects.toThrow(/anvil_app/);
  }, 120_000);
});
