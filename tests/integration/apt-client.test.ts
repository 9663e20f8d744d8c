// The Debian registry driven by the real apt: a .deb built with dpkg-deb is uploaded to a running Anvil, and
// apt-get — in a temporary root of its own (sources, lists, cache, status and keys under one directory), trusting
// only the owner's repository.key through `signed-by=` — updates from it and downloads the same bytes. A byte
// changed on the way in a Packages file or in the InRelease makes apt-get update refuse, so the signing is real;
// a deleted package is gone after the next update.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { buildDeb } from '../helpers/debian.ts';

const run = promisify(execFile);
const missing = ['apt-get', 'dpkg-deb', 'gpgv'].filter(
  (command) => spawnSync('sh', ['-c', `command -v ${command}`]).status !== 0,
);
if (missing.length > 0) {
  if (process.env.CI) throw new Error(`${missing.join(', ')} missing: the CI machine is Debian, with apt`);
  console.log(`apt client test skipped, missing ${missing.join(', ')}`);
}
const describeWithApt = missing.length === 0 ? describe : describe.skip;

/** A proxy in front of Anvil that changes one byte of the bodies of the requests `tamper` picks. */
async function startTamperingProxy(target: () => number) {
  const state = { tamper: (_url: string) => false };
  const server = http.createServer((req, res) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: target(), path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (body.length > 0 && answer.statusCode === 200 && state.tamper(req.url ?? '')) {
            // A letter of the middle of the body, changed in case: the length stays, the bytes differ.
            const at = body.indexOf('Package:') >= 0 ? body.indexOf('Package:') + 1 : Math.floor(body.length / 2);
            body[at] ^= 0x20;
          }
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
        });
      },
    );
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { state, port: (server.address() as AddressInfo).port, close: () => new Promise((r) => server.close(r)) };
}

