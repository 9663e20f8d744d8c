// Package blobs are content-addressed: the key of a blob is the SHA-256 of its bytes, so the same bytes uploaded by
// any owner are stored once. Nothing outside a store knows where the bytes live; the local-directory store is the
// default, an S3 bucket the other (Forgejo: modules/storage; [storage], [storage.packages], [packages] STORAGE_TYPE).
import type { Readable } from 'node:stream';

export interface BlobDigests {
  size: number;
  md5: string;
  sha1: string;
  /** The content address. */
  sha256: string;
  sha512: string;
}

/** Inclusive byte offsets, as in an HTTP Range. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutOptions {
  /** Refuse (PayloadTooLargeError) once more bytes than this arrive; nothing is kept then. */
  maxBytes?: number;
}

export interface BlobStore {
  /**
   * Streams the bytes into the store, hashing them on the way; they become visible under their SHA-256 only once
   * complete. `created` is false when the same bytes were stored already.
   */
  put(source: Readable, options?: PutOptions): Promise<{ digests: BlobDigests; created: boolean }>;
  /** The bytes under a key, or the range of them. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the bytes under a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

export function isBlobKey(key: string): boolean {
  return /^[0-9a-f]{64}$/.test(key);
}
