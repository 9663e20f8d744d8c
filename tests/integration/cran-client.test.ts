// The CRAN registry driven by R itself: a tiny package built with `R CMD build`, uploaded, installed with
// install.packages(repos = …) into a fresh library and loaded with library(); a newer version replaces it in the
// index; a binary build (`R CMD INSTALL --build`) listed in its platform's tree; a private organization's packages
// refused to anonymous R and installed with credentials in the repository URL; a version deleted through the API
// no longer installs.
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';

const run = promisify(execFile);
const hasR = spawnSync('sh', ['-c', 'command -v R && command -v Rscript'], { stdio: 'ignore' }).status === 0;
if (!hasR) {
  if (process.env.CI) throw new Error('R is missing: .ci/run installs r-base-core');
  console.log('cran client test skipped: apt-get install r-base-core');
}
const describeWithR = hasR ? describe : describe.skip;

describeWithR('R against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;
  const built: Record<string, string> = {};

  const api = (pathName: string, init: RequestInit = {}) =>
    fetch(`${server.base}api/v1/${pathName}`, {
      ...init,
      headers: { 'Content-Type': 'application/json', Authorization: `token ${aliceToken}` },
    });

  const registry = (owner: string, user?: string, secret?: string) => {
    const credentials = user ? `${encodeURIComponent(user)}:${encodeURIComponent(secret ?? '')}@` : '';
    return `http://${credentials}127.0.0.1:${server.port}/api/packages/${owner}/cran`;
  };

  /** R sees no configuration of this machine's user. */
  const clientEnv = () => ({ ...process.env, HOME: work, R_PROFILE_USER: os.devNull, R_ENVIRON_USER: os.devNull });

  const upload = (owner: string, file: string, where = 'src') =>
    fetch(`${registry(owner)}/${where}`, {
      method: 'PUT',
      headers: { Authorization: `token ${aliceToken}` },
      body: fs.readFileSync(file),
    });

  /** install.packages into a fresh library, then library() and the package's answer. */
  async function installAndLoad(repo: string): Promise<string> {
    const lib = fs.mkdtempSync(path.join(work, 'lib-'));
    const script = [
      `install.packages("anvilProbe", repos = "${repo}", lib = "${lib}", quiet = TRUE)`,
      `library(anvilProbe, lib.loc = "${lib}")`,
      'cat(answer(), as.character(packageVersion("anvilProbe", lib.loc = "' + lib + '")), "\\n")',
    ].join('; ');
    const { stdout } = await run('Rscript', ['-e', script], { env: clientEnv() });
    return stdout.trim();
  }

  function buildPackage(version: string, answer: number): void {
    const dir = path.join(work, `src-${version}`, 'anvilProbe');
    fs.mkdirSync(path.join(dir, 'R'), { recursive: true });
    fs.writeFileSync(
      path.join(dir, 'DESCRIPTION'),
      [
        'Package: anvilProbe',
        `Version: ${version}`,
        'Title: A Probe for the Registry',
        'Description: Answers a number.',
        'Author: Anvil',
        'Maintainer: Anvil <anvil@example.com>',
        'License: MIT',
        '',
      ].join('\n'),
    );
    fs.writeFileSync(path.join(dir, 'R', 'answer.R'), `answer <- function() ${answer}\n`);
    fs.writeFileSync(path.join(dir, 'NAMESPACE'), 'export(answer)\n');
    const out = path.dirname(dir);
    spawnSync('R', ['CMD', 'build', '--no-build-vignettes', '--no-manual', 'anvilProbe'], {
      cwd: out,
      env: clientEnv(),
    });
    built[version] = path.join(out, `anvilProbe_${version}.tar.gz`);
    expect(fs.existsSync(built[version])).toBe(true);
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-cran-'));
    buildPackage('1.2.0', 42);
    buildPackage('1.3.0', 43);
    anvil = await startClientTestServer({ name: 'cran', work, users: ['alice'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('uploads a source package, installs it with install.packages into a fresh library and loads it', async () => {
    expect((await upload('alice', built['1.2.0'])).status).toBe(201);
    expect(await installAndLoad(registry('alice'))).toBe('42 1.2.0');
    expect((await upload('alice', built['1.2.0'])).status).toBe(409);

    expect((await upload('alice', built['1.3.0'])).status).toBe(201);
    expect(await installAndLoad(registry('alice'))).toBe('43 1.3.0');
    const listed = (await (await api('packages/alice?type=cran')).json()) as { version: string }[];
    expect(listed.map((item) => item.version).sort()).toEqual(['1.2.0', '1.3.0']);
  }, 180_000);

  it('lists a binary build from R CMD INSTALL --build in its platform and R version tree', async () => {
    const out = path.join(work, 'binary');
    fs.mkdirSync(out);
    // Into a library of its own: the default one is shared with any other run of this test on the machine (the CI
    // lanes of both databases), and R locks a package while installing it there.
    const lib = fs.mkdtempSync(path.join(work, 'lib-'));
    const install = spawnSync('R', ['CMD', 'INSTALL', '--build', '-l', lib, built['1.3.0']], {
      cwd: out,
      env: clientEnv(),
      encoding: 'utf8',
    });
    const binary = fs.readdirSync(out).find((name) => name.endsWith('.tar.gz'));
    expect({ status: install.status, binary, output: binary ? '' : `${install.stdout}${install.stderr}` }).toEqual({
      status: 0,
      binary: expect.any(String),
      output: '',
    });
    const res = await upload('alice', path.join(out, binary!), 'bin?platform=linux&rversion=4.2');
    expect(res.status).toBe(201);
    const script = `cat(available.packages(repos = "${registry('alice')}", type = "source",
      contriburl = "${registry('alice')}/bin/linux/contrib/4.2")[, "Version"])`;
    const { stdout } = await run('Rscript', ['-e', script], { env: clientEnv() });
    expect(stdout.trim()).toBe('1.3.0');
  }, 120_000);

  it("keeps a private organization's packages from anonymous R and installs them with credentials", async () => {
    const org = await api('orgs', {
      method: 'POST',
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(org.status).toBe(201);
    expect((await upload('hidden', built['1.2.0'])).status).toBe(201);
    await expect(installAndLoad(registry('hidden'))).rejects.toThrow();
    expect(await installAndLoad(registry('hidden', 'alice', aliceToken))).toBe('42 1.2.0');
  }, 120_000);

  it('no longer installs a version deleted through the API', async () => {
    for (const version of ['1.2.0', '1.3.0']) {
      expect((await api(`packages/alice/cran/anvilProbe/${version}`, { method: 'DELETE' })).status).toBe(204);
    }
    await expect(installAndLoad(registry('alice'))).rejects.toThrow();
  }, 120_000);
});
