// The signed indexes of the system-package repositories (Debian's Release and Packages, RPM's repodata, Alpine's
// APKINDEX…): rebuilt by a background job ("package-index") after each upload and delete, enqueued in the
// transaction of the change. A rebuild builds every file of the scope's set, then swaps the whole set in one
// transaction, so a read during a rebuild gets the previous complete set and a Release never names a Packages file
// with other hashes. Rebuilds of one scope are coalesced (a run drops the jobs waiting behind it: it does their
// work) and never lose a change: a swap is refused when another build swapped since this one started, and the
// build is done again. Each type registers its builder (src/packages/index-builders.ts).
import { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageVersionRow } from '../../db/package.repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import type { IndexHash, IndexScopeKey, StoredIndexFile } from '../../db/repository-index.repository.ts';
import type { JobResult, JobWorker, QueuedJob } from '../../infra/queue/job-queue.ts';
import type { StagedBlob } from '../../infra/storage/blob-store.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { removeUnreferencedBlobs } from './remove-blobs.ts';
import type { PackageSigningKeys } from './signing-keys.ts';

export const PACKAGE_INDEX_JOB = 'package-index';

/** One file of a built set: its name as clients ask for it below the scope, and its bytes. */
export interface IndexFile {
  name: string;
  data: Buffer;
}

export interface IndexBuildInput {
  deps: ServiceDeps;
  signingKeys: PackageSigningKeys;
  owner: User;
  type: string;
  scope: string;
}

export interface IndexBuilder {
  /** Every file of the scope's set, from the database as it is now; an empty list stores an empty set. */
  build(input: IndexBuildInput): Promise<IndexFile[]>;
  /** The scopes the version's files are in; asked in the transaction that deletes it, before it does. */
  scopesOf(repos: Repositories, version: PackageVersionRow): Promise<string[]>;
}

export type IndexBuilders = Readonly<Record<string, IndexBuilder>>;

/** Builds that lost the swap to another in a row before the job is given back to the queue. */
const SWAP_TRIES = 5;
/** Runs of a failing rebuild before it is given up (logged); the next change enqueues another. */
const MAX_ATTEMPTS = 6;
const LEASE_MS = 10 * 60_000;
const POLL_MS = 2_000;

function payloadOf(key: IndexScopeKey): IndexScopeKey {
  // One key order, so equal targets are equal payloads (the queue coalesces by payload text).
  return { ownerId: key.ownerId, type: key.type, scope: key.scope };
}

