// A .crate checked as it streams into the store: a gzip-compressed tar whose every entry is a file or directory
// under `<name>-<version>/` (no `..`, no absolute path, no link), holding that folder's Cargo.toml, unpacking to a
// bounded size (crates.io's own checks of an upload, crates_io_tarball). The bytes pass on unchanged; a crate that
// fails a check fails the stream with a 400, so the publish keeps nothing.
import { PassThrough, Transform, type TransformCallback, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';

/** crates.io's default bound on a crate's unpacked size. */
export const MAX_UNPACKED_BYTES = 512 * 1024 * 1024;
const MAX_ENTRIES = 100_000;
/** Headers, padding and PAX records on top of the files' own bytes. */
const TAR_OVERHEAD = MAX_ENTRIES * 1024;

const bad = (why: string) => new BadRequestError(`invalid crate: ${why}`);

/** Counts the unpacked bytes: a bomb stops at the bound, whatever its headers say. */
function unpackedBound(): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > MAX_UNPACKED_BYTES + TAR_OVERHEAD) callback(bad('it unpacks past the size limit'));
      else callback(null, chunk);
    },
  });
}

function checkEntry(header: tar.Headers, folder: string): void {
  const { name } = header;
  const segments = name.replace(/\/+$/, '').split('/');
  if (name.startsWith('/') || name.includes('\\') || segments.some((part) => part === '..' || part === '')) {
    throw bad(`the entry "${name}" leaves the crate's folder`);
  }
  if (segments[0] !== folder) throw bad(`the entry "${name}" is not under ${folder}/`);
  if (header.type !== 'file' && header.type !== 'directory') throw bad(`the entry "${name}" is a ${header.type}`);
}

/** Reads the archive to its end; rejects with a 400 on the first entry or byte that breaks a rule. */
async function inspect(input: PassThrough, folder: string): Promise<void> {
  const extract = tar.extract();
  const unpacking = new Promise<void>((resolve, reject) =>
    pipeline(input, createGunzip(), unpackedBound(), extract, (error) => (error ? reject(error) : resolve())),
  );
  unpacking.catch(() => undefined);
  let entries = 0;
  let declared = 0;
  let manifest = false;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      checkEntry(header, folder);
      entries += 1;
      declared += header.size ?? 0;
      if (entries > MAX_ENTRIES) throw bad(`it holds more than ${MAX_ENTRIES} entries`);
      if (declared > MAX_UNPACKED_BYTES) throw bad('it unpacks past the size limit');
      if (header.name === `${folder}/Cargo.toml` && header.type === 'file') manifest = true;
      entry.resume();
    }
    await unpacking;
  } catch (error) {
    input.destroy();
    if (error instanceof BadRequestError) throw error;
    throw bad('it is not a gzip-compressed tar archive');
  }
  if (!manifest) throw bad(`it has no ${folder}/Cargo.toml`);
}

/** Passes the crate's bytes through while checking them; the stream ends only once the check has passed. */
export class CrateArchiveCheck extends Transform {
  private readonly input = new PassThrough();
  private readonly checked: Promise<void>;
  private settled = false;
  /** Why the stream failed: the store reports a failed source as a body cut short, the client needs the reason. */
  failure: Error | null = null;
  /** The chunk held back while the check catches up. */
  private waiting: (() => void) | null = null;

  /** `folder`: `<name>-<version>`, as cargo packs it. */
  constructor(folder: string) {
    super();
    this.input.on('drain', () => this.release());
    this.checked = inspect(this.input, folder);
    this.checked.then(
      () => {
        this.settled = true;
        this.release();
      },
      (error: unknown) => {
        this.settled = true;
        this.destroy(error as Error);
      },
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.failure ??= error;
    this.input.destroy();
    callback(error);
  }

  private release(): void {
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    // Once the check is over, what follows (padding past the archive's end) needs no reading.
    if (this.settled || this.input.write(chunk)) callback(null, chunk);
    else this.waiting = () => callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.input.end();
    this.checked.then(() => callback(), callback);
  }
}
