// Helpers for the container registry tests: registry tokens, blob and manifest pushes through /v2 as an OCI
// client sends them, and the documents of a small image.
import { createHash, randomBytes } from 'node:crypto';
import type { TestApp } from './test-app.ts';

export const OCI_MANIFEST = 'application/vnd.oci.image.manifest.v1+json';
export const OCI_INDEX = 'application/vnd.oci.image.index.v1+json';
export const OCI_CONFIG = 'application/vnd.oci.image.config.v1+json';
export const OCI_LAYER = 'application/vnd.oci.image.layer.v1.tar+gzip';
export const DOCKER_MANIFEST = 'application/vnd.docker.distribution.manifest.v2+json';
export const DOCKER_LIST = 'application/vnd.docker.distribution.manifest.list.v2+json';

export function digestOf(bytes: Buffer | string): string {
  return `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
}

export function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

/** A registry token for the credential (an Authorization header value), or an anonymous one. */
export async function registryToken(t: TestApp, authorization?: string): Promise<string> {
  const request = t.request().get('/v2/token');
  if (authorization) request.set('Authorization', authorization);
  const res = await request.expect(200);
  return `Bearer ${(res.body as { token: string }).token}`;
}

/** A monolithic blob push (POST ?digest=). */
export function pushBlob(t: TestApp, auth: string, name: string, bytes: Buffer, digest = digestOf(bytes)) {
  return t
    .request()
    .post(`/v2/${name}/blobs/uploads/?digest=${digest}`)
    .set('Authorization', auth)
    .set('Content-Type', 'application/octet-stream')
    .send(bytes);
}

export function pushManifest(
  t: TestApp,
  auth: string,
  name: string,
  reference: string,
  body: object | Buffer,
  type = OCI_MANIFEST,
) {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
  return t
    .request()
    .put(`/v2/${name}/manifests/${reference}`)
    .set('Authorization', auth)
    .set('Content-Type', type)
    .send(bytes.toString('latin1'));
}

export interface PushedImage {
  manifest: Buffer;
  digest: string;
  config: Buffer;
  layers: Buffer[];
}

export function imageConfig(
  platform = { os: 'linux', architecture: 'amd64' },
  labels: Record<string, string> = {},
): Buffer {
  return Buffer.from(
    JSON.stringify({
      ...platform,
      config: { Labels: labels },
      rootfs: { type: 'layers', diff_ids: [] },
      history: [{ created_by: 'ADD file' }],
    }),
  );
}

export function manifestOf(config: Buffer, layers: Buffer[], extra: object = {}, mediaType = OCI_MANIFEST): Buffer {
  const docker = mediaType === DOCKER_MANIFEST;
  return Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType,
      config: {
        mediaType: docker ? 'application/vnd.docker.container.image.v1+json' : OCI_CONFIG,
        digest: digestOf(config),
        size: config.length,
      },
      layers: layers.map((layer) => ({
        mediaType: docker ? 'application/vnd.docker.image.rootfs.diff.tar.gzip' : OCI_LAYER,
        digest: digestOf(layer),
        size: layer.length,
      })),
      ...extra,
    }),
  );
}

/** Pushes a config, layers and the manifest under the reference (a tag or the digest). */
export async function pushImage(
  t: TestApp,
  auth: string,
  name: string,
  reference: string | null,
  options: { layers?: Buffer[]; config?: Buffer; extra?: object; mediaType?: string } = {},
): Promise<PushedImage> {
  const layers = options.layers ?? [randomBytes(2048)];
  const config = options.config ?? imageConfig();
  for (const blob of [config, ...layers]) await pushBlob(t, auth, name, blob).expect(201);
  const manifest = manifestOf(config, layers, options.extra, options.mediaType);
  const digest = digestOf(manifest);
  const pushed = await pushManifest(t, auth, name, reference ?? digest, manifest, options.mediaType ?? OCI_MANIFEST);
  if (pushed.status !== 201) throw new Error(`manifest push: ${pushed.status} ${JSON.stringify(pushed.body)}`);
  return { manifest, digest, config, layers };
}

/** Raw bytes of a response (supertest would parse JSON). */
export function raw(request: ReturnType<ReturnType<TestApp['request']>['get']>) {
  return request.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}
