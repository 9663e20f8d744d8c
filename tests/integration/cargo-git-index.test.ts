// Cargo's git index driven by the real cargo against a running Anvil on loopback: the owner asks for its index
// repository, then cargo — configured with `index = "http://…/{owner}/_cargo-index.git"`, fetched over Anvil's smart
// HTTP by the git command line — publishes a crate (reading the API address from the repository's config.json), and
// builds and runs a crate depending on it, then sees a yank; the sparse index stays as it was.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);

describe('cargo with a git index on a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let token: string;

  function cargo(args: string[], cwd: string, home: string) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      CARGO_HOME: home,
      CARGO_TARGET_DIR: path.join(cwd, 'target'),
      CARGO_TERM_COLOR: 'never',
      CARGO_HTTP_TIMEOUT: '30',
      // The git index is fetched by `git` itself, over Anvil's smart HTTP.
      CARGO_NET_GIT_FETCH_WITH_CLI: 'true',
      CARGO_REGISTRIES_ANVIL_TOKEN: `Bearer ${token}`,
      GIT_TERMINAL_PROMPT: '0',
    };
    return run('cargo', args, { cwd, env, maxBuffer: 16 * 1024 * 1024 });
  }

  function crate(name: string, manifest: string[], source: [string, string]): string {
    const dir = fs.mkdtempSync(path.join(work, `${name}-`));
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'Cargo.toml'), [...manifest, ''].join('\n'));
    fs.writeFileSync(path.join(dir, 'src', source[0]), source[1]);
    return dir;
  }

  beforeAll(async () => {
    anvil = await startClientTestServer({ name: 'cargo-git', users: ['carol'] });
    work = anvil.work;
    token = anvil.tokens.carol;
  }, 120_000);

  afterAll(() => anvil?.stop());

  it('publishes through the git index, builds a dependent from it and sees a yank', async () => {
    const init = await fetch(`${anvil.base}api/packages/carol/cargo/index/initialize`, {
      method: 'POST',
      headers: { Authorization: `token ${token}` },
    });
    expect(init.status).toBe(204);

    const home = fs.mkdtempSync(path.join(work, 'cargo-home-'));
    fs.writeFileSync(
      path.join(home, 'config.toml'),
      ['[registries.anvil]', `index = "${anvil.base}carol/_cargo-index.git"`, '[net]', 'retry = 0', ''].join('\n'),
    );
    const library = (version: string) =>
      crate(
        'git-greet',
        [
          '[package]',
          'name = "git-greet"',
          `version = "${version}"`,
          'edition = "2021"',
          'description = "A greeting through a git index"',
          'license = "MIT"',
        ],
        ['lib.rs', `pub fn greeting() -> &'static str { "git-greet ${version}" }\n`],
      );
    const publish = (dir: string) =>
      cargo(['publish', '--registry', 'anvil', '--no-verify', '--allow-dirty'], dir, home);
    await publish(library('1.0.0'));
    await publish(library('1.1.0'));

    const app = crate(
      'app',
      [
        '[package]',
        'name = "app"',
        'version = "0.1.0"',
        'edition = "2021"',
        'publish = false',
        '[dependencies]',
        'git-greet = { version = "1", registry = "anvil" }',
      ],
      ['main.rs', 'fn main() { print!("{}", git_greet::greeting()); }\n'],
    );
    expect((await cargo(['run', '--quiet'], app, home)).stdout).toBe('git-greet 1.1.0');

    // The yank is a commit of the index: a new lock file no longer picks the version.
    await cargo(['yank', '--registry', 'anvil', 'git-greet@1.1.0'], app, home);
    fs.rmSync(path.join(app, 'Cargo.lock'));
    expect((await cargo(['run', '--quiet'], app, home)).stdout).toBe('git-greet 1.0.0');

    // The sparse index serves the same crate alongside.
    const sparse = await fetch(`${anvil.base}api/packages/carol/cargo/gi/t-/git-greet`);
    expect((await sparse.text()).trim().split('\n')).toHaveLength(2);
  }, 300_000);
});
