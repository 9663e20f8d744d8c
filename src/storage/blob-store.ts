// Package blobs are content-addressed: the key of a blob is the SHA-256 of its bytes, so the same bytes uploaded by
// any owner are stored once. Nothing outside a store knows where the bytes live; the local-directory store is the
// default, an S3 bucket the other (Forgejo: modules/storage; [storage], [storage.packages], [packages] STORAGE_TYPE).
import type { Readable } from 'node:stream';
import { LocalBlobStore } from './local-blob-store.ts';
import type * as S3BlobStoreModule from './s3-blob-store.ts';
import type * as S3ClientModule from './s3-client.ts';
import type { StorageSettings } from '../config/storage.ts';

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

export function createBlobStore(settings: StorageSettings): BlobStore {
  switch (settings.type) {
    case 'local':
      return new LocalBlobStore(settings.path);
    case 'minio': {
      // The S3 client is loaded only by instances that use object storage.
      const { S3BlobStore } = require('./s3-blob-store.ts') as typeof S3BlobStoreModule;
      const { createS3Client } = require('./s3-client.ts') as typeof S3ClientModule;
      return new S3BlobStore(createS3Client(settings), settings.bucket, settings.basePath);
    }
  }
}