export class PackageIndexes {
  private readonly builders = new Map<string, IndexBuilder>();
  private worker: JobWorker | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly signingKeys: PackageSigningKeys,
    builders: IndexBuilders,
  ) {
    for (const [type, builder] of Object.entries(builders)) this.builders.set(type, builder);
  }

  /** Adds a type's builder (the table of src/packages/index-builders.ts is registered at start). */
  register(type: string, builder: IndexBuilder): void {
    this.builders.set(type, builder);
  }

  hasBuilder(type: string): boolean {
    return this.builders.has(type);
  }

  /** Asks for a rebuild of the scope; call it in the transaction of the change. */
  async enqueue(repos: Repositories, key: IndexScopeKey): Promise<void> {
    await repos.jobs.enqueue(PACKAGE_INDEX_JOB, payloadOf(key));
  }

  /** Asks for rebuilds of every scope the version is in, if its type has indexes; call it before deleting it. */
  async enqueueForVersion(repos: Repositories, version: PackageVersionRow): Promise<void> {
    const { ownerId, type } = version.package;
    const builder = this.builders.get(type);
    if (!builder) return;
    for (const scope of new Set(await builder.scopesOf(repos, version)))
      await this.enqueue(repos, { ownerId, type, scope });
  }

  // ---- reading ----

  /** A file of the scope's current set by name, or null. */
  file(key: IndexScopeKey, name: string): Promise<StoredIndexFile | null> {
    return this.deps.repos.repositoryIndexes.currentFile(key, name);
  }

  /** A file of the current or previous set by a digest of its bytes (apt's by-hash), or null. */
  fileByHash(key: IndexScopeKey, algorithm: IndexHash, hash: string): Promise<StoredIndexFile | null> {
    if (!/^[0-9a-f]{32,128}$/i.test(hash)) return Promise.resolve(null);
    return this.deps.repos.repositoryIndexes.findByHash(key, algorithm, hash);
  }

  /** The bytes of a stored file, whole (index documents are small enough to hold). */
  async read(file: StoredIndexFile): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.deps.packageBlobs.get(file.blob.hashSha256)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  // ---- building ----

  /** Builds the scope's set and swaps it in, building again when another build swapped first. */
  async rebuild(key: IndexScopeKey): Promise<'done' | 'lost'> {
    const builder = this.builders.get(key.type);
    const owner = await this.deps.repos.users.byId(key.ownerId);
    if (!builder || !owner) return 'done';
    for (let attempt = 0; attempt < SWAP_TRIES; attempt++) {
      // The generation is read before the packages, so a build swaps only what it read after the set it replaces.
      const from = await this.deps.repos.repositoryIndexes.generation(key);
      const files = await builder.build({
        deps: this.deps,
        signingKeys: this.signingKeys,
        owner,
        type: key.type,
        scope: key.scope,
      });
      if (await this.store(key, from, files)) return 'done';
    }
    return 'lost';
  }

  /** Stages the files' bytes, then swaps the rows in one transaction; false when another build swapped first. */
  private async store(key: IndexScopeKey, from: number, files: readonly IndexFile[]): Promise<boolean> {
    const staged: StagedBlob[] = [];
    let swapped: string[] | false = false;
    try {
      for (const file of files) staged.push(await this.deps.packageBlobs.stage(Readable.from([file.data])));
      const hashes = staged.map((blob) => blob.digests.sha256);
      for (const blob of staged) await blob.publish();
      swapped = await this.deps.transactions.run(async (repos) => {
        await repos.packageBlobs.lockHashes(hashes);
        const rows = files.map((file, i) => ({ name: file.name, blob: staged[i].digests }));
        return repos.repositoryIndexes.swap(key, from, rows);
      });
      // A removal of the same bytes may have run between the publish and the commit; publishing again restores them.
      if (swapped) for (const blob of staged) await blob.publish();
      return swapped !== false;
    } finally {
      await Promise.all(staged.map((blob) => blob.discard()));
      const unreferenced = swapped === false ? staged.map((blob) => blob.digests.sha256) : swapped;
      await removeUnreferencedBlobs(this.deps, unreferenced);
    }
  }

  // ---- the job ----

  private async run(job: QueuedJob): Promise<JobResult> {
    const key = payloadOf(job.payload as IndexScopeKey);
    await this.deps.repos.jobs.dropWaiting(PACKAGE_INDEX_JOB, key, job.id);
    try {
      if ((await this.rebuild(key)) === 'done') return { outcome: 'done' };
      return { outcome: 'retry', afterMs: 1000, error: 'other builds kept swapping first' };
    } catch (error) {
      if (job.attempt >= MAX_ATTEMPTS) {
        this.deps.log.error({ err: error, index: key }, 'rebuilding a package index failed; giving up');
        return { outcome: 'done' };
      }
      this.deps.log.warn({ err: error, index: key }, 'rebuilding a package index failed; trying again');
      return { outcome: 'retry', afterMs: 2000 * 2 ** job.attempt, error: String(error) };
    }
  }

  /** Runs the rebuilds that are due here and now (tests; the worker does it otherwise). */
  async runDue(limit = 1): Promise<number> {
    let total = 0;
    for (;;) {
      const ran = await this.deps.jobQueue.runDue(PACKAGE_INDEX_JOB, (job) => this.run(job), limit, LEASE_MS);
      total += ran;
      if (ran < limit) return total;
    }
  }

  /** Starts running rebuilds in this process, one at a time. */
  startWorker(pollMs = POLL_MS): void {
    if (this.worker) return;
    this.worker = this.deps.jobQueue.work(PACKAGE_INDEX_JOB, (job) => this.run(job), {
      concurrency: 1,
      pollMs,
      leaseMs: LEASE_MS,
    });
  }

  async stopWorker(): Promise<void> {
    const worker = this.worker;
    await worker?.stop();
    if (this.worker === worker) this.worker = null;
  }

  async handBackLeases(): Promise<void> {
    await this.worker?.handBack();
  }
}
