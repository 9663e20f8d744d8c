// Helpers for the Conda registry tests: packages as conda-build makes them — a .tar.bz2 whose info/ comes first,
// or a .conda zip (stored entries) holding info-*.tar.zst and pkg-*.tar.zst — compressed by the bzip2 and zstd
// programs, as conda-package-handling does with the same formats.
import { spawnSync } from 'node:child_process';
import tar from 'tar-stream';

export interface CondaPackageSpec {
  name: string;
  version: string;
  build?: string;
  subdir?: string;
  depends?: string[];
  noarch?: string;
  /** Replaces info/index.json's text (malformed or huge metadata). */
  indexJson?: string;
  /** Extra tar entries of the info part, before index.json (a bomb, an escaping name). */
  infoEntries?: { name: string; body: Buffer | string }[];
  payload?: Buffer;
}

export function indexJsonOf(spec: CondaPackageSpec): string {
  return JSON.stringify({
    name: spec.name,
    version: spec.version,
    build: spec.build ?? 'h0_0',
    build_number: 0,
    subdir: spec.subdir ?? 'linux-64',
    arch: spec.subdir === 'noarch' ? null : 'x86_64',
    platform: spec.subdir === 'noarch' ? null : 'linux',
    ...(spec.noarch ? { noarch: spec.noarch } : {}),
    depends: spec.depends ?? ['libc >=2.17'],
    license: 'MIT',
    license_family: 'MIT',
    timestamp: 1700000000123,
  });
}

async function tarOf(entries: { name: string; body: Buffer | string }[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const entry of entries) pack.entry({ name: entry.name }, entry.body);
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of pack) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function run(program: string, input: Buffer): Buffer {
  const result = spawnSync(program, ['-c', '-q'], { input, maxBuffer: 1024 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${program} failed: ${String(result.stderr)}`);
  return result.stdout;
}

function infoEntries(spec: CondaPackageSpec) {
  const about = { summary: `${spec.name} summary`, description: 'A test package', home: 'https://example.com/home' };
  return [
    ...(spec.infoEntries ?? []),
    { name: 'info/about.json', body: JSON.stringify(about) },
    { name: 'info/index.json', body: spec.indexJson ?? indexJsonOf(spec) },
  ];
}

const payloadOf = (spec: CondaPackageSpec) => [
  { name: `lib/${spec.name}.txt`, body: spec.payload ?? Buffer.from(`${spec.name} ${spec.version}\n`) },
];

export async function condaTarBz2(spec: CondaPackageSpec): Promise<Buffer> {
  return run('bzip2', await tarOf([...infoEntries(spec), ...payloadOf(spec)]));
}

export async function condaV2(spec: CondaPackageSpec): Promise<Buffer> {
  const stem = `${spec.name}-${spec.version}-${spec.build ?? 'h0_0'}`;
  return storedZip([
    { name: 'metadata.json', body: Buffer.from(JSON.stringify({ conda_pkg_format_version: 2 })) },
    { name: `pkg-${stem}.tar.zst`, body: run('zstd', await tarOf(payloadOf(spec))) },
    { name: `info-${stem}.tar.zst`, body: run('zstd', await tarOf(infoEntries(spec))) },
  ]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** A zip of stored (uncompressed) entries, as conda-package-handling writes the outer .conda file. */
export function storedZip(entries: { name: string; body: Buffer }[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { name, body } of entries) {
    const fileName = Buffer.from(name);
    const crc = crc32(body);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(body.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(body.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, body);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + body.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
