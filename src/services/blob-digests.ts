// The digests an upload left for later (a container layer is checked by its SHA-256 alone, and md5 would halve the
// rate it is taken in): computed from the stored bytes once the upload is recorded, one blob at a time per process,
// in the pauses between the blob transfers clients wait on, and at the latest before a listing shows them.
import { Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { BlobDigests } from '../infra/storage/blob-store.ts';
import { DigestStream } from '../infra/storage/digest-stream.ts';
import { releaseChunk } from '../infra/storage/release-chunk.ts';
import { blobTransfers } from '../infra/storage/transfer-activity.ts';
import type { ServiceDeps } from './service-deps.ts';

export function hasAllDigests(digests: BlobDigests): boolean {
  return digests.md5 !== '' && digests.sha1 !== '' && digests.sha512 !== '';
}

/** The same of a blob's row. */
export function rowHasAllDigests(row: { hashMd5: string; hashSha1: string; hashSha512: string }): boolean {
  return row.hashMd5 !== '' && row.hashSha1 !== '' && row.hashSha512 !== '';
}

/** How long no push or pull must have run before the background reads another chunk. */
const QUIET_MS = 1000;

/** Passes each chunk on once transfers have paused. */
function afterTransfers(): Transform {
  return new Transform({
    transform(chunk, _encoding, callback) {
      blobTransfers.quiet(QUIET_MS).then(() => callback(null, chunk), callback);
    },
  });
}

/**
 * Computes and stores the missing digests of these blobs; those already complete cost one query. In the background
 * it yields to transfers: otherwise hashing a pushed layer competes with the pull that follows it.
 */
export async function completeDigests(
  deps: ServiceDeps,
  hashes: readonly string[],
  options: { background?: boolean } = {},
): Promise<void> {
  for (const hash of await deps.repos.packageBlobs.withDigestsMissing(hashes)) {
    const digest = new DigestStream();
    // The chunks were read for this alone: freed once hashed, not left for the garbage collector (release-chunk.ts).
    const discard = new Writable({
      write: (chunk: Buffer, _encoding, callback) => {
        releaseChunk(chunk);
        callback();
      },
    });
    const source = await deps.packageBlobs.get(hash);
    if (options.background) await pipeline(source, afterTransfers(), digest, discard);
    else await pipeline(source, digest, discard);
    await deps.repos.packageBlobs.completeDigests(digest.digests());
  }
}

let backlog: Promise<void> = Promise.resolve();

/** Completes a blob's digests in the background, after the ones queued before it. */
export function completeDigestsLater(deps: ServiceDeps, hash: string): void {
  backlog = backlog
    .then(() => completeDigests(deps, [hash], { background: true }))
    .catch((error: unknown) => deps.log.warn({ err: error, blob: hash }, 'could not complete the digests of a blob'));
}
