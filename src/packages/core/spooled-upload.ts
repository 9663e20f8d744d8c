// An upload whose metadata lies inside it (a Go module zip, a Composer archive): the body is written to a private
// temporary file within the type's size limit (413 past it), so the archive can be read at random before the
// package it names is known and published from the same bytes after. Forgejo does the same with its hashed buffer.
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobDigests } from '../../infra/storage/blob-store.ts';
import { receiveDigested } from '../../infra/storage/receive-digested.ts';

export interface SpooledUpload {
  /** The temporary file holding the bytes. */
  readonly path: string;
  readonly digests: BlobDigests;
  /** The bytes again, from the start. */
  open(): Readable;
  /** Removes the file; call it once, whatever happened. */
  dispose(): Promise<void>;
}

/** Writes the body to a temporary file, hashing it; nothing is kept when it fails. */
export async function spoolUpload(body: Readable, maxBytes?: number): Promise<SpooledUpload> {
  const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'anvil-upload-'));
  const file = path.join(dir, 'body');
  const dispose = () => fsp.rm(dir, { recursive: true, force: true });
  try {
    const write = (digested: Readable) => pipeline(digested, fs.createWriteStream(file, { flags: 'wx' }));
    const digests = await receiveDigested(body, { maxBytes }, write);
    return { path: file, digests, open: () => fs.createReadStream(file), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
