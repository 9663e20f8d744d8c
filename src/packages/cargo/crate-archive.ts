// What a .crate must be (crates.io's own checks of an upload, crates_io_tarball): a gzip-compressed tar whose every
// entry is a file or directory under `<name>-<version>/`, holding that folder's Cargo.toml, unpacking to at most
// crates.io's bound. Checked as it streams in by the core's tar check.
import type tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';
import { TarArchiveCheck } from '../core/tar-check.ts';

/** crates.io's default bound on a crate's unpacked size. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;

const bad = (why: string) => new BadRequestError(`invalid crate: ${why}`);

/** `folder`: `<name>-<version>`, as cargo packs it. */
export function crateArchiveCheck(folder: string): TarArchiveCheck {
  let manifest = false;
  return new TarArchiveCheck({
    what: 'crate',
    gzip: 'required',
    maxUnpackedBytes: MAX_UNPACKED_BYTES,
    entry(header: tar.Headers, path: string) {
      if (path.split('/')[0] !== folder) throw bad(`the entry "${header.name}" is not under ${folder}/`);
      if (header.type !== 'file' && header.type !== 'directory')
        throw bad(`the entry "${header.name}" is a ${header.type}`);
      if (path === `${folder}/Cargo.toml` && header.type === 'file') manifest = true;
    },
    end() {
      if (!manifest) throw bad(`it has no ${folder}/Cargo.toml`);
    },
  });
}
