// The Vagrant registry driven by the real vagrant against a running Anvil on loopback, with a VAGRANT_HOME of its
// own: boxes uploaded as Forgejo documents it (PUT of the .box per version and provider), then `vagrant box add`
// from the box's metadata URL, which reads the metadata document, picks the version and provider, downloads the
// box and checks its checksum; a private organization's box through vagrant's token (VAGRANT_SERVER_URL and
// VAGRANT_CLOUD_TOKEN); a delete through the API that vagrant then sees.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { boxArchive } from '../helpers/vagrant.ts';

const run = promisify(execFile);

describe('vagrant against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let aliceToken: string;

  const boxUrl = (owner: string, name: string) => `${server.base}api/packages/${owner}/vagrant/${name}`;

  function vagrant(args: string[], token?: string) {
    const home = path.join(work, 'vagrant-home');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: work,
      VAGRANT_HOME: home,
      VAGRANT_CHECKPOINT_DISABLE: '1',
      VAGRANT_NO_COLOR: '1',
    };
    if (token) {
      env.VAGRANT_SERVER_URL = server.base.replace(/\/$/, '');
      env.VAGRANT_CLOUD_TOKEN = token;
    }
    return run('vagrant', args, { cwd: work, env, maxBuffer: 16 * 1024 * 1024 });
  }

  async function upload(owner: string, name: string, version: string, provider: string, box: Buffer) {
    const res = await fetch(`${boxUrl(owner, name)}/${version}/${provider}.box`, {
      method: 'PUT',
      headers: { Authorization: `token ${aliceToken}` },
      body: box,
    });
    expect(res.status).toBe(201);
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-vagrant-'));
    anvil = await startClientTestServer({ name: 'vagrant', work, users: ['alice'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
  }, 120_000);

  afterAll(() => anvil?.stop());

  it('adds a box from its metadata URL, by version and provider', async () => {
    await upload('alice', 'testbox', '1.0.0', 'virtualbox', await boxArchive('virtualbox'));
    await upload('alice', 'testbox', '1.1.0', 'virtualbox', await boxArchive('virtualbox'));
    await upload('alice', 'testbox', '1.1.0', 'libvirt', await boxArchive('libvirt'));

    await vagrant(['box', 'add', '--box-version', '1.0.0', '--provider', 'virtualbox', boxUrl('alice', 'testbox')]);
    await vagrant(['box', 'add', '--provider', 'libvirt', boxUrl('alice', 'testbox')]);
    const list = await vagrant(['box', 'list']);
    expect(list.stdout).toMatch(/testbox\s+\(virtualbox, 1\.0\.0\)/);
    expect(list.stdout).toMatch(/testbox\s+\(libvirt, 1\.1\.0\)/);
    const unpacked = path.join(work, 'vagrant-home', 'boxes', 'testbox', '1.0.0', 'virtualbox', 'box.ovf');
    expect(fs.readFileSync(unpacked, 'utf8')).toBe('<Envelope/>');
  }, 180_000);

  it("adds a private organization's box with vagrant's token; a deleted version is gone", async () => {
    const created = await fetch(`${server.base}api/v1/orgs`, {
      method: 'POST',
      headers: { Authorization: `token ${aliceToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'secretorg', visibility: 'private' }),
    });
    expect(created.status).toBe(201);
    await upload('secretorg', 'hidden', '2.0.0', 'virtualbox', await boxArchive('virtualbox'));
    await expect(vagrant(['box', 'add', boxUrl('secretorg', 'hidden')])).rejects.toMatchObject({
      stderr: expect.stringMatching(/404|could not be found|Not Found/i),
    });
    await vagrant(['box', 'add', boxUrl('secretorg', 'hidden')], aliceToken);
    expect((await vagrant(['box', 'list'])).stdout).toMatch(/hidden\s+\(virtualbox, 2\.0\.0\)/);

    const deleted = await fetch(`${server.base}api/v1/packages/secretorg/vagrant/hidden/2.0.0`, {
      method: 'DELETE',
      headers: { Authorization: `token ${aliceToken}` },
    });
    expect(deleted.status).toBe(204);
    await expect(vagrant(['box', 'add', '--force', boxUrl('secretorg', 'hidden')], aliceToken)).rejects.toMatchObject({
      stderr: expect.stringMatching(/404|could not be found|Not Found/i),
    });
  }, 180_000);
});
