// Copies a file (or a byte range of it) into a writable, such as a response, through two buffers it reuses. A read
// stream allocates a fresh buffer per chunk, and those buffers, freed only by the garbage collector, made a 100 MiB
// download run a full collection every few megabytes (about half of its time); here a download allocates two.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ByteRange } from './blob-store.ts';

const CHUNK = 1024 * 1024;

/**
 * Chunk buffers of finished downloads, for the next ones: concurrent downloads of a few MiB each otherwise allocate
 * two megabytes apiece for the collector. Let go after a quiet spell, so an idle server holds none.
 */
const spare: Buffer[] = [];
const MAX_SPARE = 16;
const SPARE_FOR_MS = 10_000;
let releaseTimer: NodeJS.Timeout | undefined;

function chunkBuffer(): Buffer {
  return spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK);
}

/** Only buffers no write still holds may come back. */
function giveBack(buffers: readonly (Buffer | null)[]): void {
  for (const buffer of buffers) if (buffer?.length === CHUNK && spare.length < MAX_SPARE) spare.push(buffer);
  clearTimeout(releaseTimer);
  releaseTimer = setTimeout(() => (spare.length = 0), SPARE_FOR_MS).unref();
}

/**
 * Marks a wrapper of a destination's `write` that passes the write's callback on. A buffer is reused once its write
 * has called back; a wrapper that drops the callback (the compression library's) gets a plain stream copy instead.
 */
export const FORWARDS_WRITE_CALLBACK = Symbol('forwards the write callback');

function callsBack(destination: Writable): boolean {
  if (!Object.hasOwn(destination, 'write')) return true;
  return (destination.write as { [FORWARDS_WRITE_CALLBACK]?: boolean })[FORWARDS_WRITE_CALLBACK] === true;
}

/** Resolves once the destination has taken the chunk (a socket: handed to the kernel), so its buffer is free again. */
function written(destination: Writable, chunk: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const closed = () => reject(new Error('the destination closed before the file was sent'));
    destination.once('close', closed);
    destination.write(chunk, (error) => {
      destination.off('close', closed);
      if (error) reject(error);
      else resolve();
    });
  });
}

/** Files up to this size are read in one synchronous call: the four thread-pool round trips cost more than the read. */
const SMALL_FILE_BYTES = 64 * 1024;

/** The bytes to send of a small file (or range), or null for a large one. */
function smallFileBytes(filePath: string, range?: ByteRange): Buffer | null {
  const fd = fs.openSync(filePath, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const start = range?.start ?? 0;
    const end = range ? range.end + 1 : size;
    if (end - start > SMALL_FILE_BYTES) return null;
    const bytes = Buffer.allocUnsafe(Math.max(0, end - start));
    let read = 0;
    while (read < bytes.length) {
      const got = fs.readSync(fd, bytes, read, bytes.length - read, start + read);
      if (got === 0) throw new Error(`${filePath} ended at ${start + read} of ${end} bytes`);
      read += got;
    }
    return bytes;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes the file's bytes, or the range of them, then ends the destination: a socket or an HTTP response, which has
 * taken a chunk once its write calls back.
 */
export async function sendFile(filePath: string, destination: Writable, range?: ByteRange): Promise<void> {
  const small = callsBack(destination) ? smallFileBytes(filePath, range) : null;
  if (small) {
    if (small.length > 0) await written(destination, small);
    await new Promise<void>((resolve) => destination.end(resolve));
    return;
  }
  const handle = await fsp.open(filePath, 'r');
  if (!callsBack(destination)) {
    await pipeline(handle.createReadStream({ highWaterMark: CHUNK, ...(range ?? {}) }), destination);
    return;
  }
  try {
    const end = range ? range.end + 1 : (await handle.stat()).size;
    let position = range?.start ?? 0;
    // No larger than the bytes to send, and the second only when there is a second chunk: a small package
    // download then allocates its size, not two megabytes for the collector.
    const size = Math.max(1, Math.min(CHUNK, end - position));
    const buffers =
      size === CHUNK
        ? [chunkBuffer(), end - position > CHUNK ? chunkBuffer() : null]
        : [Buffer.allocUnsafeSlow(size), null];
    const inFlight: Promise<void>[] = [Promise.resolve(), Promise.resolve()];
    for (let turn = 0; position < end; turn = 1 - turn) {
      // The buffer's previous chunk must be taken before it is read into again; the other one's may still be going.
      await inFlight[turn];
      // With one buffer (a short read of a one-chunk file), it is reused only once its write is done.
      if (!buffers[turn]) await inFlight[1 - turn];
      const buffer = buffers[turn] ?? buffers[0]!;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(size, end - position), position);
      if (bytesRead === 0) throw new Error(`${filePath} ended at ${position} of ${end} bytes`);
      position += bytesRead;
      inFlight[turn] = written(destination, buffer.subarray(0, bytesRead));
      // A rejection is awaited on the buffer's next turn or below; until then it must not count as unhandled.
      inFlight[turn].catch(() => undefined);
    }
    await Promise.all(inFlight);
    giveBack(buffers);
    await new Promise<void>((resolve) => destination.end(resolve));
  } finally {
    await handle.close();
  }
}
