// The paths an Arch package installs, as repo-add lists them under %FILES% in the `.files` database (what
// `pacman -F` searches): every entry of the package's tar but makepkg's own metadata (.PKGINFO, .MTREE,
// .BUILDINFO, .INSTALL… at the top), without a leading "./", directories ending in "/", sorted.
import { Readable } from 'node:stream';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { compressionOf, decompressed } from './arch-upload.ts';

/** More entries than any real package has; past it the list is refused rather than held. */
const MAX_ENTRIES = 500_000;

export function listedPath(name: string, type: string | null | undefined): string | null {
  const path = name.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
  if (path === '' || path === '.' || path.startsWith('.')) return null;
  return type === 'directory' ? `${path}/` : path;
}

/** The installed paths of a whole package file (zstd, xz or gzip). */
export async function packageFiles(bytes: Buffer): Promise<string[]> {
  const paths: string[] = [];
  const extract = tar.extract();
  const done = new Promise<void>((resolve, reject) => {
    extract.on('entry', (header, stream, next) => {
      const path = listedPath(header.name, header.type);
      if (path !== null) paths.push(path);
      if (paths.length > MAX_ENTRIES) {
        extract.destroy(new BadRequestError('the package lists too many files'));
        return;
      }
      stream.on('end', () => next());
      stream.resume();
    });
    extract.on('finish', resolve);
    extract.on('error', reject);
  });
  const tarStream = decompressed(compressionOf(bytes), Readable.from([bytes]));
  tarStream.on('error', (error) => extract.destroy(error));
  tarStream.pipe(extract);
  await done;
  return [...new Set(paths)].sort();
}
