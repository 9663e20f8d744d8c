// Container blobs (Forgejo: routers/api/packages/container blob handlers, services/packages/container): monolithic
// and chunked uploads, cross-repository mounts, downloads and deletes. Every byte goes through the package core's
// receivePackageBlob (streamed, hashed, bounded by the owner's quota as it arrives); a chunk is a blob of its own,
// so an upload in progress lives in the shared blob store and any process can continue it. A one-chunk upload (what
// skopeo and docker send) becomes the layer without a copy; several chunks are streamed together once, at the end.
import { randomUUID } from 'node:crypto';
import { Readable, type Writable } from 'node:stream';
import type { ContainerFileRow, ContainerUploadRow, ImageKey } from '../../db/container.repository.ts';
import { CONTAINER_TYPE, UPLOAD_VERSION } from '../../db/container.repository.ts';
import type { User } from '../../db/entities.ts';
import type { NewPackageFile } from '../../db/package.repository.ts';
import { NameTakenError } from '../../domain/errors.ts';
import type { BlobDigests, ByteRange, DigestAlgorithm } from '../../infra/storage/blob-store.ts';
import { completeDigests, rowHasAllDigests } from '../../services/blob-digests.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type ReceivedBlob, receivePackageBlob } from '../core/receive-blob.ts';
import { removeUnreferencedBlobs } from '../core/remove-blobs.ts';
import { blobUnknown, digestInvalid, uploadInvalid, uploadUnknown } from './oci-error.ts';
import { type Digest, parseDigest } from './references.ts';
import { sizeBound } from '../core/size-bound.ts';

/** An image of an owner, as the routes resolved it. */
export interface ImageTarget {
  owner: User;
  image: string;
}

export interface UploadState {
  id: string;
  bytes: number;
}

const keyOf = (target: ImageTarget): ImageKey => ({ ownerId: target.owner.id, image: target.image });

function digestsOfRow(row: ContainerFileRow['blob']): BlobDigests {
  return {
    size: Number(row.size),
    md5: row.hashMd5,
    sha1: row.hashSha1,
    sha256: row.hashSha256,
    sha512: row.hashSha512,
  };
}

function requireDigest(text: string | undefined): Digest {
  const digest = parseDigest(text ?? '');
  if (!digest) throw digestInvalid('the digest is missing or malformed');
  return digest;
}

/** How often a write that lost a race on a unique index is run again (each run sees what the winners wrote). */
const RACE_ATTEMPTS = 4;

/**
 * Clients pushing the same blob, tag or first blob of an image at once: a loser's transaction fails a unique index;
 * run again, it finds what the winner wrote.
 */
export async function retryOnRace<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof NameTakenError) || attempt >= RACE_ATTEMPTS) throw error;
    }
  }
}

