// The dump's container: a gzipped tar, written and read as a stream so neither side holds the data in memory.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';

const READ_CHUNK = 1024 * 1024;

export interface EntryAttributes {
  mode: number;
  mtime: Date;
}

export class ArchiveWriter {
  private readonly pack = tar.pack();
  private readonly written: Promise<void>;
  /** Rejects once the output fails (a full disk): whatever waits on the pack must stop waiting then. */
  private readonly failed: Promise<never>;

  constructor(output: Writable) {
    this.written = pipeline(Readable.from(this.pack), zlib.createGzip(), output);
    this.failed = this.written.then(
      () => new Promise<never>(() => undefined),
      (error: Error) => {
        this.pack.destroy(error);
        throw error;
      },
    );
    this.failed.catch(() => undefined);
  }

  private whileWriting<T>(work: Promise<T>): Promise<T> {
    return Promise.race([work, this.failed]);
  }

  private entry(header: tar.Headers, data?: Buffer): { sink: Writable; done: Promise<void> } {
    let sink!: Writable;
    const done = new Promise<void>((resolve, reject) => {
      const callback = (error?: Error | null) => (error ? reject(error) : resolve());
      sink = (data
        ? this.pack.entry(header, data, callback)
        : this.pack.entry(header, callback)) as unknown as Writable;
    });
    return { sink, done };
  }

  addBuffer(
    name: string,
    data: Buffer,
    { mode, mtime }: EntryAttributes = { mode: 0o600, mtime: new Date() },
  ): Promise<void> {
    return this.whileWriting(this.entry({ name, type: 'file', size: data.length, mode, mtime }, data).done);
  }

  addDirectory(name: string, { mode, mtime }: EntryAttributes): Promise<void> {
    return this.whileWriting(this.entry({ name, type: 'directory', mode, mtime }).done);
  }

  /**
   * Copies a file as long as it was when opened: bytes appended meanwhile are left out, so the entry's size
   * always matches. False when the file is gone by the time it is opened.
   */
  async addFile(name: string, file: string): Promise<boolean> {
    let handle;
    try {
      handle = await fsp.open(file, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
    try {
      const stats = await handle.stat();
      const { sink, done } = this.entry({
        name,
        type: 'file',
        size: stats.size,
        mode: stats.mode & 0o7777,
        mtime: stats.mtime,
      });
      let position = 0;
      while (position < stats.size) {
        // A fresh buffer each time: the pack keeps what it is given until the output has taken it.
        const chunk = Buffer.allocUnsafe(Math.min(READ_CHUNK, stats.size - position));
        const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
        if (bytesRead === 0) {
          sink.destroy(new Error(`${file} shrank while it was copied`));
          break;
        }
        position += bytesRead;
        if (!sink.write(chunk.subarray(0, bytesRead)))
          await this.whileWriting(new Promise((resolve) => sink.once('drain', resolve)));
      }
      sink.end();
      await this.whileWriting(done);
      return true;
    } finally {
      await handle.close();
    }
  }

  /** Ends the archive and waits until every byte is in the output. */
  async finish(): Promise<void> {
    this.pack.finalize();
    await this.written;
  }

  /** Stops writing; the output is left incomplete. */
  abort(error: Error): void {
    this.pack.destroy(error);
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** The entries of an archive in order; each must be read to its end (or resumed) before the next one comes. */
export async function* readArchive(file: string): AsyncGenerator<tar.Entry> {
  const head = Buffer.alloc(2);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 2, 0);
  } finally {
    fs.closeSync(fd);
  }
  const raw = fs.createReadStream(file);
  const source: Readable = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1] ? raw.pipe(zlib.createGunzip()) : raw;
  const extract = tar.extract();
  raw.on('error', (error) => extract.destroy(error));
  source.on('error', (error) => extract.destroy(error));
  source.pipe(extract as unknown as Writable);
  try {
    yield* extract;
  } finally {
    raw.destroy();
    extract.destroy();
  }
}
