// The body of `cargo publish` (Cargo's registry web API, "Publish"): a 32-bit little-endian length and that many
// bytes of JSON metadata, then a 32-bit length and the .crate itself. The metadata is read whole (bounded); the
// crate is handed on as a stream of exactly its announced length, never held in memory.
import { Readable } from 'node:stream';
import { BadRequestError } from '../../domain/errors.ts';
import { type CrateManifest, readCrateManifest } from './crate-metadata.ts';

/** crates.io keeps readmes of a few hundred KiB; metadata past this is refused before it is read. */
export const MAX_METADATA_BYTES = 4 * 1024 * 1024;

export interface CratePublish {
  manifest: CrateManifest;
  /** The length the body announces for the crate. */
  crateLength: number;
  /** The crate's bytes; more than crateLength fails the stream with a 400. */
  crate: Readable;
}

const bad = (why: string) => new BadRequestError(`invalid publish body: ${why}`);

/** Pulls exact byte counts off a stream's chunks. */
class ChunkReader {
  private buffered: Buffer[] = [];
  private size = 0;
  private readonly chunks: AsyncIterator<Buffer>;

  constructor(body: Readable) {
    this.chunks = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  }

  async take(count: number, what: string): Promise<Buffer> {
    while (this.size < count) {
      const next = await this.chunks.next();
      if (next.done) throw bad(`the body ends inside the ${what}`);
      this.buffered.push(next.value);
      this.size += next.value.length;
    }
    const all = Buffer.concat(this.buffered);
    this.buffered = [all.subarray(count)];
    this.size = all.length - count;
    return all.subarray(0, count);
  }

  /** What is left of the body, refused past `count` bytes. */
  async *rest(count: number): AsyncGenerator<Buffer> {
    let left = count;
    const pass = (chunk: Buffer) => {
      left -= chunk.length;
      if (left < 0) throw bad('the body goes on past the crate');
      return chunk;
    };
    for (const chunk of this.buffered) if (chunk.length > 0) yield pass(chunk);
    this.buffered = [];
    for (let next = await this.chunks.next(); !next.done; next = await this.chunks.next()) yield pass(next.value);
  }
}

export async function readCratePublish(body: Readable): Promise<CratePublish> {
  const reader = new ChunkReader(body);
  const metadataLength = (await reader.take(4, 'metadata length')).readUInt32LE(0);
  if (metadataLength > MAX_METADATA_BYTES) throw bad(`the metadata is larger than ${MAX_METADATA_BYTES} bytes`);
  const manifest = readCrateManifest((await reader.take(metadataLength, 'metadata')).toString('utf8'));
  const crateLength = (await reader.take(4, 'crate length')).readUInt32LE(0);
  return { manifest, crateLength, crate: Readable.from(reader.rest(crateLength), { objectMode: false }) };
}
