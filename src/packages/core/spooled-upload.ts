// An upload whose metadata lies inside it (a Go module zip, a Composer archive, a .nupkg's .nuspec, a chart's
// Chart.yaml): the body is written to a private temporary file within the type's size limit (413 past it) and hashed
// on the way, so the archive can be read at random (a zip's directory is at its end) before the package it names is
// known, and published from the same bytes after. Nothing is held in memory. Forgejo does the same with its hashed
// buffer.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobDigests } from '../../infra/storage/blob-store.ts';
import { receiveDigested } from '../../infra/storage/receive-digested.ts';

export class SpooledUpload {
  private constructor(
    private readonly dir: string,
    /** The temporary file holding the bytes, for parsers that read it at random. */
    readonly path: string,
    readonly digests: BlobDigests,
  ) {}

  /** Writes the body to a temporary file, hashing it; past `maxBytes` it answers 413, and it keeps nothing on failure. */
  static async receive(body: Readable, maxBytes?: number): Promise<SpooledUpload> {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'anvil-upload-'));
    const file = path.join(dir, 'body');
    try {
      const write = (digested: Readable) => pipeline(digested, fs.createWriteStream(file, { flags: 'wx' }));
      return new SpooledUpload(dir, file, await receiveDigested(body, { maxBytes }, write));
    } catch (error) {
      await fsp.rm(dir, { recursive: true, force: true });
      throw error;
    }
  }

  get size(): number {
    return this.digests.size;
  }

  /** The bytes again, from the start. */
  open(): Readable {
    return fs.createReadStream(this.path);
  }

  /** Removes the file; call it once, whatever happened. */
  async dispose(): Promise<void> {
    await fsp.rm(this.dir, { recursive: true, force: true });
  }
}
