// Helpers for the tests that drive skopeo against a running Anvil: an OCI image layout built on disk (single and
// multi-platform images), and skopeo with a policy that accepts anything, over plain HTTP.
import { execFile, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export const run = promisify(execFile);

export const hasSkopeo = spawnSync('sh', ['-c', 'command -v skopeo'], { stdio: 'ignore' }).status === 0;

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

/** An OCI image layout under construction: blobs written by digest, index.json at the end. */
export class Layout {
  private readonly refs: object[] = [];
  /** The layer descriptors of every image made, in order. */
  readonly layers: Descriptor[] = [];

  constructor(readonly dir: string) {
    fs.mkdirSync(path.join(dir, 'blobs', 'sha256'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'oci-layout'), JSON.stringify({ imageLayoutVersion: '1.0.0' }));
  }

  blob(bytes: Buffer, mediaType: string): Descriptor {
    fs.writeFileSync(path.join(this.dir, 'blobs', 'sha256', sha256(bytes)), bytes);
    return { mediaType, digest: `sha256:${sha256(bytes)}`, size: bytes.length };
  }

  image(architecture: string, layerBytes = 256 * 1024) {
    const layerTar = randomBytes(layerBytes);
    const layer = this.blob(zlib.gzipSync(layerTar), 'application/vnd.oci.image.layer.v1.tar+gzip');
    this.layers.push(layer);
    const config = this.blob(
      Buffer.from(
        JSON.stringify({
          architecture,
          os: 'linux',
          rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(layerTar)}`] },
          config: { Labels: { arch: architecture } },
        }),
      ),
      'application/vnd.oci.image.config.v1+json',
    );
    const manifest = Buffer.from(
      JSON.stringify({ schemaVersion: 2, mediaType: OCI_MANIFEST, config, layers: [layer] }),
    );
    return { ...this.blob(manifest, OCI_MANIFEST), platform: { os: 'linux', architecture } };
  }

  /** An index of the given platform manifests. */
  index(platforms: object[]): Descriptor {
    return this.blob(
      Buffer.from(JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: platforms })),
      OCI_INDEX,
    );
  }

  tag(descriptor: object, name: string): void {
    this.refs.push({ ...descriptor, annotations: { 'org.opencontainers.image.ref.name': name } });
    fs.writeFileSync(
      path.join(this.dir, 'index.json'),
      JSON.stringify({ schemaVersion: 2, mediaType: OCI_INDEX, manifests: this.refs }),
    );
  }
}

/** The manifest digests an OCI layout's index.json names. */
export function layoutDigests(dir: string): string[] {
  const index = JSON.parse(fs.readFileSync(path.join(dir, 'index.json'), 'utf8')) as {
    manifests: { digest: string }[];
  };
  return index.manifests.map((entry) => entry.digest);
}

/** skopeo with its own HOME and an accept-anything policy under `work`. */
export function skopeoIn(work: string) {
  const policy = path.join(work, 'policy.json');
  fs.writeFileSync(policy, JSON.stringify({ default: [{ type: 'insecureAcceptAnything' }] }));
  const skopeo = (args: string[]) =>
    run('skopeo', ['--policy', policy, ...args], { env: { ...process.env, HOME: work } });
  return {
    skopeo,
    /** Copies an OCI layout's tag to an image of the registry (`--all` for an index). */
    push: (layout: string, tag: string, registry: string, image: string, creds: string, extra: string[] = []) =>
      skopeo([
        'copy',
        ...extra,
        '--dest-tls-verify=false',
        '--dest-creds',
        creds,
        `oci:${layout}:${tag}`,
        `docker://${registry}/${image}`,
      ]),
    /** Copies an image of the registry into an OCI layout. */
    pull: (registry: string, image: string, creds: string[], layout: string, tag: string, extra: string[] = []) =>
      skopeo([
        'copy',
        ...extra,
        '--src-tls-verify=false',
        ...creds,
        `docker://${registry}/${image}`,
        `oci:${layout}:${tag}`,
      ]),
    /** The raw manifest bytes skopeo reads. */
    raw: async (registry: string, image: string, creds: string[]) =>
      (await skopeo(['inspect', '--raw', '--tls-verify=false', ...creds, `docker://${registry}/${image}`])).stdout,
    /** The digest skopeo reports. */
    digest: async (registry: string, image: string, creds: string[]) =>
      (
        await skopeo([
          'inspect',
          '--tls-verify=false',
          ...creds,
          '--format',
          '{{.Digest}}',
          `docker://${registry}/${image}`,
        ])
      ).stdout.trim(),
  };
}
