// An Arch package upload read as it streams: the compression is told by the first bytes (zstd, xz or gzip, as
// makepkg writes them), the front of the body is decompressed just far enough to read the .PKGINFO makepkg puts
// first in the tar, and the bytes read so far are given back ahead of the rest for the blob store.
import { Readable, Transform } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { Decompress } from 'fzstd';
import { XzReadableStream } from 'xz-decompress';
import { BadRequestError } from '../../domain/errors.ts';
import { readChunk } from '../core/read-chunk.ts';
import { parsePkgInfo, type PkgInfo } from './pkginfo.ts';

export type ArchCompression = 'zst' | 'xz' | 'gz';

/** How far into the package .PKGINFO must be found: compressed bytes read, and tar bytes decompressed. */
const MAX_COMPRESSED = 16 * 1024 * 1024;
const MAX_TAR = 64 * 1024 * 1024;
const MAX_PKGINFO = 1024 * 1024;
const BLOCK = 512;

export interface PeekedArchPackage {
  info: PkgInfo;
  compression: ArchCompression;
  /** The whole upload, from its first byte. */
  body: Readable;
}

const malformed = (why: string) => new BadRequestError(`not a valid Arch package: ${why}`);

export function compressionOf(head: Buffer): ArchCompression {
  if (head.subarray(0, 4).equals(Buffer.from([0x28, 0xb5, 0x2f, 0xfd]))) return 'zst';
  if (head.subarray(0, 6).equals(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))) return 'xz';
  if (head[0] === 0x1f && head[1] === 0x8b) return 'gz';
  throw malformed('not compressed with zstd, xz or gzip');
}

function zstdStream(): Transform {
  const transform = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decompress.push(chunk);
        done();
      } catch (error) {
        done(malformed(`zstd: ${(error as Error).message}`));
      }
    },
  });
  const decompress = new Decompress((data) => transform.push(Buffer.from(data)));
  return transform;
}

/** The package's tar, decompressed as it streams. */
export function decompressed(kind: ArchCompression, compressed: Readable): Readable {
  if (kind === 'xz') {
    const web = Readable.toWeb(compressed) as ReadableStream<Uint8Array>;
    return Readable.fromWeb(new XzReadableStream(web) as import('node:stream/web').ReadableStream<Uint8Array>);
  }
  return compressed.pipe(kind === 'gz' ? createGunzip() : zstdStream());
}

function octal(block: Buffer, start: number, length: number): number {
  const text = block
    .toString('latin1', start, start + length)
    .replace(/\0.*$/s, '')
    .trim();
  if (!/^[0-7]*$/.test(text)) throw malformed('a broken tar header');
  return text === '' ? 0 : parseInt(text, 8);
}

/**
 * Finds .PKGINFO in a tar fed chunk by chunk, keeping only the bytes of the header or .PKGINFO being read (the data
 * of the files before it is counted and dropped, so a large first file costs no memory).
 */
export class PkgInfoScanner {
  private pending: Buffer = Buffer.alloc(0);
  /** Bytes of file data still to skip before the next header. */
  private skip = 0;
  /** The size of .PKGINFO once its header is read. */
  private wanted: number | null = null;

  /** The .PKGINFO text once its bytes are in; null while more are needed. Throws when the archive has none. */
  feed(chunk: Buffer): string | null {
    let data = chunk;
    for (;;) {
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, data.length);
        this.skip -= skipped;
        data = data.subarray(skipped);
        if (this.skip > 0) return null;
      }
      this.pending = this.pending.length === 0 ? data : Buffer.concat([this.pending, data]);
      if (this.wanted !== null) {
        return this.pending.length >= this.wanted ? this.pending.toString('utf8', 0, this.wanted) : null;
      }
      if (this.pending.length < BLOCK) return null;
      const header = this.pending.subarray(0, BLOCK);
      data = this.pending.subarray(BLOCK);
      this.pending = Buffer.alloc(0);
      if (header.every((byte) => byte === 0)) throw malformed('the archive has no .PKGINFO');
      const name = header.toString('utf8', 0, 100).replace(/\0.*$/s, '');
      const size = octal(header, 124, 12);
      const type = String.fromCharCode(header[156] ?? 0);
      if (name.replace(/^\.\//, '') === '.PKGINFO' && (type === '0' || type === '\0')) {
        if (size > MAX_PKGINFO) throw malformed('its .PKGINFO is too large');
        this.wanted = size;
      } else {
        this.skip = Math.ceil(size / BLOCK) * BLOCK;
      }
    }
  }
}

/** Reads the front of the body until .PKGINFO is read (400 when the package is none), leaving the rest unread. */
export async function peekArchPackage(body: Readable): Promise<PeekedArchPackage> {
  const consumed: Buffer[] = [];
  let compressedBytes = 0;
  let stopped = false;
  let frontDone: () => void = () => {};
  const frontFinished = new Promise<void>((resolve) => (frontDone = resolve));
  async function* front(): AsyncGenerator<Buffer> {
    try {
      yield* frontChunks();
    } finally {
      frontDone();
    }
  }
  async function* frontChunks(): AsyncGenerator<Buffer> {
    while (!stopped) {
      const chunk = await readChunk(body);
      if (chunk === null) return;
      consumed.push(chunk);
      compressedBytes += chunk.length;
      if (compressedBytes > MAX_COMPRESSED) throw malformed('no .PKGINFO near the start of the archive');
      yield chunk;
    }
  }
  const first = Readable.from(front());
  let pkgInfo: string | null = null;
  const scanner = new PkgInfoScanner();
  let tarBytes = 0;
  // The compression is told by the first chunk; the decompressor reads the same stream from its first byte.
  const head = await new Promise<Buffer>((resolve, reject) => {
    first.once('error', reject);
    first.once('end', () => resolve(Buffer.alloc(0)));
    first.once('readable', () => resolve((first.read() as Buffer | null) ?? Buffer.alloc(0)));
  });
  const compression = compressionOf(head);
  try {
    for await (const chunk of decompressed(compression, prependOne(head, first))) {
      tarBytes += (chunk as Buffer).length;
      if (tarBytes > MAX_TAR) throw malformed('no .PKGINFO near the start of the archive');
      pkgInfo = scanner.feed(chunk as Buffer);
      if (pkgInfo !== null) break;
    }
  } catch (error) {
    if (error instanceof BadRequestError) throw error;
    throw malformed((error as Error).message);
  } finally {
    // A chunk the front may be reading still counts as consumed: wait for it before the bytes are given back.
    stopped = true;
    first.destroy();
    await frontFinished;
  }
  if (pkgInfo === null) throw malformed('the archive ends before its .PKGINFO');
  const info = parsePkgInfo(pkgInfo);
  return { info, compression, body: Readable.from(replay(Buffer.concat(consumed), body)) };
}

function prependOne(head: Buffer, rest: Readable): Readable {
  return Readable.from(replay(head, rest));
}

async function* replay(prefix: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  if (prefix.length > 0) yield prefix;
  for await (const chunk of rest) yield chunk as Buffer;
}
