// An upload into the package store, as every registry takes one: the body is streamed into the blob store within
// the size limit and the owner's quota (reserved as bytes arrive, so the upload stops at the limit), then the
// registry's rows are recorded in one transaction that also ends the reservation and takes the hash's lock against
// removal; the bytes are published before it and checked again after it. Whatever fails, nothing is kept: no
// bytes, no rows, no hold.
import type { Readable } from 'node:stream';
import { PayloadTooLargeError } from '../../domain/errors.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { QuotaHold } from '../../services/quota-hold.ts';
import type { QuotaOwner, QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import type { BlobDigests, DigestAlgorithm, StagedBlob } from '../../infra/storage/blob-store.ts';
import { completeDigestsLater, hasAllDigests } from '../../services/blob-digests.ts';
import { removeUnreferencedBlobs } from './remove-blobs.ts';

export interface BlobUpload {
  /** Whose quota the bytes count against. */
  owner: QuotaOwner;
  body: Readable;
  /** Refused past this many bytes (413); none: no bound. */
  maxBytes?: number;
  /** The Content-Length, reserved at once. */
  announcedLength?: number;
  /** The digests to compute on the way in (all by default); the others are completed after the commit. */
  algorithms?: readonly DigestAlgorithm[];
  /** The body is a request's, read by nothing else: its chunks are freed as soon as they are stored (PutOptions). */
  releaseChunks?: boolean;
}

export class ReceivedBlob {
  private published = false;
  private committed = false;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly staged: StagedBlob,
    private readonly hold: QuotaHold,
  ) {}

  get digests(): BlobDigests {
    return this.staged.digests;
  }

  /** Records the rows that refer to the blob; may be run again after it failed (a lost race on a new name). */
  async commit<T>(record: (repos: Repositories) => Promise<T>): Promise<T> {
    // The bytes are published before the rows that refer to them, so a download never finds rows without bytes, and
    // outside the transaction: file work queued behind other uploads' flushes would hold SQLite's one write lock.
    if (await this.staged.publish()) this.published = true;
    const recorded = await this.deps.transactions.run(async (repos) => {
      await this.hold.endIn(repos);
      await repos.packageBlobs.lockHashes([this.digests.sha256]);
      return record(repos);
    });
    this.committed = true;
    if (!hasAllDigests(this.digests)) completeDigestsLater(this.deps, this.digests.sha256);
    // A removal of the same bytes (another owner's last reference) may have run between the publish and the commit;
    // the staged copy puts them back. Once the rows are committed, no removal takes them.
    await this.staged.publish();
    return recorded;
  }

  /** Call once, after commit or instead of it: drops the staged copy, the hold, and bytes no row came to refer to. */
  async close(): Promise<void> {
    await this.staged.discard();
    await this.hold.release();
    if (this.published && !this.committed) await removeUnreferencedBlobs(this.deps, [this.digests.sha256]);
  }
}

const tooLarge = (maxBytes: number) => new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);

/** Streams an upload in under the owner's package quota; the caller commits it (or not), then closes it. */
export async function receivePackageBlob(
  deps: ServiceDeps,
  quota: QuotaService,
  upload: BlobUpload,
): Promise<ReceivedBlob> {
  // A length already past the limit is refused before a byte is read or a byte of quota reserved.
  if (upload.maxBytes !== undefined && (upload.announcedLength ?? 0) > upload.maxBytes) throw tooLarge(upload.maxBytes);
  const hold = await quota.hold(upload.owner, 'size:assets:packages:all', 'packages', upload.announcedLength);
  try {
    const staged = await deps.packageBlobs.stage(upload.body, {
      maxBytes: upload.maxBytes,
      budget: hold,
      algorithms: upload.algorithms,
      releaseChunks: upload.releaseChunks,
    });
    return new ReceivedBlob(deps, staged, hold);
  } catch (error) {
    await hold.release();
    throw error;
  }
}
