// Blobs in a local directory, laid out as Forgejo lays out its content store: <root>/ab/cd/abcd…(the SHA-256).
// Bytes are streamed to a temporary file under <root>/tmp (file-sink.ts), flushed to disk, and linked into place
// only when complete and published, so a crash never leaves a partial blob under a key.
import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type BlobDigests,
  type BlobStore,
  type ByteRange,
  isBlobKey,
  type PutOptions,
  type StagedBlob,
} from './blob-store.ts';
import { FileSink } from './file-sink.ts';
import { receiveDigested } from './receive-digested.ts';
import { sendFile } from './send-file.ts';

const READ_CHUNK = 1024 * 1024;

export class LocalBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  private pathOf(key: string): string {
    // Keys come from the database; anything but a SHA-256 must never become a path.
    if (!isBlobKey(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
    return path.join(this.root, key.slice(0, 2), key.slice(2, 4), key);
  }

  async stage(source: Readable, options: PutOptions = {}): Promise<StagedBlob> {
    const tempDir = path.join(this.root, 'tmp');
    await fsp.mkdir(tempDir, { recursive: true });
    const temp = path.join(tempDir, randomUUID());
    try {
      const write = (body: Readable) => pipeline(body, new FileSink(temp, { releaseChunks: options.releaseChunks }));
      const digests = await receiveDigested(source, options, write);
      return { digests, publish: () => this.publish(temp, digests), discard: () => fsp.rm(temp, { force: true }) };
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }

  /** A second name for the staged file, renamed over the key: the staged copy stays for another publish. */
  private async publish(temp: string, digests: BlobDigests): Promise<boolean> {
    if ((await this.stat(digests.sha256))?.size === digests.size) return false;
    const target = this.pathOf(digests.sha256);
    const link = `${temp}.${randomUUID()}`;
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.link(temp, link);
    try {
      await fsp.rename(link, target);
    } catch (error) {
      await fsp.rm(link, { force: true });
      throw error;
    }
    return true;
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const handle = await fsp.open(this.pathOf(key), 'r');
    // 1 MiB reads: a large blob in a sixteenth of the thread-pool round trips the default 64 KiB reads take.
    return handle.createReadStream({
      highWaterMark: READ_CHUNK,
      ...(range ? { start: range.start, end: range.end } : {}),
    });
  }

  sendTo(key: string, destination: Writable, range?: ByteRange): Promise<void> {
    return sendFile(this.pathOf(key), destination, range);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const stats = await fsp.stat(this.pathOf(key));
      return { size: stats.size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }
}
