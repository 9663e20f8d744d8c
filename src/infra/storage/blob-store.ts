// Package blobs are content-addressed: the key of a blob is the SHA-256 of its bytes, so the same bytes uploaded by
// any owner are stored once. Nothing outside a store knows where the bytes live; the local-directory store is the
// default, an S3 bucket the other (Forgejo: modules/storage; [storage], [storage.packages], [packages] STORAGE_TYPE).
// An upload is staged first and published under its key only inside the transaction that records it, so that it
// cannot interleave with the removal of the same bytes by another owner.
import type { Readable, Writable } from 'node:stream';

export type DigestAlgorithm = 'md5' | 'sha1' | 'sha256' | 'sha512';
export const DIGEST_ALGORITHMS: readonly DigestAlgorithm[] = ['md5', 'sha1', 'sha256', 'sha512'];

/** An upload's size and digests, as hex; a digest not computed on the way in is empty (see PutOptions). */
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

/**
 * Who decides, as bytes arrive, whether more may come (a quota reservation): `admit` is called with the running
 * total before those bytes go on, and refuses by throwing (or rejecting).
 */
export interface ByteBudget {
  admit(totalBytes: number): void | Promise<void>;
}

export interface PutOptions {
  /** Refuse (PayloadTooLargeError) once more bytes than this arrive; nothing is kept then. */
  maxBytes?: number;
  budget?: ByteBudget;
  /**
   * The digests computed on the way in (all by default); SHA-256, the content address, always is. md5 alone
   * halves the rate a large upload is taken in, so a registry that does not check the others leaves them for later.
   */
  algorithms?: readonly DigestAlgorithm[];
  /**
   * The source's chunks belong to this upload alone (a request body nothing else reads): a store may free each one
   * as soon as it is written, and then no one may read it again.
   */
  releaseChunks?: boolean;
}

/** Bytes received completely into a private place of the store, not yet readable under their key. */
export interface StagedBlob {
  digests: BlobDigests;
  /**
   * Makes the bytes readable under their key unless the same bytes are there; true when it put them there. Call
   * it while the hash is locked against removal (PackageBlobRepository.lockHashes); it may be called again.
   */
  publish(): Promise<boolean>;
  /** Removes the private copy; call it once, whatever happened. */
  discard(): Promise<void>;
}

export interface BlobStore {
  /** Streams the bytes into a private place, hashing them on the way; nothing is kept when this fails. */
  stage(source: Readable, options?: PutOptions): Promise<StagedBlob>;
  /** The bytes under a key, or the range of them. */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** Writes the bytes under a key (or the range of them) into a destination, such as a response, and ends it. */
  sendTo(key: string, destination: Writable, range?: ByteRange): Promise<void>;
  stat(key: string): Promise<{ size: number } | null>;
  /** Removes the bytes under a key; a missing key is not an error. */
  delete(key: string): Promise<void>;
}

export function isBlobKey(key: string): boolean {
  return /^[0-9a-f]{64}$/.test(key);
}
