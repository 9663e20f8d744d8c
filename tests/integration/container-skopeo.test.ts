// The container registry driven by the real client: skopeo copies an OCI image layout built here on disk to a
// running Anvil over plain HTTP, inspects it, copies it back and compares digests; a multi-platform index; a delete
// the client sees; an anonymous pull of a public image; a private organization's image refused to an outsider.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AnvilProcess } from '../helpers/anvil-process.ts';
import { type ClientTestServer, startClientTestServer } from '../helpers/client-test-server.ts';
import { hasSkopeo, Layout, OCI_INDEX, run, sha256 } from '../helpers/skopeo.ts';

if (!hasSkopeo) {
  if (process.env.CI) throw new Error('skopeo is missing: .ci/run installs it');
  console.log('container skopeo test skipped: skopeo is not installed (apt-get install skopeo)');
}
const describeWithSkopeo = hasSkopeo ? describe : describe.skip;

describeWithSkopeo('skopeo against a running Anvil', () => {
  let anvil: ClientTestServer;
  let work: string;
  let server: AnvilProcess;
  let registry: string;
  let aliceCreds: string;
  let bobCreds: string;
  let aliceToken: string;

  const skopeo = (args: string[]) =>
    run('skopeo', ['--policy', path.join(work, 'policy.json'), ...args], { env: { ...process.env, HOME: work } });

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-skopeo-'));
    fs.writeFileSync(path.join(work, 'policy.json'), JSON.stringify({ default: [{ type: 'insecureAcceptAnything' }] }));
    anvil = await startClientTestServer({ name: 'skopeo', work, users: ['alice', 'bob'] });
    server = anvil.server;
    aliceToken = anvil.tokens.alice;
    aliceCreds = `alice:${aliceToken}`;
    bobCreds = 'bob:bob-password';
    registry = `127.0.0.1:${server.port}`;
  }, 120_000);

  afterAll(() => anvil?.stop());

  const inspectDigest = async (reference: string, creds: string[]) =>
    (
      await skopeo([
        'inspect',
        '--tls-verify=false',
        ...creds,
        '--format',
        '{{.Digest}}',
        `docker://${registry}/${reference}`,
      ])
    ).stdout.trim();

  it('copies an image there and back with the same digest, and pulls it anonymously', async () => {
    const layout = new Layout(path.join(work, 'single'));
    const image = layout.image('amd64');
    layout.tag(image, 'v1');
    await skopeo([
      'copy',
      '--dest-tls-verify=false',
      '--dest-creds',
      aliceCreds,
      `oci:${layout.dir}:v1`,
      `docker://${registry}/alice/app:v1`,
    ]);
    const raw = await skopeo([
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      aliceCreds,
      `docker://${registry}/alice/app:v1`,
    ]);
    expect(`sha256:${sha256(Buffer.from(raw.stdout))}`).toBe(image.digest);
    expect(await inspectDigest('alice/app:v1', ['--creds', aliceCreds])).toBe(image.digest);

    const back = path.join(work, 'back');
    await skopeo([
      'copy',
      '--src-tls-verify=false',
      '--src-creds',
      aliceCreds,
      `docker://${registry}/alice/app:v1`,
      `oci:${back}:v1`,
    ]);
    const index = JSON.parse(fs.readFileSync(path.join(back, 'index.json'), 'utf8')) as {
      manifests: { digest: string }[];
    };
    expect(index.manifests[0].digest).toBe(image.digest);

    expect(await inspectDigest('alice/app:v1', ['--no-creds'])).toBe(image.digest);
  }, 120_000);

  it('copies a multi-platform index with --all and serves it as an index', async () => {
    const layout = new Layout(path.join(work, 'multi'));
    const platforms = [layout.image('amd64'), layout.image('arm64')];
    const index = layout.index(platforms);
    layout.tag(index, 'v1');
    await skopeo([
      'copy',
      '--all',
      '--dest-tls-verify=false',
      '--dest-creds',
      aliceCreds,
      `oci:${layout.dir}:v1`,
      `docker://${registry}/alice/multi:v1`,
    ]);
    const raw = await skopeo([
      'inspect',
      '--raw',
      '--tls-verify=false',
      '--creds',
      aliceCreds,
      `docker://${registry}/alice/multi:v1`,
    ]);
    expect(JSON.parse(raw.stdout)).toMatchObject({ mediaType: OCI_INDEX });
    expect(`sha256:${sha256(Buffer.from(raw.stdout))}`).toBe(index.digest);
    const arm = await skopeo([
      'inspect',
      '--tls-verify=false',
      '--creds',
      aliceCreds,
      '--override-arch',
      'arm64',
      `docker://${registry}/alice/multi:v1`,
    ]);
    expect(JSON.parse(arm.stdout)).toMatchObject({ Architecture: 'arm64' });
  }, 120_000);

  it('deletes an image the client then cannot find', async () => {
    const layout = new Layout(path.join(work, 'doomed'));
    layout.tag(layout.image('amd64'), 'v1');
    await skopeo([
      'copy',
      '--dest-tls-verify=false',
      '--dest-creds',
      aliceCreds,
      `oci:${layout.dir}:v1`,
      `docker://${registry}/alice/doomed:v1`,
    ]);
    await skopeo(['delete', '--tls-verify=false', '--creds', aliceCreds, `docker://${registry}/alice/doomed:v1`]);
    await expect(inspectDigest('alice/doomed:v1', ['--creds', aliceCreds])).rejects.toMatchObject({
      stderr: expect.stringMatching(/manifest unknown|not found/i),
    });
  }, 120_000);

  it("refuses a private organization's image to an outsider", async () => {
    const created = await fetch(`http://${registry}/api/v1/orgs`, {
      method: 'POST',
      headers: { Authorization: `token ${aliceToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'secretorg', visibility: 'private' }),
    });
    expect(created.status).toBe(201);
    const layout = new Layout(path.join(work, 'secret'));
    const image = layout.image('amd64');
    layout.tag(image, 'v1');
    await skopeo([
      'copy',
      '--dest-tls-verify=false',
      '--dest-creds',
      aliceCreds,
      `oci:${layout.dir}:v1`,
      `docker://${registry}/secretorg/app:v1`,
    ]);
    expect(await inspectDigest('secretorg/app:v1', ['--creds', aliceCreds])).toBe(image.digest);
    await expect(inspectDigest('secretorg/app:v1', ['--creds', bobCreds])).rejects.toMatchObject({
      stderr: expect.stringMatching(/unknown|not found|denied|unauthorized/i),
    });
    await expect(inspectDigest('secretorg/app:v1', ['--no-creds'])).rejects.toMatchObject({
      stderr: expect.stringMatching(/unauthorized|authentication required/i),
    });
  }, 120_000);
});
