// Helpers for the Cargo registry tests: .crate archives (sound and hostile) and the binary body `cargo publish`
// sends, built as cargo builds them.
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { TestApp } from './test-app.ts';

export const cargoRegistry = (owner: string) => `/api/packages/${owner}/cargo`;

export interface CrateEntry {
  name: string;
  body?: string | Buffer;
  type?: 'file' | 'directory' | 'symlink';
  linkname?: string;
}

/** A gzip-compressed tar of the entries (by default a sound crate: Cargo.toml and src/lib.rs under its folder). */
export async function crateArchive(name: string, version: string, entries?: CrateEntry[]): Promise<Buffer> {
  const folder = `${name}-${version}`;
  const pack = tar.pack();
  const list = entries ?? [
    { name: `${folder}/Cargo.toml`, body: `[package]\nname = "${name}"\nversion = "${version}"\n` },
    { name: `${folder}/src/lib.rs`, body: 'pub fn answer() -> u32 { 42 }\n' },
  ];
  for (const entry of list) {
    const { body, ...header } = entry;
    pack.entry({ type: 'file', ...header }, entry.type === 'symlink' || entry.type === 'directory' ? undefined : body);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return zlib.gzipSync(Buffer.concat(chunks));
}

/** A tar header whose entry claims `size` bytes, then a little of them, compressed: a bomb's opening. */
export function claimedSizeArchive(entryName: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(entryName, 0, 100);
  header.write('0000644\0', 100);
  header.write('0000000\0', 108);
  header.write('0000000\0', 116);
  header.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  header.write('00000000000\0', 136);
  header.write('        ', 148);
  header.write('0', 156);
  header.write('ustar\0', 257);
  header.write('00', 263);
  const sum = header.reduce((total, byte) => total + byte, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return zlib.gzipSync(Buffer.concat([header, Buffer.alloc(64 * 1024)]));
}

export interface CrateMetadataOptions {
  deps?: unknown[];
  features?: Record<string, string[]>;
  description?: string;
  links?: string;
  rust_version?: string;
}

/** The JSON metadata cargo sends for a crate. */
export function crateMetadata(name: string, version: string, options: CrateMetadataOptions = {}) {
  return {
    name,
    vers: version,
    deps: options.deps ?? [],
    features: options.features ?? {},
    authors: ['Test <test@example.com>'],
    description: options.description ?? `the ${name} crate`,
    documentation: null,
    homepage: 'https://example.com/home',
    readme: `# ${name}`,
    readme_file: 'README.md',
    keywords: ['test'],
    categories: [],
    license: 'MIT',
    license_file: null,
    repository: 'javascript:alert(1)',
    badges: {},
    links: options.links ?? null,
    rust_version: options.rust_version ?? null,
  };
}

/** The body of `cargo publish`: length-prefixed metadata JSON, then the length-prefixed crate. */
export function publishBody(metadata: unknown, crate: Buffer, announcedCrateLength = crate.length): Buffer {
  const json = Buffer.from(typeof metadata === 'string' ? metadata : JSON.stringify(metadata));
  const jsonLength = Buffer.alloc(4);
  jsonLength.writeUInt32LE(json.length);
  const crateLength = Buffer.alloc(4);
  crateLength.writeUInt32LE(announcedCrateLength);
  return Buffer.concat([jsonLength, json, crateLength, crate]);
}

/** `PUT /api/v1/crates/new` with the body, as cargo sends it (the token as its Authorization). */
export function putCrate(t: TestApp, owner: string, auth: string | null, body: Buffer) {
  const request = t.request().put(`${cargoRegistry(owner)}/api/v1/crates/new`);
  if (auth) request.set('Authorization', auth);
  return request.set('Content-Type', 'application/octet-stream').send(body);
}

/** Publishes a sound crate with the given metadata options. */
export async function publishCrate(
  t: TestApp,
  owner: string,
  auth: string,
  name: string,
  version: string,
  options: CrateMetadataOptions = {},
) {
  const crate = await crateArchive(name, version);
  return { crate, res: await putCrate(t, owner, auth, publishBody(crateMetadata(name, version, options), crate)) };
}
