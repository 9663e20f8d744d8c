// The Go registry driven by the go command: module zips uploaded as Forgejo documents them (PUT …/go/upload), then
// `go get` and `go mod download` through GOPROXY pointing at Anvil alone (no checksum database, no direct fetch),
// and a program that imports the module built and run; a private organization's module reached only with
// credentials (the go command sends a .netrc's over HTTPS only, so Anvil serves HTTPS here); token scopes; a version
// deleted through the API gone from the proxy.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { makeZip } from '../helpers/zip.ts';

const run = promisify(execFile);
const hasGo = spawnSync('sh', ['-c', 'command -v go'], { stdio: 'ignore' }).status === 0;
if (!hasGo) {
  if (process.env.CI) throw new Error('go is missing: .ci/run installs golang-go');
  console.log('go client test skipped: apt-get install golang-go');
}
const describeWithGo = hasGo ? describe : describe.skip;

const MODULE = 'example.com/anvil/greet';

function moduleZip(version: string, greeting: string): Promise<Buffer> {
  const prefix = `${MODULE}@${version}/`;
  return makeZip({
    [`${prefix}go.mod`]: `module ${MODULE}\n\ngo 1.19\n`,
    [`${prefix}greet.go`]: `package greet\n\nfunc Hello() string { return "${greeting}" }\n`,
  });
}