describeWithApt('apt-get against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let proxy: Awaited<ReturnType<typeof startTamperingProxy>>;
  let aliceToken: string;

  const registry = (base: string) => `${base}api/packages/alice/debian`;

  /** A temporary apt root whose only source is alice's distribution `dist`, reached through `base`. */
  function aptRoot(base: string, dist: string): string[] {
    const dir = fs.mkdtempSync(path.join(work, 'apt-'));
    for (const sub of ['lists/partial', 'cache/archives/partial', 'parts', 'trusted.d', 'prefs.d', 'log'])
      fs.mkdirSync(path.join(dir, sub), { recursive: true });
    fs.writeFileSync(path.join(dir, 'status'), '');
    fs.copyFileSync(path.join(work, 'repository.asc'), path.join(dir, 'repository.asc'));
    fs.writeFileSync(
      path.join(dir, 'sources.list'),
      `deb [signed-by=${path.join(dir, 'repository.asc')}] ${registry(base)} ${dist} main\n`,
    );
    return [
      `-o Dir::Etc::sourcelist=${path.join(dir, 'sources.list')}`,
      `-o Dir::Etc::sourceparts=${path.join(dir, 'parts')}`,
      `-o Dir::Etc::trusted=${path.join(dir, 'trusted.gpg')}`,
      `-o Dir::Etc::trustedparts=${path.join(dir, 'trusted.d')}`,
      `-o Dir::Etc::preferences=${path.join(dir, 'preferences')}`,
      `-o Dir::Etc::preferencesparts=${path.join(dir, 'prefs.d')}`,
      `-o Dir::State=${dir}`,
      `-o Dir::State::lists=${path.join(dir, 'lists')}`,
      `-o Dir::State::status=${path.join(dir, 'status')}`,
      `-o Dir::Cache=${path.join(dir, 'cache')}`,
      `-o Dir::Log=${path.join(dir, 'log')}`,
      // The temporary root is the test's: apt's download user could not read it.
      '-o APT::Sandbox::User=root',
      '-o Acquire::Retries=0',
      '-o Debug::NoLocking=1',
    ].flatMap((option) => option.split(/ (.*)/s).filter(Boolean));
  }

  async function aptGet(options: string[], args: string[], cwd = work): Promise<{ code: number; output: string }> {
    try {
      const { stdout, stderr } = await run('apt-get', [...options, ...args], {
        cwd,
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive', LC_ALL: 'C' },
      });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, output: failed.stdout + failed.stderr };
    }
  }

  async function upload(dist: string, deb: Buffer): Promise<void> {
    const res = await fetch(`${registry(server.base)}/pool/${dist}/main/upload`, {
      method: 'PUT',
      headers: { Authorization: `token ${aliceToken}` },
      body: deb,
    });
    expect(res.status).toBe(201);
  }

  /** Waits for the background job to put the package in the distribution's index. */
  async function indexed(dist: string, name: string, present = true): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const res = await fetch(`${registry(server.base)}/dists/${dist}/main/binary-all/Packages`);
      const listed = res.status === 200 && (await res.text()).includes(`Package: ${name}\n`);
      if (listed === present) return;
      if (Date.now() > deadline) throw new Error(`the index of ${dist} did not ${present ? 'list' : 'drop'} ${name}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-apt-'));
    anvil = await startClientTestServer({ name: 'apt', work, users: ['alice'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
    proxy = await startTamperingProxy(() => server.port);
    const key = await fetch(`${registry(server.base)}/repository.key`);
    fs.writeFileSync(path.join(work, 'repository.asc'), await key.text());
  }, 180_000);

  afterAll(async () => {
    await anvil?.stop();
  });

  it('updates from the signed repository and downloads the uploaded package; a delete is seen', async () => {
    const deb = buildDeb({ name: 'anvil-hello', version: '1.0-1', payload: 'hello from anvil\n' });
    await upload('bookworm', deb);
    await indexed('bookworm', 'anvil-hello');
    const options = aptRoot(server.base, 'bookworm');
    const update = await aptGet(options, ['update']);
    expect(update.output).not.toMatch(/^(W|E):/m);
    expect(update.code).toBe(0);
    const into = fs.mkdtempSync(path.join(work, 'download-'));
    const download = await aptGet(options, ['download', 'anvil-hello'], into);
    expect(download.code).toBe(0);
    const fetched = fs.readFileSync(path.join(into, 'anvil-hello_1.0-1_all.deb'));
    expect(fetched.equals(deb)).toBe(true);

    const gone = await fetch(`${registry(server.base)}/pool/bookworm/main/anvil-hello/1.0-1/all`, {
      method: 'DELETE',
      headers: { Authorization: `token ${aliceToken}` },
    });
    expect(gone.status).toBe(204);
    await upload('bookworm', buildDeb({ name: 'anvil-other' }));
    await indexed('bookworm', 'anvil-hello', false);
    await indexed('bookworm', 'anvil-other');
    expect((await aptGet(options, ['update'])).code).toBe(0);
    const after = await aptGet(options, ['download', 'anvil-hello'], into);
    expect(after.code).not.toBe(0);
    expect(after.output).toMatch(/Unable to locate package anvil-hello/);
  }, 120_000);

  it('refuses an index whose Packages file or InRelease had a byte changed on the way', async () => {
    await upload('trixie', buildDeb({ name: 'anvil-tampered' }));
    await indexed('trixie', 'anvil-tampered');
    const base = `http://127.0.0.1:${proxy.port}/`;

    proxy.state.tamper = (url) => url.includes('/binary-');
    const packages = await aptGet(aptRoot(base, 'trixie'), ['update']);
    expect(packages.code).not.toBe(0);
    expect(packages.output).toMatch(/Hash Sum mismatch|File has unexpected size/);

    proxy.state.tamper = (url) => /\/(InRelease|Release(\.gpg)?)$/.test(url);
    const release = await aptGet(aptRoot(base, 'trixie'), ['update']);
    expect(release.code).not.toBe(0);
    expect(release.output).toMatch(/signature|not signed|NO_PUBKEY|BADSIG/i);

    // The same repository through an honest path is trusted.
    proxy.state.tamper = () => false;
    expect((await aptGet(aptRoot(base, 'trixie'), ['update'])).code).toBe(0);
  }, 120_000);
});
