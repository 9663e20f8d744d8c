// The Arch registry driven by the real client: a package laid out as makepkg does, uploaded, then pacman with a
// temporary config, root, database path, cache and keyring (the served key added and locally signed) syncs the
// signed database (SigLevel Required), downloads the package (-Sw) byte for byte and installs it (-S), lists its
// paths from the signed .files database (-Fyl); a database
// with one byte changed on the way is refused; a deleted package is gone after the next sync.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { buildArchPackage } from '../helpers/arch.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const hasPacman = has('pacman') && has('pacman-key') && has('gpg');
if (!hasPacman) {
  if (process.env.CI) throw new Error('pacman is missing: .ci/run installs it');
  console.log('pacman client test skipped: apt-get install pacman-package-manager');
}
const describeWithPacman = hasPacman ? describe : describe.skip;

const NAME = 'anvil-hello';
const CONTENT = 'hello from anvil\n';

describeWithPacman('pacman against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let archUrl: string;
  let gpgdir: string;

  const auth = () => ({ Authorization: `token ${aliceToken}` });

  async function command(file: string, args: string[]): Promise<string> {
    try {
      const { stdout, stderr } = await run(file, args, { env: { ...process.env, HOME: work } });
      return stdout + stderr;
    } catch (error) {
      const failed = error as { stdout: string; stderr: string };
      throw new Error(`${file} ${args.join(' ')} failed:\n${failed.stdout}${failed.stderr}`, { cause: error });
    }
  }

  /** Waits until the index job has listed (or dropped) the package in the repository's database. */
  async function indexed(base: string, listed: boolean): Promise<void> {
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${base}/x86_64/anvil.db`);
      const bytes = res.ok ? Buffer.from(await res.arrayBuffer()) : Buffer.alloc(0);
      const { gunzipSync } = await import('node:zlib');
      const has = res.ok && gunzipSync(bytes).includes(`${NAME}-1.0.0-1/desc`);
      if (has === listed) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the database never ${listed ? 'listed' : 'dropped'} the package`);
  }

  /** pacman with a fresh root and cache over the repository at this server URL. */
  async function pacman(server: string, args: string[]): Promise<{ root: string; cache: string; output: string }> {
    const dir = fs.mkdtempSync(path.join(work, 'pacman-'));
    const rootDir = path.join(dir, 'root');
    const cache = path.join(dir, 'cache');
    fs.mkdirSync(path.join(rootDir, 'var/lib/pacman'), { recursive: true });
    fs.mkdirSync(cache);
    const config = path.join(dir, 'pacman.conf');
    fs.writeFileSync(
      config,
      ['[options]', 'Architecture = x86_64', 'SigLevel = Required', '', '[anvil]', `Server = ${server}/$arch`, ''].join(
        '\n',
      ),
    );
    const output = await command('pacman', [
      '--config',
      config,
      '--root',
      rootDir,
      '--dbpath',
      path.join(rootDir, 'var/lib/pacman'),
      '--cachedir',
      cache,
      '--gpgdir',
      gpgdir,
      '--logfile',
      path.join(dir, 'pacman.log'),
      '--noconfirm',
      '--noprogressbar',
      ...args,
    ]);
    return { root: rootDir, cache, output };
  }

  beforeAll(async () => {
    anvil = await startClientTestServer({ name: 'pacman', users: ['alice'] });
    ({ work, server } = anvil);
    aliceToken = anvil.tokens.alice;
    archUrl = `${server.base}api/packages/alice/arch`;
    // A keyring of the test's own that trusts the served key.
    gpgdir = path.join(work, 'gnupg');
    const key = path.join(work, 'repository.key');
    fs.writeFileSync(key, await (await fetch(`${archUrl}/repository.key`)).text());
    await command('pacman-key', ['--gpgdir', gpgdir, '--init']);
    await command('pacman-key', ['--gpgdir', gpgdir, '--add', key]);
    const listed = await command('gpg', ['--with-colons', '--show-keys', key]);
    const fingerprint = /^fpr:+([0-9A-F]+):/m.exec(listed)![1]!;
    await command('pacman-key', ['--gpgdir', gpgdir, '--lsign-key', fingerprint]);
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('syncs the signed database, downloads the package byte for byte and installs it', async () => {
    const pkg = buildArchPackage({ name: NAME, version: '1.0.0-1', files: { [`usr/share/${NAME}/hello`]: CONTENT } });
    const put = await fetch(`${archUrl}/core`, { method: 'PUT', headers: auth(), body: pkg.bytes });
    expect(put.status).toBe(201);
    await indexed(`${archUrl}/core`, true);

    const downloaded = await pacman(`${archUrl}/core`, ['-Syw', NAME]);
    expect(fs.readFileSync(path.join(downloaded.cache, pkg.fileName)).equals(pkg.bytes)).toBe(true);

    const installed = await pacman(`${archUrl}/core`, ['-Sy', NAME]);
    expect(fs.readFileSync(path.join(installed.root, `usr/share/${NAME}/hello`), 'utf8')).toBe(CONTENT);

    // pacman -F: the signed .files database syncs and lists the package's paths.
    const files = await pacman(`${archUrl}/core`, ['-Fyl', NAME]);
    expect(files.output).toContain(`${NAME} usr/share/${NAME}/hello`);
  }, 180_000);

  it('refuses a database with one byte changed on the way', async () => {
    const proxy = http.createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(new URL(req.url!, server.base));
        let body = Buffer.from(await upstream.arrayBuffer());
        if (req.url!.endsWith('.db') && upstream.ok) {
          body = Buffer.from(body);
          body[body.length - 10] ^= 1;
        }
        res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'text/plain' });
        res.end(body);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/api/packages/alice/arch/core`;
    try {
      await expect(pacman(base, ['-Sy'])).rejects.toThrow(/invalid or corrupted database \(PGP signature\)/);
    } finally {
      proxy.close();
    }
  }, 120_000);

  it('drops a deleted package from the next sync', async () => {
    const removed = await fetch(`${archUrl}/core/${NAME}/1.0.0-1/any`, { method: 'DELETE', headers: auth() });
    expect(removed.status).toBe(204);
    await indexed(`${archUrl}/core`, false);
    await expect(pacman(`${archUrl}/core`, ['-Syw', NAME])).rejects.toThrow(/target not found|failed to retrieve/);
  }, 120_000);
});
