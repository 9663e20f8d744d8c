// Helpers for the npm registry tests: a package tarball as npm packs it, and the body `npm publish` sends.
import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { TestApp } from './test-app.ts';

/** A gzipped tarball with `package/package.json` and `package/index.js`, and extra bytes to give it a size. */
export async function npmTarball(name: string, version: string, padding = 0): Promise<Buffer> {
  const pack = tar.pack();
  pack.entry({ name: 'package/package.json' }, JSON.stringify({ name, version, main: 'index.js' }));
  pack.entry({ name: 'package/index.js' }, `module.exports = ${JSON.stringify(`${name}@${version}`)};\n`);
  if (padding > 0) pack.entry({ name: 'package/padding.bin' }, Buffer.alloc(padding, 7));
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

export function integrity(bytes: Buffer): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

export function shasum(bytes: Buffer): string {
  return createHash('sha1').update(bytes).digest('hex');
}

export interface PublishOptions {
  tag?: string;
  description?: string;
  /** Overrides of the version's dist (a wrong integrity, say). */
  dist?: Record<string, string>;
  dependencies?: Record<string, string>;
}

/** The JSON body of `npm publish` (libnpmpublish): metadata first, then the base64 tarball. */
export function publishBody(name: string, version: string, tarball: Buffer, options: PublishOptions = {}): string {
  const fileName = `${name}-${version}.tgz`;
  const manifest = {
    name,
    version,
    description: options.description ?? `the ${name} package`,
    main: 'index.js',
    dependencies: options.dependencies ?? {},
    readme: `# ${name}`,
    _id: `${name}@${version}`,
    dist: { integrity: integrity(tarball), shasum: shasum(tarball), tarball: `http://x/${fileName}`, ...options.dist },
  };
  return JSON.stringify({
    _id: name,
    name,
    description: manifest.description,
    'dist-tags': { [options.tag ?? 'latest']: version },
    versions: { [version]: manifest },
    access: null,
    _attachments: {
      [fileName]: {
        content_type: 'application/octet-stream',
        data: tarball.toString('base64'),
        length: tarball.length,
      },
    },
  });
}

/** The registry's path for an owner: `/api/packages/<owner>/npm`. */
export function npmRegistry(owner: string): string {
  return `/api/packages/${owner}/npm`;
}

/** A package name as npm puts it in a path: the scope's slash encoded. */
export function npmPath(name: string): string {
  return name.replace('/', '%2f');
}

/** A publish; `expect(status)` sends it and checks the status, as supertest's own `expect` does. */
export function publish(
  t: TestApp,
  auth: string | null,
  owner: string,
  name: string,
  version: string,
  options: PublishOptions & { tarball?: Buffer } = {},
) {
  const send = async () => {
    const tarball = options.tarball ?? (await npmTarball(name, version));
    const request = t
      .request()
      .put(`${npmRegistry(owner)}/${npmPath(name)}`)
      .set('Content-Type', 'application/json');
    if (auth) request.set('Authorization', auth);
    return request.send(publishBody(name, version, tarball, options));
  };
  return {
    async expect(status: number) {
      const res = await send();
      if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${res.text}`);
      return res;
    },
  };
}
