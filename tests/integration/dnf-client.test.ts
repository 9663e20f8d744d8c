// The RPM registry driven by the real client: a noarch package built here with rpmbuild, uploaded, then installed
// by dnf into a temporary root with gpgcheck=1 and repo_gpgcheck=1 from the served .repo file (dnf imports the
// served key itself), downloaded byte for byte; a repomd.xml with one byte changed on the way is refused; a
// deleted package no longer installs.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { buildRpm } from '../helpers/rpm.ts';

const run = promisify(execFile);
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
const hasDnf = has('dnf') && has('rpmbuild');
if (!hasDnf) {
  if (process.env.CI) throw new Error('dnf or rpmbuild is missing: .ci/run installs them');
  console.log('dnf client test skipped: apt-get install rpm dnf');
}
const describeWithDnf = hasDnf ? describe : describe.skip;

const NAME = 'anvil-hello';
const SCRIPT = '#!/bin/sh\necho hello from anvil\n';

describeWithDnf('dnf against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  let rpmUrl: string;

  const auth = () => ({ Authorization: `token ${aliceToken}` });

  /** Waits until the index job has listed (or dropped) the package in the group's primary.xml. */
  async function indexed(base: string, listed: boolean): Promise<void> {
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${base}/repodata/primary.xml.gz`);
      if (res.ok) {
        const { gunzipSync } = await import('node:zlib');
        const xml = gunzipSync(Buffer.from(await res.arrayBuffer())).toString();
        if (xml.includes(`<name>${NAME}</name>`) === listed) return;
      } else if (!listed && res.status === 404) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error(`the index never ${listed ? 'listed' : 'dropped'} the package`);
  }

  /** dnf on a fresh root and cache, with the .repo file at this URL; answers what it printed. */
  async function dnf(repoFileUrl: string, args: string[]): Promise<{ installroot: string; output: string }> {
    const dir = fs.mkdtempSync(path.join(work, 'dnf-'));
    const repos = path.join(dir, 'repos.d');
    const installroot = path.join(dir, 'root');
    fs.mkdirSync(repos);
    fs.mkdirSync(installroot);
    const repoFile = await fetch(repoFileUrl);
    expect(repoFile.status).toBe(200);
    fs.writeFileSync(path.join(repos, 'anvil.repo'), await repoFile.text());
    const config = path.join(dir, 'dnf.conf');
    fs.writeFileSync(
      config,
      ['[main]', 'gpgcheck=1', 'repo_gpgcheck=1', `cachedir=${dir}/cache`, `logdir=${dir}/log`, ''].join('\n'),
    );
    const common = ['-y', '--config', config, '--installroot', installroot, '--releasever', '1'];
    const options = [...common, `--setopt=reposdir=${repos}`, `--setopt=persistdir=${dir}/persist`];
    try {
      const { stdout, stderr } = await run('dnf', [...options, ...args], { env: { ...process.env, HOME: dir } });
      return { installroot, output: stdout + stderr };
    } catch (error) {
      const failed = error as { stdout: string; stderr: string };
      throw new Error(`dnf failed:\n${failed.stdout}${failed.stderr}`, { cause: error });
    }
  }

  beforeAll(async () => {
    anvil = await startClientTestServer({ name: 'dnf', users: ['alice'] });
    ({ work, server } = anvil);
    aliceToken = anvil.tokens.alice;
    rpmUrl = `${server.base}api/packages/alice/rpm`;
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('installs an uploaded package with gpgcheck and repo_gpgcheck, and downloads the served bytes', async () => {
    const rpm = buildRpm({ name: NAME, version: '1.0.0', files: { [`/usr/bin/${NAME}`]: SCRIPT } });
    const put = await fetch(`${rpmUrl}/el/9/upload`, { method: 'PUT', headers: auth(), body: rpm.bytes });
    expect(put.status).toBe(201);
    await indexed(`${rpmUrl}/el/9`, true);

    const installed = await dnf(`${rpmUrl}/el/9.repo`, ['install', NAME]);
    expect(fs.readFileSync(path.join(installed.installroot, 'usr/bin', NAME), 'utf8')).toBe(SCRIPT);

    const dest = fs.mkdtempSync(path.join(work, 'download-'));
    await dnf(`${rpmUrl}/el/9.repo`, ['install', '--downloadonly', `--downloaddir=${dest}`, NAME]);
    const served = Buffer.from(await (await fetch(`${rpmUrl}/el/9/package/${NAME}/1.0.0-1/noarch`)).arrayBuffer());
    expect(fs.readFileSync(path.join(dest, rpm.fileName)).equals(served)).toBe(true);
  }, 180_000);

  it('refuses a repository whose repomd.xml had a byte changed on the way', async () => {
    // A proxy in front of Anvil that flips one byte of repomd.xml and passes everything else through.
    const proxy = http.createServer((req, res) => {
      void (async () => {
        const upstream = await fetch(new URL(req.url!, server.base));
        let body = Buffer.from(await upstream.arrayBuffer());
        if (req.url!.endsWith('/repomd.xml')) {
          body = Buffer.from(body.toString().replace('<revision>1', '<revision>2'));
        } else if (req.url!.endsWith('.repo')) {
          body = Buffer.from(body.toString().replaceAll(server.base, proxyBase()));
        }
        res.writeHead(upstream.status, { 'Content-Type': upstream.headers.get('content-type') ?? 'text/plain' });
        res.end(body);
      })();
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const proxyBase = () => `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/`;
    try {
      const repoFile = `${proxyBase()}api/packages/alice/rpm/el/9.repo`;
      await expect(dnf(repoFile, ['install', '--downloadonly', NAME])).rejects.toThrow(
        /repomd.xml GPG signature verification error/,
      );
    } finally {
      proxy.close();
    }
  }, 120_000);

  it('no longer installs a deleted package', async () => {
    const removed = await fetch(`${rpmUrl}/el/9/package/${NAME}/1.0.0-1/noarch`, { method: 'DELETE', headers: auth() });
    expect(removed.status).toBe(204);
    await indexed(`${rpmUrl}/el/9`, false);
    await expect(dnf(`${rpmUrl}/el/9.repo`, ['install', NAME])).rejects.toThrow(/Failed to download metadata|No match/);
  }, 120_000);
});
