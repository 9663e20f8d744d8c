// The archives of a recipe or binary package (conan_export.tgz, conan_sources.tgz, conan_package.tgz), which the
// client unpacks into its cache: gzip-compressed tars whose entries and links stay inside, unpacking to a bounded
// size, so a bomb or a path out of the folder is refused (400) as it streams in, and nothing is kept.
import type tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { TarArchiveCheck } from '../core/tar-check.ts';

/** Built libraries compress well, but not past this ratio once past 256 MiB. */
const MAX_RATIO = 100;
const FREE_UNPACKED_BYTES = 256 * 1024 * 1024;

export function conanArchiveCheck(fileName: string): TarArchiveCheck {
  const bad = (why: string) => new BadRequestError(`invalid ${fileName}: ${why}`);
  return new TarArchiveCheck({
    what: fileName,
    gzip: 'required',
    maxUnpackedBytes: (compressed) => Math.max(FREE_UNPACKED_BYTES, compressed * MAX_RATIO),
    // Paths, and links' targets, are checked inside the archive by the core.
    entry(header: tar.Headers) {
      const { type } = header;
      if (type !== 'file' && type !== 'directory' && type !== 'symlink' && type !== 'link')
        throw bad(`the entry "${header.name}" is a ${type}`);
    },
    end() {},
  });
}
