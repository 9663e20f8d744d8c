// The container registry driven by podman, the client most Forgejo users push with: an image imported from a root
// file system tarball is pushed to a running Anvil over plain HTTP after `podman login`, removed locally, pulled
// back with the same digest; an outsider is refused a private organization's image, and a deleted tag is gone.
// Podman keeps its images in a storage of the test's own (the vfs driver, no daemon).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { run } from '../helpers/skopeo.ts';

const hasPodman = spawnSync('sh', ['-c', 'command -v podman'], { stdio: 'ignore' }).status === 0;
if (!hasPodman) {
  if (process.env.CI) throw new Error('podman is missing: .ci/run installs it');
  console.log('container podman test skipped: podman is not installed (apt-get install podman)');
}
const describeWithPodman = hasPodman ? describe : describe.skip;

describeWithPodman('podman against a running Anvil', () => {
  let work: string;
  let anvil: ClientTestServer;
  let registry: string;

  /** podman with a storage and an auth file of the test's own, as `user`'s session. */
  async function podman(user: string, args: string[]): Promise<{ code: number; output: string }> {
    const env = {
      ...process.env,
      HOME: work,
      REGISTRY_AUTH_FILE: path.join(work, `${user}-auth.json`),
      CONTAINERS_STORAGE_CONF: path.join(work, 'storage.conf'),
      CONTAINERS_REGISTRIES_CONF: path.join(work, 'registries.conf'),
    };
    try {
      const { stdout, stderr } = await run('podman', args, { env, timeout: 120_000 });
      return { code: 0, output: stdout + stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code || 1, output: failed.stdout + failed.stderr };
    }
  }

  async function podmanOk(user: string, args: string[]): Promise<string> {
    const result = await podman(user, args);
    if (result.code !== 0) throw new Error(`podman ${args.join(' ')}: ${result.output}`);
    return result.output;
  }

  const login = (user: string, secret: string) =>
    podmanOk(user, ['login', '--tls-verify=false', '-u', user, '-p', secret, registry]);

  /** The digest of the manifest Anvil serves under a tag. */
  async function servedDigest(image: string, tag: string, token: string): Promise<string | null> {
    const basic = Buffer.from(`alice:${token}`).toString('base64');
    const issued = await fetch(`${anvil.base}v2/token?scope=repository:${image}:pull`, {
      headers: { Authorization: `Basic ${basic}` },
    });
    const { token: bearer } = (await issued.json()) as { token: string };
    const res = await fetch(`${anvil.base}v2/${image}/manifests/${tag}`, {
      method: 'HEAD',
      headers: {
        Authorization: `Bearer ${bearer}`,
        Accept: 'application/vnd.oci.image.manifest.v1+json, application/vnd.docker.distribution.manifest.v2+json',
      },
    });
    return res.status === 200 ? res.headers.get('docker-content-digest') : null;
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-podman-'));
    const storage = `[storage]\ndriver = "vfs"\nrunroot = "${work}/run"\ngraphroot = "${work}/graph"\n`;
    fs.writeFileSync(path.join(work, 'storage.conf'), storage);
    fs.writeFileSync(path.join(work, 'registries.conf'), 'unqualified-search-registries = []\n');
    const rootfs = path.join(work, 'rootfs');
    fs.mkdirSync(rootfs);
    fs.writeFileSync(path.join(rootfs, 'hello.txt'), 'hello from anvil\n');
    await run('tar', ['-C', rootfs, '-cf', path.join(work, 'rootfs.tar'), '.']);
    anvil = await startClientTestServer({ name: 'podman', work, users: ['alice', 'bob'] });
    registry = `127.0.0.1:${anvil.server.port}`;
    await podmanOk('alice', ['import', path.join(work, 'rootfs.tar'), 'localhost/probe:v1']);
  }, 180_000);

  afterAll(() => anvil?.stop());

  it('pushes after login, pulls the same image back, and lists it in the packages API', async () => {
    await login('alice', anvil.tokens.alice);
    const image = `${registry}/alice/probe:v1`;
    await podmanOk('alice', ['push', '--tls-verify=false', 'localhost/probe:v1', image]);
    const digest = await servedDigest('alice/probe', 'v1', anvil.tokens.alice);
    expect(digest).toMatch(/^sha256:[0-9a-f]{64}$/);

    await podmanOk('alice', ['rmi', '--force', 'localhost/probe:v1']);
    await podmanOk('alice', ['pull', '--tls-verify=false', image]);
    const pulled = await podmanOk('alice', ['image', 'inspect', image, '--format', '{{.Digest}}']);
    expect(pulled.trim()).toBe(digest);

    const listed = await fetch(`${anvil.base}api/v1/packages/alice?type=container`, {
      headers: { Authorization: `token ${anvil.tokens.alice}` },
    });
    const packages = (await listed.json()) as { name: string; version: string }[];
    expect(packages.map((p) => `${p.name}:${p.version}`)).toContain('probe:v1');
  });

  it("refuses an outsider a private organization's image, and a deleted tag is gone for the client", async () => {
    const created = await fetch(`${anvil.base}api/v1/orgs`, {
      method: 'POST',
      headers: { Authorization: `token ${anvil.tokens.alice}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'hidden', visibility: 'private' }),
    });
    expect(created.status).toBe(201);
    const image = `${registry}/hidden/probe:v1`;
    await podmanOk('alice', ['tag', `${registry}/alice/probe:v1`, image]);
    await podmanOk('alice', ['push', '--tls-verify=false', image]);

    await login('bob', 'bob-password');
    await podmanOk('bob', ['rmi', '--force', image]);
    const refused = await podman('bob', ['pull', '--tls-verify=false', image]);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/unauthorized|denied|not found|unknown/i);

    const removed = await fetch(`${anvil.base}api/v1/packages/hidden/container/probe/v1`, {
      method: 'DELETE',
      headers: { Authorization: `token ${anvil.tokens.alice}` },
    });
    expect(removed.status).toBe(204);
    const gone = await podman('alice', ['pull', '--tls-verify=false', image]);
    expect(gone.code).not.toBe(0);
    expect(gone.output).toMatch(/manifest unknown/i);
  });
});
