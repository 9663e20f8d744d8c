// The Cargo registry driven by the real cargo against a running Anvil on loopback, with a CARGO_HOME of its own
// whose config.toml names the owner's sparse index as registry `anvil` (the token in CARGO_REGISTRIES_ANVIL_TOKEN):
// publish, then build and run a crate that depends on it with that registry as its only source; yank and search;
// a delete through the API that the index drops; a private organization's registry (cargo sends its token once
// config.json answers 401) invisible to an outsider; token scopes honoured.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);

describe('cargo against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let bobToken: string;

  const indexOf = (owner: string) => `sparse+${server.base}api/packages/${owner}/cargo/`;

  /** A CARGO_HOME whose only registry is the owner's on Anvil. */
  function cargoHome(owner: string): string {
    const home = fs.mkdtempSync(path.join(work, 'cargo-home-'));
    fs.writeFileSync(
      path.join(home, 'config.toml'),
      [
        '[registries.anvil]',
        `index = "${indexOf(owner)}"`,
        // cargo sends a token to a registry that asks for one on reads only through a configured provider.
        '[registry]',
        'global-credential-providers = ["cargo:token"]',
        '[net]',
        'retry = 0',
        '[term]',
        'color = "never"',
        '',
      ].join('\n'),
    );
    return home;
  }

  function cargo(args: string[], options: { cwd: string; home: string; token?: string }) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CARGO_HOME: options.home,
      CARGO_TARGET_DIR: path.join(options.cwd, 'target'),
      CARGO_TERM_COLOR: 'never',
      CARGO_HTTP_TIMEOUT: '30',
      CARGO_REGISTRIES_CRATES_IO_PROTOCOL: 'sparse',
    };
    if (options.token) env.CARGO_REGISTRIES_ANVIL_TOKEN = `Bearer ${options.token}`;
    // cargo itself (rustup's proxy) lives in the real CARGO_HOME, reached through PATH.
    return run('cargo', args, { cwd: options.cwd, env, maxBuffer: 16 * 1024 * 1024 });
  }

  /** A library crate whose `greeting()` names its version. */
  function libraryCrate(name: string, version: string): string {
    const dir = path.join(work, 'src', `${name}-${version}`);
    fs.mkdirSync(path.join(dir, 'src'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'Cargo.toml'),
      [
        '[package]',
        `name = "${name}"`,
        `version = "${version}"`,
        'edition = "2021"',
        'description = "A greeting for the tests"',
        'license = "MIT"',
        '',
        '[features]',
        'loud = []',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(dir, 'src', 'lib.rs'), `pub fn greeting() -> &'static str { "${name} ${version}" }\n`);
    return dir;
  }

  /** A binary crate depending on `dep` `req` from the Anvil registry, printing its greeting. */
  function appCrate(dep: string, req: string): string {
    const dir = fs.mkdtempSync(path.join(work, 'app-'));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(
      path.join(dir, 'Cargo.toml'),
      [
        '[package]',
        'name = "app"',
        'version = "0.1.0"',
        'edition = "2021"',
        'publish = false',
        '',
        '[dependencies]',
        `${dep} = { version = "${req}", registry = "anvil" }`,
        '',
      ].join('\n'),
    );
    fs.writeFileSync(
      path.join(dir, 'src', 'main.rs'),
      `fn main() { print!("{}", ${dep.replace(/-/g, '_')}::greeting()); }\n`,
    );
    return dir;
  }

  async function api(method: string, url: string, token: string, body?: unknown) {
    return fetch(`${server.base}api/v1/${url}`, {
      method,
      headers: { Authorization: `token ${token}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  }

  beforeAll(async () => {
    anvil = await startClientTestServer({ name: 'cargo', users: ['alice', 'bob'] });
    ({ work, server } = anvil);
    ({ alice: aliceToken, bob: bobToken } = anvil.tokens);
  }, 120_000);

  afterAll(() => anvil?.stop());

  it('publishes crates, then builds and runs a crate that depends on them; yank; search', async () => {
    const home = cargoHome('alice');
    const publish = (dir: string) =>
      cargo(['publish', '--registry', 'anvil', '--no-verify', '--allow-dirty'], { cwd: dir, home, token: aliceToken });
    await publish(libraryCrate('anvil-greet', '1.0.0'));
    await publish(libraryCrate('anvil-greet', '1.1.0'));

    const app = appCrate('anvil-greet', '1');
    const built = await cargo(['run', '--quiet'], { cwd: app, home });
    expect(built.stdout).toBe('anvil-greet 1.1.0');

    // A yanked version is not chosen for a new lock file; unyanked it is again.
    await cargo(['yank', '--registry', 'anvil', 'anvil-greet@1.1.0'], { cwd: app, home, token: aliceToken });
    fs.rmSync(path.join(app, 'Cargo.lock'));
    expect((await cargo(['run', '--quiet'], { cwd: app, home })).stdout).toBe('anvil-greet 1.0.0');
    await cargo(['yank', '--undo', '--registry', 'anvil', 'anvil-greet@1.1.0'], { cwd: app, home, token: aliceToken });
    fs.rmSync(path.join(app, 'Cargo.lock'));
    expect((await cargo(['run', '--quiet'], { cwd: app, home })).stdout).toBe('anvil-greet 1.1.0');

    const owners = await cargo(['owner', '--list', '--registry', 'anvil', 'anvil-greet'], {
      cwd: app,
      home,
      token: aliceToken,
    });
    expect(owners.stdout).toContain('alice');
    const search = await cargo(['search', '--registry', 'anvil', 'greet'], { cwd: app, home });
    expect(search.stdout).toContain('anvil-greet = "1.1.0"');
    expect(search.stdout).toContain('A greeting for the tests');

    // A second publish of a version is refused, in cargo's words.
    await expect(publish(libraryCrate('anvil-greet', '1.1.0'))).rejects.toMatchObject({
      stderr: expect.stringContaining('already exists'),
    });
  }, 240_000);

  it('lists a crate in the package API; a delete through the API drops it from the index', async () => {
    const home = cargoHome('alice');
    await cargo(['publish', '--registry', 'anvil', '--no-verify', '--allow-dirty'], {
      cwd: libraryCrate('gone-soon', '0.1.0'),
      home,
      token: aliceToken,
    });
    const list = await api('GET', 'packages/alice?type=cargo', aliceToken);
    const listed = (await list.json()) as { name: string; version: string; type: string }[];
    expect(listed.map((item) => `${item.type}:${item.name}@${item.version}`)).toContain('cargo:gone-soon@0.1.0');
    const app = appCrate('gone-soon', '0.1');
    await cargo(['build', '--quiet'], { cwd: app, home });
    expect((await api('DELETE', 'packages/alice/cargo/gone-soon/0.1.0', aliceToken)).status).toBe(204);
    const fresh = appCrate('gone-soon', '0.1');
    await expect(cargo(['build', '--quiet'], { cwd: fresh, home })).rejects.toMatchObject({
      stderr: expect.stringMatching(/no matching package named `gone-soon` found/),
    });
  }, 240_000);

  it("serves a private organization's registry to its members only, and honours token scopes", async () => {
    const created = await api('POST', 'orgs', aliceToken, { username: 'secretorg', visibility: 'private' });
    expect(created.status).toBe(201);
    const home = cargoHome('secretorg');
    await cargo(['publish', '--registry', 'anvil', '--no-verify', '--allow-dirty'], {
      cwd: libraryCrate('hidden', '1.0.0'),
      home,
      token: aliceToken,
    });
    const app = appCrate('hidden', '1');
    expect((await cargo(['run', '--quiet'], { cwd: app, home, token: aliceToken })).stdout).toBe('hidden 1.0.0');

    // An outsider's cargo finds no registry there (404); without a token cargo is asked for one (401).
    await expect(cargo(['build'], { cwd: appCrate('hidden', '1'), home, token: bobToken })).rejects.toMatchObject({
      stderr: expect.stringContaining('config.json not found in registry'),
    });
    await expect(cargo(['build'], { cwd: appCrate('hidden', '1'), home })).rejects.toMatchObject({
      stderr: expect.stringContaining('no token found for `anvil`'),
    });

    // A token that may read packages builds but cannot publish.
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
    const reader = appCrate('hidden', '1');
    expect((await cargo(['run', '--quiet'], { cwd: reader, home, token: readToken })).stdout).toBe('hidden 1.0.0');
    await expect(
      cargo(['publish', '--registry', 'anvil', '--no-verify', '--allow-dirty'], {
        cwd: libraryCrate('hidden', '1.0.1'),
        home,
        token: readToken,
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('403') });
  }, 240_000);
});
