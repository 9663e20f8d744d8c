// The Composer registry driven by composer: archives uploaded as Forgejo documents it (PUT …/composer?version=),
// then `composer require` in a project whose only repository is Anvil (packagist off, secure-http off for this
// plain-HTTP server) installs it and PHP autoloads it; `composer search` finds it; a private organization's package
// installs only with credentials (COMPOSER_AUTH); token scopes; a version deleted through the API is gone.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { makeZip } from '../helpers/zip.ts';

const run = promisify(execFile);
const hasComposer = spawnSync('sh', ['-c', 'command -v composer && command -v php'], { stdio: 'ignore' }).status === 0;
if (!hasComposer) {
  if (process.env.CI) throw new Error('composer is missing: .ci/run installs it');
  console.log('composer client test skipped: apt-get install composer');
}
const describeWithComposer = hasComposer ? describe : describe.skip;

const PACKAGE = 'acme/greet';

function packageZip(greeting: string, version?: string): Promise<Buffer> {
  return makeZip({
    'composer.json': JSON.stringify({
      name: PACKAGE,
      description: 'Greets',
      type: 'library',
      license: 'MIT',
      ...(version ? { version } : {}),
      require: { php: '>=7.4' },
      autoload: { 'psr-4': { 'Acme\\Greet\\': 'src/' } },
    }),
    'src/Greeter.php': `<?php\nnamespace Acme\\Greet;\n\nfinal class Greeter {\n  public static function hello(): string { return '${greeting}'; }\n}\n`,
  });
}

describeWithComposer('composer against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;

  const api = (pathName: string, init: RequestInit & { auth?: string } = {}) =>
    fetch(`${server.base}api/v1/${pathName}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Authorization: init.auth ?? `token ${aliceToken}` },
    });

  async function scopedToken(scopes: string[]): Promise<string> {
    const res = await api('users/alice/tokens', {
      method: 'POST',
      auth: `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
      body: JSON.stringify({ name: `t${Math.random().toString(36).slice(2)}`, scopes }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { sha1: string }).sha1;
  }

  const repository = (owner: string) => `${server.base}api/packages/${owner}/composer`;

  async function upload(owner: string, zip: Buffer, version?: string, token = aliceToken): Promise<number> {
    const query = version ? `?version=${version}` : '';
    const res = await fetch(`${repository(owner)}${query}`, {
      method: 'PUT',
      headers: { Authorization: `Basic ${Buffer.from(`alice:${token}`).toString('base64')}` },
      body: zip,
    });
    return res.status;
  }

  /** composer in `dir`, with a home and cache of its own and, when given, credentials for Anvil's host. */
  function composer(dir: string, args: string[], credentials?: { username: string; password: string }) {
    const host = `127.0.0.1:${server.port}`;
    return run('composer', ['--no-interaction', '--no-ansi', ...args], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        COMPOSER_HOME: path.join(dir, '.composer-home'),
        COMPOSER_CACHE_DIR: path.join(dir, '.composer-cache'),
        COMPOSER_AUTH: JSON.stringify({ 'http-basic': credentials ? { [host]: credentials } : {} }),
        COMPOSER_ALLOW_SUPERUSER: '1',
        COMPOSER_NO_AUDIT: '1',
      },
    });
  }

  /** A project whose only repository is the owner's on Anvil. */
  function project(owner: string): string {
    const dir = fs.mkdtempSync(path.join(work, 'project-'));
    const manifest = {
      name: 'acme/app',
      repositories: [{ type: 'composer', url: repository(owner) }, { 'packagist.org': false }],
      config: { 'secure-http': false },
    };
    fs.writeFileSync(path.join(dir, 'composer.json'), JSON.stringify(manifest, null, 2));
    return dir;
  }

  /** composer require, then PHP runs the autoloaded class; answers what it prints. */
  async function requireAndRun(
    owner: string,
    constraint: string,
    credentials?: { username: string; password: string },
  ): Promise<string> {
    const dir = project(owner);
    await composer(dir, ['require', `${PACKAGE}:${constraint}`], credentials);
    const { stdout } = await run(
      'php',
      ['-r', 'require "vendor/autoload.php"; echo \\Acme\\Greet\\Greeter::hello();'],
      { cwd: dir },
    );
    return stdout.trim();
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-composer-'));
    anvil = await startClientTestServer({ name: 'composer', work, users: ['alice', 'bob'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('uploads archives, then composer require installs the newest and PHP autoloads it', async () => {
    expect(await upload('alice', await packageZip('hello from 1.0.0', '1.0.0'))).toBe(201);
    expect(await upload('alice', await packageZip('hello from 1.1.0'), '1.1.0')).toBe(201);
    expect(await upload('alice', await packageZip('again'), '1.1.0')).toBe(409);
    expect(await requireAndRun('alice', '^1.0')).toBe('hello from 1.1.0');
    expect(await requireAndRun('alice', '1.0.0')).toBe('hello from 1.0.0');

    const listed = await api('packages/alice?type=composer');
    const packages = (await listed.json()) as { name: string; version: string; type: string }[];
    expect(packages.map((item) => `${item.type} ${item.name} ${item.version}`).sort()).toEqual([
      `composer ${PACKAGE} 1.0.0`,
      `composer ${PACKAGE} 1.1.0`,
    ]);
  }, 180_000);

  it('finds the package with composer search, and shows its versions', async () => {
    const dir = project('alice');
    const search = await composer(dir, ['search', 'greet']);
    expect(search.stdout).toMatch(/acme\/greet\s+Greets/);
    const show = await composer(dir, ['show', '--all', PACKAGE]);
    expect(show.stdout).toMatch(/versions\s*:\s*(\* )?1\.1\.0, 1\.0\.0/);
  }, 120_000);

  it("keeps a private organization's package from anonymous composer and outsiders; token scopes decide", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    const readOnly = await scopedToken(['read:package']);
    expect(await upload('hidden', await packageZip('hidden'), '2.0.0', readOnly)).toBe(403);
    expect(await upload('hidden', await packageZip('hidden hello'), '1.0.0')).toBe(201);

    expect(await requireAndRun('hidden', '^1.0', { username: 'alice', password: readOnly })).toBe('hidden hello');
    const hidden = /packages\.json" fil\s*e could not be downloaded \(HTTP\/1\.1 404 Not Found\)/;
    await expect(requireAndRun('hidden', '^1.0')).rejects.toThrow(hidden);
    await expect(requireAndRun('hidden', '^1.0', { username: 'bob', password: 'bob-password' })).rejects.toThrow(
      hidden,
    );
  }, 180_000);

  it('no longer offers a version deleted through the API', async () => {
    const removed = await api(`packages/alice/composer/${encodeURIComponent(PACKAGE)}/1.1.0`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    const show = await composer(project('alice'), ['show', '--all', PACKAGE]);
    expect(show.stdout).toMatch(/versions\s*:\s*(\* )?1\.0\.0\s*$/m);
    expect(await requireAndRun('alice', '^1.0')).toBe('hello from 1.0.0');
    await expect(requireAndRun('alice', '^1.1')).rejects.toThrow(/requirements could not be resolved/);
  }, 180_000);
});
