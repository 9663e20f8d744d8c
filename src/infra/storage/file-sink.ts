// Writes a stream into a new file through one descriptor. A request body arrives in chunks of at most 64 KiB; they
// are gathered and written a megabyte at a time (one writev, one trip to the thread pool instead of sixteen), the
// file is flushed to disk before the stream finishes, and written chunks are optionally released at once
// (release-chunk.ts) rather than left for the garbage collector.
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { releaseChunk } from './release-chunk.ts';

/** Chunks are gathered up to this many bytes before they are written. */
const GATHER_BYTES = 1024 * 1024;

export interface FileSinkOptions {
  /** The written chunks belong to this stream alone (see PutOptions.releaseChunks). */
  releaseChunks?: boolean;
}

type Callback = (error?: Error | null) => void;

export class FileSink extends Writable {
  private fd: number | null = null;
  private gathered: Buffer[] = [];
  private gatheredBytes = 0;

  /** Creates `filePath`, which must not exist. */
  constructor(
    private readonly filePath: string,
    private readonly options: FileSinkOptions = {},
  ) {
    // The next megabyte keeps arriving while one is written.
    super({ highWaterMark: GATHER_BYTES });
  }

  override _construct(callback: Callback): void {
    fs.open(this.filePath, 'wx', (error, fd) => {
      if (!error) this.fd = fd;
      callback(error);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: Callback): void {
    this.gather([chunk], callback);
  }

  override _writev(chunks: { chunk: Buffer }[], callback: Callback): void {
    this.gather(
      chunks.map(({ chunk }) => chunk),
      callback,
    );
  }

  private gather(chunks: Buffer[], callback: Callback): void {
    for (const chunk of chunks) {
      this.gathered.push(chunk);
      this.gatheredBytes += chunk.length;
    }
    if (this.gatheredBytes < GATHER_BYTES) return callback();
    this.writeGathered(callback);
  }

  private writeGathered(callback: Callback): void {
    const buffers = this.gathered;
    this.gathered = [];
    this.gatheredBytes = 0;
    if (buffers.length === 0) return callback();
    this.writeAll(buffers, callback);
  }

  /** writev may write less than asked (a full disk, a signal): the rest is written again. */
  private writeAll(buffers: Buffer[], callback: Callback): void {
    fs.writev(this.fd!, buffers, (error, written) => {
      if (error) return callback(error);
      let rest = buffers;
      let skip = written;
      while (rest.length > 0 && skip >= rest[0].length) {
        skip -= rest[0].length;
        if (this.options.releaseChunks) releaseChunk(rest[0]);
        rest = rest.slice(1);
      }
      if (rest.length === 0) return callback();
      this.writeAll([rest[0].subarray(skip), ...rest.slice(1)], callback);
    });
  }

  override _final(callback: Callback): void {
    this.writeGathered((error) => {
      if (error) return callback(error);
      fs.fsync(this.fd!, callback);
    });
  }

  override _destroy(error: Error | null, callback: Callback): void {
    this.gathered = [];
    if (this.fd === null) return callback(error);
    const fd = this.fd;
    this.fd = null;
    fs.close(fd, (closeError) => callback(error ?? closeError));
  }
}
