// The entries of an uploaded tar archive (gzip-compressed or plain), read as it streams, with the checks every
// registry needs in one place: each entry's path — and a link's target — stays inside the archive (nothing
// absolute, no `..` climbing out, no backslashes), there are at most MAX_ENTRIES of them, and the unpacked bytes
// stay within the caller's bound for the packed bytes read so far, so a decompression bomb stops at the bound. A
// refusal, and an archive that is none, is a 400.
import { pipeline, type Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';

const MAX_ENTRIES = 100_000;

export interface TarReading {
  gzipped: boolean;
  /** How many unpacked bytes (tar headers included) may have come when `packed` bytes have been read. */
  maxUnpackedBytes(packed: number): number;
  /** Words a refusal, e.g. `invalid crate: …`. */
  refuse(why: string): BadRequestError;
}

export interface TarEntry {
  /** The entry's path, `./` and empty segments dropped. */
  readonly path: string;
  readonly header: tar.Headers;
  /** Its bytes; whatever the reader leaves unread is skipped. */
  readonly body: Readable;
}

/** The path without `./` segments, or a refusal when it is absolute or climbs out. */
export function entryPath(name: string, refuse: (why: string) => Error): string {
  if (name.startsWith('/') || name.includes('\\') || /^[a-zA-Z]:/.test(name))
    throw refuse(`the entry "${name}" is absolute`);
  const segments = name.split('/').filter((part) => part !== '' && part !== '.');
  if (segments.includes('..')) throw refuse(`the entry "${name}" leaves the archive`);
  return segments.join('/');
}

/** A hard link names a path in the archive; a symbolic link's target, from the link's directory, stays inside. */
function linkStaysInside(header: tar.Headers, path: string): boolean {
  const target = header.linkname ?? '';
  if (header.type === 'link') return !target.startsWith('/') && !target.split('/').includes('..');
  if (header.type !== 'symlink') return true;
  if (target.startsWith('/') || target.includes('\\')) return false;
  const parts = path.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') {
      if (parts.length === 0) return false;
      parts.pop();
    } else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return true;
}

function counter(onChunk: (bytes: number) => Error | null): Transform {
  let total = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      const refusal = onChunk(total);
      if (refusal) callback(refusal);
      else callback(null, chunk);
    },
  });
}

/** The archive's entries, each checked; stopping early (a `break`) stops reading the source. */
export async function* tarEntries(source: Readable, reading: TarReading): AsyncGenerator<TarEntry> {
  let packed = 0;
  const tooLarge = reading.refuse('it unpacks to far more than its size');
  const extract = tar.extract();
  const stages = [
    source,
    counter((bytes) => ((packed = bytes), null)),
    ...(reading.gzipped ? [createGunzip()] : []),
    counter((bytes) => (bytes > reading.maxUnpackedBytes(packed) ? tooLarge : null)),
    extract,
  ] as const;
  let failure: Error | undefined;
  pipeline([...stages], (error) => {
    if (error) failure ??= error;
  });
  let entries = 0;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      entries += 1;
      if (entries > MAX_ENTRIES) throw reading.refuse(`it holds more than ${MAX_ENTRIES} entries`);
      const path = entryPath(header.name, reading.refuse);
      if (!linkStaysInside(header, path)) throw reading.refuse(`the link "${header.name}" points outside it`);
      yield { path, header, body: entry };
      entry.resume();
    }
    if (failure) throw failure;
  } catch (error) {
    const cause = failure ?? error;
    if (cause instanceof BadRequestError) throw cause;
    if (error instanceof BadRequestError) throw error;
    throw reading.refuse(`it is not a ${reading.gzipped ? 'gzip-compressed ' : ''}tar archive`);
  } finally {
    for (const stage of stages) stage.destroy();
  }
}
