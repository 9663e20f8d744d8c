// The blob transfers clients are waiting on, counted per process, so that background work on blobs (completing an
// upload's digests) waits for a quiet moment instead of taking the disk and the CPU from a push or a pull.
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { BlobStore, ByteRange, PutOptions, StagedBlob } from './blob-store.ts';

const POLL_MS = 100;

export class TransferActivity {
  private active = 0;
  private lastEnded = 0;

  async during<T>(work: () => Promise<T>): Promise<T> {
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.lastEnded = Date.now();
    }
  }

  /** Resolves once no transfer has run for `quietMs`. */
  async quiet(quietMs: number): Promise<void> {
    while (this.active > 0 || Date.now() - this.lastEnded < quietMs) await sleep(POLL_MS, undefined, { ref: false });
  }
}

export const blobTransfers = new TransferActivity();

/** A blob store whose uploads and downloads count as transfers; reads for background work (`get`) do not. */
export class TransferCountingBlobStore implements BlobStore {
  constructor(
    private readonly store: BlobStore,
    private readonly activity: TransferActivity = blobTransfers,
  ) {}

  stage(source: Readable, options?: PutOptions): Promise<StagedBlob> {
    return this.activity.during(() => this.store.stage(source, options));
  }

  get(key: string, range?: ByteRange): Promise<Readable> {
    return this.store.get(key, range);
  }

  sendTo(key: string, destination: Writable, range?: ByteRange): Promise<void> {
    return this.activity.during(() => this.store.sendTo(key, destination, range));
  }

  stat(key: string): Promise<{ size: number } | null> {
    return this.store.stat(key);
  }

  delete(key: string): Promise<void> {
    return this.store.delete(key);
  }
}
