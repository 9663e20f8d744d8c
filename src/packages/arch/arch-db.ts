// An Arch repository's databases, as repo-add writes them: a gzipped tar with a `{name}-{version}/` directory and
// its `desc` per package ({repo}.db), the same with `files` (%FILES%: the paths it installs) beside each desc
// ({repo}.files, what `pacman -F` searches), each with a detached signature pacman checks with SigLevel Required. One database per architecture, holding that architecture's
// packages and the `any` ones; `any` alone for a repository of `any` packages only.
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import tar from 'tar-stream';
import { descEntry, type PkgInfo, type StoredArchFile } from './pkginfo.ts';

const gzipAsync = promisify(gzip);

export interface ArchDbPackage {
  info: PkgInfo;
  file: StoredArchFile;
  /** The paths the package installs (package-files.ts). */
  files: string[];
}

export interface ArchDbFile {
  name: string;
  bytes: Buffer;
}

export const ANY = 'any';

/** The `files` entry of a package: its paths under %FILES%, as repo-add writes it. */
export function filesEntry(files: string[]): string {
  return files.length === 0 ? '%FILES%\n\n' : `%FILES%\n${files.join('\n')}\n\n`;
}

async function tarball(packages: ArchDbPackage[], withFiles: boolean, mtime: Date): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pack.on('end', resolve);
    pack.on('error', reject);
  });
  const sorted = [...packages].sort((a, b) => a.info.name.localeCompare(b.info.name));
  for (const { info, file, files } of sorted) {
    const dir = `${info.name}-${info.version}`;
    pack.entry({ name: `${dir}/`, type: 'directory', mode: 0o755, mtime });
    pack.entry({ name: `${dir}/desc`, mode: 0o644, mtime }, descEntry(info, file));
    if (withFiles) pack.entry({ name: `${dir}/files`, mode: 0o644, mtime }, filesEntry(files));
  }
  pack.finalize();
  await ended;
  return gzipAsync(Buffer.concat(chunks));
}

/** The databases of a repository's packages and their signatures, named `{arch}.db`, `{arch}.files` (+ `.sig`). */
export async function buildArchDatabases(
  packages: ArchDbPackage[],
  sign: (data: Buffer) => Promise<Uint8Array>,
  now = new Date(),
): Promise<ArchDbFile[]> {
  if (packages.length === 0) return [];
  const arches = new Set(packages.map((pkg) => pkg.info.arch));
  arches.add(ANY);
  const files: ArchDbFile[] = [];
  for (const arch of [...arches].sort()) {
    const listed = packages.filter((pkg) => pkg.info.arch === arch || pkg.info.arch === ANY);
    for (const [kind, withFiles] of [
      ['db', false],
      ['files', true],
    ] as const) {
      const bytes = await tarball(listed, withFiles, now);
      files.push({ name: `${arch}.${kind}`, bytes });
      files.push({ name: `${arch}.${kind}.sig`, bytes: Buffer.from(await sign(bytes)) });
    }
  }
  return files;
}
