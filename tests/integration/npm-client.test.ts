// The npm registry driven by the real npm client against a running Anvil on loopback, with a .npmrc of its own:
// publish (scoped and unscoped), install into a fresh directory and require() it, dist-tags, deprecate, unpublish,
// a delete through the API that install then sees, a private organization invisible to an outsider, and token
// scopes honoured.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);

describe('npm against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let bobToken: string;

  const registryOf = (owner: string) => `${server.base}api/packages/${owner}/npm/`;

  /** A .npmrc naming the owners' registries (scope `@owner`) and the token for each; returns its path. */
  function npmrc(file: string, token: string, owners: string[]): string {
    const lines = owners.flatMap((owner) => {
      const registry = registryOf(owner);
      return [`@${owner}:registry=${registry}`, `${registry.replace(/^http:/, '')}:_authToken=${token}`];
    });
    const full = path.join(work, file);
    fs.writeFileSync(full, `${lines.join('\n')}\n`);
    return full;
  }

  function npm(args: string[], options: { cwd: string; userconfig: string }) {
    return run('npm', args, {
      cwd: options.cwd,
      env: {
        ...process.env,
        HOME: work,
        npm_config_userconfig: options.userconfig,
        npm_config_cache: path.join(work, 'cache'),
        npm_config_update_notifier: 'false',
        npm_config_audit: 'false',
        npm_config_fund: 'false',
        npm_config_loglevel: 'error',
      },
    });
  }

  /** Makes a package folder with an index.js whose export names the version. */
  function packageDir(name: string, version: string): string {
    const dir = path.join(work, 'src', `${name.replace('/', '+')}-${version}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version, main: 'index.js' }));
    fs.writeFileSync(path.join(dir, 'index.js'), `module.exports = () => ${JSON.stringify(`${name}@${version}`)};\n`);
    return dir;
  }

  /** A fresh project folder. */
  function project(): string {
    const dir = fs.mkdtempSync(path.join(work, 'app-'));
    fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    return dir;
  }

  function requireIn(dir: string, name: string): Promise<string> {
    const script = `process.stdout.write(require(${JSON.stringify(name)})())`;
    return run(process.execPath, ['-e', script], { cwd: dir }).then((out) => out.stdout);
  }

  async function api(method: string, url: string, token: string, body?: unknown) {
    return fetch(`${server.base}api/v1/${url}`, {
      method,
      headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    anvil = await startClientTestServer({ name: 'npm', users: ['alice', 'bob'] });
    ({ work, server } = anvil);
    ({ alice: aliceToken, bob: bobToken } = anvil.tokens);
  }, 120_000);

  afterAll(() => anvil?.stop());

  it('publishes, installs and requires a scoped package; dist-tags; deprecate; unpublish', async () => {
    const userconfig = npmrc('alice.npmrc', aliceToken, ['alice']);
    await npm(['publish'], { cwd: packageDir('@alice/greet', '1.0.0'), userconfig });
    await npm(['publish', '--tag', 'beta'], { cwd: packageDir('@alice/greet', '2.0.0-beta.1'), userconfig });

    const app = project();
    await npm(['install', '@alice/greet'], { cwd: app, userconfig });
    expect(await requireIn(app, '@alice/greet')).toBe('@alice/greet@1.0.0');
    await npm(['install', '@alice/greet@beta'], { cwd: app, userconfig });
    expect(await requireIn(app, '@alice/greet')).toBe('@alice/greet@2.0.0-beta.1');

    await npm(['dist-tag', 'add', '@alice/greet@1.0.0', 'stable'], { cwd: app, userconfig });
    await npm(['dist-tag', 'rm', '@alice/greet', 'beta'], { cwd: app, userconfig });
    const tags = (await npm(['dist-tag', 'ls', '@alice/greet'], { cwd: app, userconfig })).stdout;
    expect(tags.trim().split('\n').sort()).toEqual(['latest: 1.0.0', 'stable: 1.0.0']);

    await npm(['deprecate', '@alice/greet@1.0.0', 'use 2'], { cwd: app, userconfig });
    const view = await npm(['view', '@alice/greet@1.0.0', 'deprecated', '--json'], { cwd: app, userconfig });
    expect(JSON.parse(view.stdout)).toBe('use 2');

    await npm(['unpublish', '@alice/greet@2.0.0-beta.1'], { cwd: app, userconfig });
    const versions = await npm(['view', '@alice/greet', 'versions', '--json', '--prefer-online'], {
      cwd: app,
      userconfig,
    });
    expect(JSON.parse(versions.stdout)).toEqual(['1.0.0']);
    await npm(['unpublish', '@alice/greet', '--force'], { cwd: app, userconfig });
    await expect(npm(['view', '@alice/greet', '--prefer-online'], { cwd: app, userconfig })).rejects.toMatchObject({
      stderr: expect.stringContaining('E404'),
    });
  });

  it('installs an unscoped package with --registry; a delete through the API makes install fail', async () => {
    const userconfig = npmrc('alice-unscoped.npmrc', aliceToken, ['alice']);
    const registry = `--registry=${registryOf('alice')}`;
    await npm(['publish', registry], { cwd: packageDir('plain-util', '0.1.0'), userconfig });
    const app = project();
    await npm(['install', registry, 'plain-util'], { cwd: app, userconfig });
    expect(await requireIn(app, 'plain-util')).toBe('plain-util@0.1.0');
    const list = await api('GET', 'packages/alice?type=npm', aliceToken);
    const listed = (await list.json()) as { name: string; version: string; type: string }[];
    expect(listed.map((item) => `${item.type}:${item.name}@${item.version}`)).toContain('npm:plain-util@0.1.0');
    expect((await api('DELETE', 'packages/alice/npm/plain-util/0.1.0', aliceToken)).status).toBe(204);
    const fresh = project();
    await expect(
      npm(['install', registry, '--prefer-online', 'plain-util'], { cwd: fresh, userconfig }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('E404') });
  });

  it("hides a private organization's packages from an outsider, and honours token scopes", async () => {
    const created = await api('POST', 'orgs', aliceToken, { username: 'secretorg', visibility: 'private' });
    expect(created.status).toBe(201);
    const aliceRc = npmrc('alice-org.npmrc', aliceToken, ['secretorg']);
    await npm(['publish'], { cwd: packageDir('@secretorg/hidden', '1.0.0'), userconfig: aliceRc });
    const inside = project();
    await npm(['install', '@secretorg/hidden'], { cwd: inside, userconfig: aliceRc });
    expect(await requireIn(inside, '@secretorg/hidden')).toBe('@secretorg/hidden@1.0.0');

    const bobRc = npmrc('bob.npmrc', bobToken, ['secretorg']);
    await expect(npm(['install', '@secretorg/hidden'], { cwd: project(), userconfig: bobRc })).rejects.toMatchObject({
      stderr: expect.stringContaining('E404'),
    });

    // A token that may read packages installs but cannot publish.
    const tokenRes = await fetch(`${server.base}api/v1/users/alice/tokens`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ name: 'reader', scopes: ['read:package', 'read:organization'] }),
    });
    expect(tokenRes.status).toBe(201);
    const readToken = ((await tokenRes.json()) as { sha1: string }).sha1;
    const readerRc = npmrc('reader.npmrc', readToken, ['secretorg']);
    const reader = project();
    await npm(['install', '@secretorg/hidden'], { cwd: reader, userconfig: readerRc });
    expect(await requireIn(reader, '@secretorg/hidden')).toBe('@secretorg/hidden@1.0.0');
    await expect(
      npm(['publish'], { cwd: packageDir('@secretorg/hidden', '1.0.1'), userconfig: readerRc }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('E403') });
  });
});
