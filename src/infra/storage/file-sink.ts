// Writes a stream into a new file through one descriptor: chunks that arrive while a write is under way are written
// together (one writev), the file is flushed to disk before the stream finishes, and written chunks are optionally
// released at once (release-chunk.ts) rather than left for the garbage collector.
import fs from 'node:fs';
import { Writable } from 'node:stream';
import { releaseChunk } from './release-chunk.ts';

/** Chunks gathered while a write is under way, up to this, go in the next write. */
const GATHER_BYTES = 1024 * 1024;

export interface FileSinkOptions {
  /** The written chunks belong to this stream alone (see PutOptions.releaseChunks). */
  releaseChunks?: boolean;
}

export class FileSink extends Writable {
  private fd: number | null = null;

  /** Creates `filePath`, which must not exist. */
  constructor(
    private readonly filePath: string,
    private readonly options: FileSinkOptions = {},
  ) {
    super({ highWaterMark: GATHER_BYTES });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    fs.open(this.filePath, 'wx', (error, fd) => {
      if (!error) this.fd = fd;
      callback(error);
    });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeAll([chunk], callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.writeAll(
      chunks.map(({ chunk }) => chunk),
      callback,
    );
  }

  /** writev may write less than asked (a full disk, a signal): the rest is written again. */
  private writeAll(buffers: Buffer[], callback: (error?: Error | null) => void): void {
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

  override _final(callback: (error?: Error | null) => void): void {
    fs.fsync(this.fd!, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (this.fd === null) return callback(error);
    const fd = this.fd;
    this.fd = null;
    fs.close(fd, (closeError) => callback(error ?? closeError));
  }
}