describeWithGo('go against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let cert: string;

  /** A request to Anvil over HTTPS, trusting the test's certificate. */
  function request(method: string, url: string, headers: Record<string, string>, body?: string | Buffer) {
    return new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = https.request(url, { method, headers, ca: fs.readFileSync(cert) }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  const api = (pathName: string, init: { method?: string; auth?: string; body?: string } = {}) =>
    request(
      init.method ?? 'GET',
      `https://127.0.0.1:${server.port}/api/v1/${pathName}`,
      { 'Content-Type': 'application/json', Authorization: init.auth ?? `token ${aliceToken}` },
      init.body,
    );

  async function scopedToken(scopes: string[]): Promise<string> {
    const res = await api('users/alice/tokens', {
      method: 'POST',
      auth: `Basic ${Buffer.from('alice:alice-password').toString('base64')}`,
      body: JSON.stringify({ name: `t${Math.random().toString(36).slice(2)}`, scopes }),
    });
    expect(res.status).toBe(201);
    return (JSON.parse(res.body) as { sha1: string }).sha1;
  }

  const proxy = (owner: string) => `https://127.0.0.1:${server.port}/api/packages/${owner}/go`;

  /**
   * A module cache whose go command sends these credentials, from a .netrc (NETRC names it) for the proxy's host.
   */
  function cacheWithCredentials(user?: string, secret?: string): string {
    const cache = fs.mkdtempSync(path.join(work, 'cache-'));
    const netrc = user ? `machine 127.0.0.1 login ${user} password ${secret}\n` : '';
    fs.writeFileSync(path.join(cache, 'netrc'), netrc, { mode: 0o600 });
    return cache;
  }

  /** The upload Forgejo's documentation gives: the zip as the body of a PUT, with basic credentials. */
  async function upload(owner: string, zip: Buffer, token = aliceToken): Promise<number> {
    const authorization = `Basic ${Buffer.from(`alice:${token}`).toString('base64')}`;
    return (await request('PUT', `${proxy(owner)}/upload`, { Authorization: authorization }, zip)).status;
  }

  /** The go command with only Anvil as its proxy, in a module cache of its own. */
  function go(args: string[], cwd: string, goproxy: string, cache: string) {
    return run('go', args, {
      cwd,
      env: {
        PATH: process.env.PATH,
        HOME: work,
        GOENV: 'off',
        GOPATH: cache,
        NETRC: path.join(cache, 'netrc'),
        SSL_CERT_FILE: cert,
        GOMODCACHE: path.join(cache, 'mod'),
        GOCACHE: path.join(work, 'gocache'),
        GOPROXY: goproxy,
        GOSUMDB: 'off',
        GONOSUMDB: '*',
        GOFLAGS: '-mod=mod -modcacherw',
        GOTOOLCHAIN: 'local',
        CGO_ENABLED: '0',
      },
    });
  }

  /** A program that imports the module at `version`, fetched with `go get`, built and run; answers its output. */
  async function buildConsumer(goproxy: string, version: string, cache: string): Promise<string> {
    const dir = fs.mkdtempSync(path.join(work, 'consumer-'));
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/consumer\n\ngo 1.19\n');
    fs.writeFileSync(
      path.join(dir, 'main.go'),
      `package main\n\nimport (\n\t"fmt"\n\n\t"${MODULE}"\n)\n\nfunc main() { fmt.Println(greet.Hello()) }\n`,
    );
    await go(['get', `${MODULE}@${version}`], dir, goproxy, cache);
    await go(['build', '-o', 'consumer', '.'], dir, goproxy, cache);
    const { stdout } = await run(path.join(dir, 'consumer'));
    return stdout.trim();
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-go-'));
    cert = path.join(work, 'cert.pem');
    const key = path.join(work, 'key.pem');
    const subject = ['-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1'];
    await run(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', ...subject].concat([
        '-keyout',
        key,
        '-out',
        cert,
      ]),
    );
    anvil = await startClientTestServer({
      name: 'go',
      work,
      users: ['alice', 'bob'],
      serverEnv: (port) => ({
        ANVIL__server__PROTOCOL: 'https',
        ANVIL__server__CERT_FILE: cert,
        ANVIL__server__KEY_FILE: key,
        ANVIL_ROOT_URL: `https://127.0.0.1:${port}/`,
      }),
    });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('uploads module zips, then go get fetches the latest and a program importing it builds and runs', async () => {
    expect(await upload('alice', await moduleZip('v1.0.0', 'hello from v1.0.0'))).toBe(201);
    expect(await upload('alice', await moduleZip('v1.1.0', 'hello from v1.1.0'))).toBe(201);
    expect(await upload('alice', await moduleZip('v1.1.0', 'again'))).toBe(409);
    expect(await buildConsumer(proxy('alice'), 'latest', cacheWithCredentials())).toBe('hello from v1.1.0');

    const listed = await api('packages/alice?type=go');
    const packages = JSON.parse(listed.body) as { name: string; version: string; type: string }[];
    expect(packages.map((item) => `${item.type} ${item.name} ${item.version}`).sort()).toEqual([
      `go ${MODULE} v1.0.0`,
      `go ${MODULE} v1.1.0`,
    ]);
  }, 180_000);

  it('downloads a version with go mod download into a fresh cache, and lists the versions', async () => {
    const cache = cacheWithCredentials();
    const { stdout } = await go(['mod', 'download', '-json', `${MODULE}@v1.0.0`], work, proxy('alice'), cache);
    const downloaded = JSON.parse(stdout) as { Version: string; Zip: string; GoMod: string; Dir: string };
    expect(downloaded.Version).toBe('v1.0.0');
    expect(fs.readFileSync(downloaded.GoMod, 'utf8')).toBe(`module ${MODULE}\n\ngo 1.19\n`);
    expect(fs.readFileSync(path.join(downloaded.Dir, 'greet.go'), 'utf8')).toMatch(/hello from v1.0.0/);
    const versions = await go(['list', '-m', '-versions', MODULE], work, proxy('alice'), cache);
    expect(versions.stdout.trim()).toBe(`${MODULE} v1.0.0 v1.1.0`);
  }, 120_000);

  it("keeps a private organization's module from anonymous go and outsiders; token scopes decide", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    const readOnly = await scopedToken(['read:package']);
    expect(await upload('hidden', await moduleZip('v2.0.0', 'hidden'), readOnly)).toBe(403);
    expect(await upload('hidden', await moduleZip('v1.0.0', 'hidden hello'))).toBe(201);

    const hidden = proxy('hidden');
    expect(await buildConsumer(hidden, 'v1.0.0', cacheWithCredentials('alice', readOnly))).toBe('hidden hello');
    await expect(buildConsumer(hidden, 'v1.0.0', cacheWithCredentials())).rejects.toThrow(/404 Not Found/);
    await expect(buildConsumer(hidden, 'v1.0.0', cacheWithCredentials('bob', 'bob-password'))).rejects.toThrow(
      /404 Not Found/,
    );
  }, 180_000);

  it('no longer serves a version deleted through the API', async () => {
    const removed = await api(`packages/alice/go/${encodeURIComponent(MODULE)}/v1.1.0`, { method: 'DELETE' });
    expect(removed.status).toBe(204);
    const cache = cacheWithCredentials();
    const versions = await go(['list', '-m', '-versions', MODULE], work, proxy('alice'), cache);
    expect(versions.stdout.trim()).toBe(`${MODULE} v1.0.0`);
    expect(await buildConsumer(proxy('alice'), 'latest', cache)).toBe('hello from v1.0.0');
    await expect(buildConsumer(proxy('alice'), 'v1.1.0', cache)).rejects.toThrow(/404 Not Found/);
  }, 180_000);
});
