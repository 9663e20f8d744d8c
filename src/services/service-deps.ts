// What every service is built from: settings, the repositories (bound once, and a transaction helper that hands
// the same set bound to the transaction; never the database client itself), the file stores, the package blob
// store, the webhook payload renderer (a converter, handed over by bootstrap.ts), the background job queue, the
// logger and the password hasher.
import type { PasswordHasher } from '../auth/password.ts';
import type { Settings } from '../config/settings.ts';
import type { Repositories, Transactions } from '../db/repositories.ts';
import type { Logger } from '../infra/observability/logger.ts';
import type { JobQueue } from '../infra/queue/job-queue.ts';
import type { BlobStore } from '../infra/storage/blob-store.ts';
import type { Stores } from '../infra/storage/stores.ts';
import type { HookPayloadRenderer } from '../webhook/events.ts';

export interface ServiceDeps {
  readonly settings: Settings;
  readonly repos: Repositories;
  readonly transactions: Transactions;
  readonly stores: Stores;
  readonly packageBlobs: BlobStore;
  /** Release attachments, content-addressed apart from the packages' blobs (their removal counts other rows). */
  readonly attachmentBlobs: BlobStore;
  readonly hookPayloads: HookPayloadRenderer;
  readonly jobQueue: JobQueue;
  readonly log: Logger;
  readonly passwords: PasswordHasher;
}