export class ContainerBlobService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
  ) {}

  private get containers() {
    return this.deps.repos.containers;
  }

  private maxBytes(): number | undefined {
    const limit = this.deps.settings.packages.LIMIT_SIZE_CONTAINER;
    return sizeBound(limit);
  }

  // ---- reading ----

  /** The blob a digest names in the image, wherever it is kept (an upload or a manifest's reference). */
  async find(target: ImageTarget, digest: string): Promise<ContainerFileRow> {
    if (!parseDigest(digest)) throw blobUnknown(digest);
    const file = await this.containers.findBlob(keyOf(target), digest);
    if (!file) throw blobUnknown(digest);
    return file;
  }

  /** Writes a blob's bytes (or a range of them) into a response, and ends it. */
  send(hash: string, destination: Writable, range?: ByteRange): Promise<void> {
    return this.deps.packageBlobs.sendTo(hash, destination, range);
  }

  // ---- uploads ----

  /** POST …/blobs/uploads/?digest=: the whole blob in one request. */
  async uploadWhole(
    doer: User,
    target: ImageTarget,
    digestText: string,
    body: Readable,
    announced?: number,
  ): Promise<void> {
    const digest = requireDigest(digestText);
    const received = await this.receive(target.owner, body, announced, 0, digest.algorithm);
    try {
      if (received.digests[digest.algorithm] !== digest.hex) throw digestInvalid();
      await this.keepUploaded(received, doer, target, digestText);
    } finally {
      await received.close();
    }
  }

  async start(target: ImageTarget): Promise<UploadState> {
    const upload = await this.containers.createUpload(randomUUID(), keyOf(target));
    return { id: upload.id, bytes: 0 };
  }

  async status(target: ImageTarget, id: string): Promise<UploadState> {
    const upload = await this.session(target, id);
    return { id: upload.id, bytes: Number(upload.bytes) };
  }

  /**
   * PATCH: one chunk. With Content-Range it must start where the upload ended (416 otherwise); without, it is a
   * streamed upload, which only the first write may be (as Forgejo).
   */
  async append(
    doer: User,
    target: ImageTarget,
    id: string,
    body: Readable,
    rangeStart?: number,
    announced?: number,
  ): Promise<UploadState> {
    const upload = await this.session(target, id);
    const start = Number(upload.bytes);
    if (rangeStart !== undefined && rangeStart !== start)
      throw uploadInvalid('the chunk does not start where the upload ended', 416);
    if (rangeStart === undefined && start !== 0)
      throw uploadInvalid('stream uploads after the first write are not allowed');
    if (announced === 0) return { id, bytes: start };
    const received = await this.receive(target.owner, body, announced, start, 'sha256');
    try {
      if (received.digests.size === 0) return { id, bytes: start };
      const part: NewPackageFile = {
        ...this.uploadFile(doer, target, `${id}/${upload.parts}`, received.digests),
        isLead: false,
      };
      await retryOnRace(() =>
        received.commit(async (repos) => {
          if (!(await repos.containers.advanceUpload(id, start, received.digests.size))) {
            throw uploadInvalid('another chunk was written at the same place', 416);
          }
          await repos.packages.addFile(part);
        }),
      );
      return { id, bytes: start + received.digests.size };
    } finally {
      await received.close();
    }
  }

  /** PUT ?digest=: the last chunk (if any), then the chunks as one blob under the digest, and the upload ends. */
  async finish(
    doer: User,
    target: ImageTarget,
    id: string,
    digestText: string,
    body: Readable,
    announced?: number,
  ): Promise<void> {
    const digest = requireDigest(digestText);
    const upload = await this.session(target, id);
    if (announced !== 0) await this.append(doer, target, id, body, Number(upload.bytes), announced);
    let parts = await this.containers.listUploadParts(id, keyOf(target));
    // A chunk is hashed by its SHA-256 alone on the way in; a sha512 digest is checked against the completed one.
    if (parts.length === 1 && digest.algorithm !== 'sha256' && !rowHasAllDigests(parts[0].blob)) {
      await completeDigests(this.deps, [parts[0].blob.hashSha256]);
      parts = await this.containers.listUploadParts(id, keyOf(target));
    }
    const partNames = parts.map((part) => part.name);
    if (parts.length === 1) {
      // One chunk is already the blob: the digest's file refers to the same bytes, nothing is copied.
      const only = digestsOfRow(parts[0].blob);
      if (only[digest.algorithm] !== digest.hex) throw digestInvalid();
      const orphans = await retryOnRace(() =>
        this.deps.transactions.run(async (repos) => {
          await this.addUploadedIn(repos, this.uploadFile(doer, target, digestText, only), target, digestText);
          await repos.containers.deleteUpload(id);
          return repos.containers.deleteUploadFiles(keyOf(target), partNames);
        }),
      );
      await removeUnreferencedBlobs(this.deps, orphans);
      return;
    }
    const received = await this.receive(target.owner, this.concatenated(parts), undefined, 0, digest.algorithm);
    try {
      if (received.digests[digest.algorithm] !== digest.hex) throw digestInvalid();
      const orphans = await this.keepUploaded(received, doer, target, digestText, async (repos) => {
        await repos.containers.deleteUpload(id);
        return repos.containers.deleteUploadFiles(keyOf(target), partNames);
      });
      await removeUnreferencedBlobs(this.deps, orphans);
    } finally {
      await received.close();
    }
  }

  /** DELETE of an upload: its chunks go. */
  async cancel(target: ImageTarget, id: string): Promise<void> {
    await this.session(target, id);
    await this.dropUpload(keyOf(target), id);
  }

  /**
   * POST ?mount=&from=: the blob of another image the caller may read becomes this image's without a byte moving;
   * false when there is none (the caller then starts an upload, as the spec says).
   */
  async mount(doer: User, target: ImageTarget, digestText: string, source: ImageKey): Promise<boolean> {
    if (!parseDigest(digestText)) return false;
    const found = await this.containers.findBlob(source, digestText);
    if (!found) return false;
    await this.quota.assertWithin(target.owner, 'size:assets:packages:all');
    const file = this.uploadFile(doer, target, digestText, digestsOfRow(found.blob));
    return retryOnRace(() =>
      this.deps.transactions.run(async (repos) => {
        // Under the hash's lock: a removal of the bytes either finished (no row: nothing to mount) or waits for us.
        await repos.packageBlobs.lockHashes([found.blob.hashSha256]);
        if (!(await repos.packageBlobs.rowExists(found.blob.hashSha256))) return false;
        await this.addUploadedIn(repos, file, target, digestText);
        return true;
      }),
    );
  }

  /**
   * DELETE of a blob: the uploaded copy goes; a manifest that refers to the blob keeps it until the manifest goes.
   */
  async delete(target: ImageTarget, digestText: string): Promise<void> {
    const file = await this.find(target, digestText);
    const orphans = await this.deps.transactions.run(async (repos) => {
      // The hash first, as a manifest push naming the blob takes it: one waits for the other, neither deadlocks.
      await repos.packageBlobs.lockHashes([file.blob.hashSha256]);
      return repos.containers.deleteUploadFiles(keyOf(target), [digestText]);
    });
    await removeUnreferencedBlobs(this.deps, orphans);
  }

  /** cleanup_packages: uploads not touched since the cut-off, and uploaded blobs no manifest came to use. */
  async deleteStale(cutoff: Date): Promise<number> {
    let removed = 0;
    for (const upload of await this.containers.listUploadsBefore(cutoff)) {
      await this.dropUpload({ ownerId: upload.ownerId, image: upload.image }, upload.id);
      removed++;
    }
    for (const { key, name } of await this.containers.listUploadFilesBefore(cutoff)) {
      const orphans = await this.deps.transactions.run((repos) => repos.containers.deleteUploadFiles(key, [name]));
      await removeUnreferencedBlobs(this.deps, orphans);
      removed++;
    }
    return removed;
  }

  // ---- shared ----

  private async session(target: ImageTarget, id: string): Promise<ContainerUploadRow> {
    const upload = await this.containers.findUpload(id, keyOf(target));
    if (!upload) throw uploadUnknown();
    return upload;
  }

  private async dropUpload(key: ImageKey, id: string): Promise<void> {
    const parts = await this.containers.listUploadParts(id, key);
    const orphans = await this.deps.transactions.run(async (repos) => {
      await repos.containers.deleteUpload(id);
      return repos.containers.deleteUploadFiles(
        key,
        parts.map((part) => part.name),
      );
    });
    await removeUnreferencedBlobs(this.deps, orphans);
  }

  /**
   * `before`: bytes of the same upload already received, counted against the size limit with these. Only the digest
   * the client's is checked against is computed on the way in (and SHA-256, the blob's address); the others after.
   * The body is the request's, or the upload's chunks read back: nothing else reads it, so its chunks are freed as
   * soon as they are stored.
   */
  private async receive(
    owner: User,
    body: Readable,
    announced: number | undefined,
    before: number,
    checked: DigestAlgorithm,
  ): Promise<ReceivedBlob> {
    const limit = this.maxBytes();
    const maxBytes = limit === undefined ? undefined : Math.max(0, limit - before);
    // As Forgejo: what is already stored is checked before a byte is read; the upload then stops at the limit.
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    return receivePackageBlob(this.deps, this.quota, {
      owner,
      body,
      maxBytes,
      announcedLength: announced,
      algorithms: [checked],
      releaseChunks: true,
    });
  }

  private uploadFile(doer: User, target: ImageTarget, fileName: string, blob: BlobDigests): NewPackageFile {
    const key = { ownerId: target.owner.id, type: CONTAINER_TYPE, name: target.image, version: UPLOAD_VERSION };
    return { key, creatorId: doer.id, fileName, blob, isLead: false, internalVersion: true };
  }

  /** Records the uploaded blob under its digest, with whatever else `also` does in the same transaction. */
  private async keepUploaded(
    received: ReceivedBlob,
    doer: User,
    target: ImageTarget,
    digestText: string,
    also: (repos: ServiceDeps['repos']) => Promise<string[]> = async () => [],
  ): Promise<string[]> {
    const file = this.uploadFile(doer, target, digestText, received.digests);
    return retryOnRace(() =>
      received.commit(async (repos) => {
        await this.addUploadedIn(repos, file, target, digestText);
        return also(repos);
      }),
    );
  }

  /** The same digest uploaded again is the same bytes: the first file stands. */
  private async addUploadedIn(
    repos: ServiceDeps['repos'],
    file: NewPackageFile,
    target: ImageTarget,
    digestText: string,
  ): Promise<void> {
    if (await repos.containers.findBlob(keyOf(target), digestText)) return;
    await repos.packages.addFile(file);
  }

  /** The chunks of an upload as one stream, read from the blob store one after another. */
  private concatenated(parts: readonly ContainerFileRow[]): Readable {
    const open = (hash: string) => this.deps.packageBlobs.get(hash);
    return Readable.from(
      (async function* chunks() {
        for (const part of parts) yield* await open(part.blob.hashSha256);
      })(),
    );
  }
}
