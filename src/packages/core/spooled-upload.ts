// An upload whose metadata sits inside the file (a .nupkg's .nuspec, a chart's Chart.yaml, a pubspec.yaml): the
// bytes are written to a private temporary file within the type's size limit, read there as often as the parser
// needs (a zip's directory is at its end), then streamed into the package store from it. Nothing is held in memory.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PayloadTooLargeError } from '../../domain/errors.ts';

export class SpooledUpload {
  private constructor(
    private readonly dir: string,
    /** The file's path, for parsers that read it at random. */
    readonly path: string,
    readonly size: number,
  ) {}

  /** Reads the body to its end into a temporary file; past `maxBytes` it answers 413 and keeps nothing. */
  static async receive(body: Readable, maxBytes?: number): Promise<SpooledUpload> {
    const dir = await mkdtemp(path.join(tmpdir(), 'anvil-upload-'));
    const file = path.join(dir, 'upload');
    let size = 0;
    const bounded = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (maxBytes !== undefined && size > maxBytes) {
          done(new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`));
          return;
        }
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, bounded, createWriteStream(file));
    } catch (error) {
      body.resume();
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
    return new SpooledUpload(dir, file, size);
  }

  open(): Readable {
    return createReadStream(this.path);
  }

  /** Call once, whatever happened. */
  async dispose(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}
