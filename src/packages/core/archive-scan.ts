// An uploaded tar archive (gzip-compressed or not) read as it streams, for the registries that find their metadata
// inside one (a .gem, an R source package): every entry's path is checked — none absolute or climbing out with
// `..`, links the same — and a gzip stream that unpacks far beyond its size (a decompression bomb) is refused, as
// is an archive that is not one. Each refusal is a 400; nothing is written anywhere.
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tar from 'tar-stream';
import { BadRequestError } from '../../domain/errors.ts';

export interface TarEntry {
  name: string;
  type: string;
  size: number;
}

export interface TarScan {
  gzipped: boolean;
  /** Called for each regular file; it may read the body (or not) and the rest is skipped. */
  visit?: (entry: TarEntry, body: Readable) => void | Promise<void>;
}

/** Unpacked bytes may pass this only within BOMB_RATIO times the packed bytes read so far. */
const FREE_UNPACKED_BYTES = 64 * 1024 * 1024;
const BOMB_RATIO = 100;

const bad = (message: string) => new BadRequestError(message);

/** A path inside the archive that stays inside it. */
export function isSafeArchivePath(name: string): boolean {
  if (name === '' || name.startsWith('/') || name.includes('\\') || /^[A-Za-z]:/.test(name)) return false;
  return !name.split('/').some((segment) => segment === '..');
}

class ByteCounter extends Transform {
  bytes = 0;
  constructor(private readonly onBytes: () => void = () => undefined) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    try {
      this.onBytes();
      done(null, chunk);
    } catch (error) {
      done(error as Error);
    }
  }
}

/** Reads the whole archive; resolves once every entry has been seen. */
export function scanTar(source: Readable, scan: TarScan): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let failed = false;
    const fail = (error: unknown) => {
      if (failed) return;
      failed = true;
      reject(error instanceof BadRequestError ? error : bad(`the archive is malformed: ${(error as Error).message}`));
      source.destroy();
      extract.destroy();
    };
    const extract = tar.extract();
    extract.on('entry', (header, body, next) => {
      const entry = { name: header.name, type: header.type ?? 'file', size: header.size ?? 0 };
      const link = header.linkname ?? '';
      if (!isSafeArchivePath(entry.name) || (link !== '' && !isSafeLink(entry.name, link, entry.type))) {
        fail(bad(`the archive holds a path outside it: ${entry.name}`));
        return;
      }
      // tar-stream's entry streams (streamx) do not say whether they ended: it is watched from the start.
      let ended = false;
      body.on('end', () => (ended = true));
      body.on('error', fail);
      const visited = entry.type === 'file' && scan.visit ? scan.visit(entry, body) : undefined;
      Promise.resolve(visited).then(() => {
        if (ended) return next();
        body.on('end', () => next());
        body.resume();
      }, fail);
    });
    extract.on('finish', () => {
      if (!failed) resolve();
    });
    extract.on('error', fail);
    source.on('error', fail);
    if (!scan.gzipped) {
      source.pipe(extract);
      return;
    }
    const packed = new ByteCounter();
    const unpacked = new ByteCounter(() => {
      if (unpacked.bytes > FREE_UNPACKED_BYTES && unpacked.bytes > packed.bytes * BOMB_RATIO)
        throw bad('the archive unpacks to far more than its size');
    });
    const gunzip = createGunzip();
    for (const stream of [packed, gunzip, unpacked]) stream.on('error', fail);
    source.pipe(packed).pipe(gunzip).pipe(unpacked).pipe(extract);
  });
}

/** A hard or symbolic link whose target stays inside the archive. */
function isSafeLink(name: string, link: string, type: string): boolean {
  if (type === 'link') return isSafeArchivePath(link);
  if (link.startsWith('/')) return false;
  const parts = name.split('/').slice(0, -1);
  for (const segment of link.split('/')) {
    if (segment === '..') {
      if (parts.length === 0) return false;
      parts.pop();
    } else if (segment !== '.' && segment !== '') parts.push(segment);
  }
  return true;
}

/** An entry's bytes, at most `maxBytes` of them (400 past that). */
export async function readEntry(body: Readable, maxBytes: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw bad(`${what} is larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
