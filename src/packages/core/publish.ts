// Publishing a file into a registry, as every registry does it: names checked and the quota asked before a byte is
// read, the body streamed into the blob store within the type's size limit and the owner's quota (413, nothing
// kept), the bytes checked against the digests the client sent (400, nothing kept), then the package, version,
// file and tag rows written in one transaction with the owner's hook event. Two publishes of one version at once:
// one succeeds and the other answers 409, as a publish of a version that exists does (Forgejo:
// services/packages/packages.go CreatePackageAndAddFile, ErrDuplicatePackageVersion).
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { NewPackageFile, PackageVersionRow, VersionKey } from '../../db/package.repository.ts';
import type { Repositories } from '../../db/repositories.ts';
import { BadRequestError, ConflictError, NameTakenError, PayloadTooLargeError } from '../../domain/errors.ts';
import type { BlobDigests } from '../../infra/storage/blob-store.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type ReceivedBlob, receivePackageBlob } from './receive-blob.ts';
import { removeUnreferencedBlobs } from './remove-blobs.ts';
import { teeStream } from './tee-stream.ts';

/** An upload whose names are in its own bytes, before they are read. */
export interface InspectedUpload {
  owner: User;
  /** The type's size limit; none: no bound. */
  maxBytes?: number;
  /** The Content-Length, when the body is the file itself. */
  announcedLength?: number;
}

export interface PublishedFile {
  owner: User;
  doer: User;
  key: VersionKey;
  fileName: string;
  /** Tells apart files of one name in a version (CRAN's builds per platform and R version, NuGet's symbol files). */
  compositeKey?: string;
  /** The version's main file (the one Forgejo's UI offers first). */
  isLead?: boolean;
  metadataJson?: string;
  /** The file starts a new version: an existing version is a conflict (npm); else files join it (PyPI, Maven). */
  newVersionOnly?: boolean;
  tags?: readonly string[];
  /** A file of that name in the version is replaced instead of refused (Maven SNAPSHOTs). */
  replaceExisting?: boolean;
  /** metadataJson also replaces an existing version's (Maven: the POM comes after the jar). */
  replaceMetadata?: boolean;
  /** What the client says the bytes are; each given digest (lower-case hex) and the size must match. */
  expected?: Partial<BlobDigests>;
  /** The type's size limit; none: no bound. */
  maxBytes?: number;
  /** The Content-Length, when the body is the file itself. */
  announcedLength?: number;
  /** Facts about the file a registry selects on. */
  properties?: Readonly<Record<string, string>>;
  /** More rows for the same transaction (an index rebuild to enqueue). */
  alsoRecord?: (repos: Repositories, added: { version: PackageVersionRow; fileId: number }) => Promise<void>;
}

const versionExists = () => new ConflictError('package version already exists');
const fileExists = () => new ConflictError('package file already exists');

export class PackagePublisher {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    private readonly hookEvents: HookEventsService,
  ) {}

  /** What can be refused before a byte is read: an existing version or file (409), a full quota or size (413). */
  async precheck(file: PublishedFile): Promise<void> {
    const { maxBytes } = file;
    const size = file.expected?.size ?? file.announcedLength;
    if (maxBytes !== undefined && size !== undefined && size > maxBytes) {
      throw new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);
    }
    await this.refuseExisting(file);
    await this.quota.assertWithin(file.owner, 'size:assets:packages:all');
  }

  /** Stores the file and its rows; answers the version. Checks precheck's conditions again, in the transaction. */
  async publish(file: PublishedFile, body: Readable): Promise<PackageVersionRow> {
    await this.precheck(file);
    const received = await receivePackageBlob(this.deps, this.quota, {
      owner: file.owner,
      body,
      maxBytes: file.maxBytes,
      announcedLength: file.announcedLength,
    });
    try {
      verifyDigests(received.digests, file.expected ?? {});
      return await this.commitRetryingRace(received, file);
    } finally {
      await received.close();
    }
  }

  /**
   * A file whose names are in its own bytes (a .gem's metadata, an R package's DESCRIPTION): the body is streamed
   * into the store while `inspect` reads the same bytes (it may destroy its stream once it has what it needs), then
   * `describe` names the file from what was found, and it is refused (409) or stored as publish() does. A body
   * `inspect` refuses (400), a full quota or the size limit (413) keep nothing.
   */
  async publishInspected<T>(
    upload: InspectedUpload,
    body: Readable,
    inspect: (bytes: Readable) => Promise<T>,
    describe: (found: T) => PublishedFile,
  ): Promise<{ version: PackageVersionRow; found: T }> {
    const { maxBytes, announcedLength } = upload;
    if (maxBytes !== undefined && announcedLength !== undefined && announcedLength > maxBytes) {
      throw new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);
    }
    await this.quota.assertWithin(upload.owner, 'size:assets:packages:all');
    const [toStore, toInspect] = teeStream(body);
    let storeFailed = false;
    let inspectFailure: unknown = null;
    const inspecting = inspect(toInspect).then(
      (found) => {
        toInspect.destroy();
        return found;
      },
      (error: unknown) => {
        if (!storeFailed) inspectFailure = error;
        toInspect.destroy();
        // Without an error: the store may have finished reading, and then nothing listens for one.
        toStore.destroy();
        throw error;
      },
    );
    inspecting.catch(() => undefined);
    let received: ReceivedBlob;
    try {
      received = await receivePackageBlob(this.deps, this.quota, {
        owner: upload.owner,
        body: toStore,
        maxBytes,
        announcedLength,
      });
    } catch (error) {
      storeFailed = true;
      toInspect.destroy();
      throw inspectFailure ?? error;
    }
    try {
      const found = await inspecting;
      const file = describe(found);
      await this.refuseExisting(file);
      verifyDigests(received.digests, file.expected ?? {});
      return { version: await this.commitRetryingRace(received, file), found };
    } finally {
      await received.close();
    }
  }

  /**
   * Publishes a file whose names are in its own bytes (a .deb's control file): the quota is asked first, the body
   * stored within `limits`, then `describe` names it from what the caller kept of the bytes (its failure, a 400,
   * keeps nothing), then the rows are committed as publish() does.
   */
  async publishDescribed(
    limits: { owner: User; maxBytes?: number; announcedLength?: number },
    body: Readable,
    describe: (digests: BlobDigests) => PublishedFile | Promise<PublishedFile>,
  ): Promise<PackageVersionRow> {
    await this.quota.assertWithin(limits.owner, 'size:assets:packages:all');
    const received = await receivePackageBlob(this.deps, this.quota, { ...limits, body });
    try {
      const file = await describe(received.digests);
      await this.refuseExisting(file);
      verifyDigests(received.digests, file.expected ?? {});
      return await this.commitRetryingRace(received, file);
    } finally {
      await received.close();
    }
  }

  private async refuseExisting(file: PublishedFile): Promise<void> {
    const { packages } = this.deps.repos;
    if (file.newVersionOnly && (await packages.findVersion(file.key))) throw versionExists();
    if (!file.replaceExisting && (await packages.fileExists(file.key, file.fileName, file.compositeKey)))
      throw fileExists();
  }

  /**
   * A unique index refused the rows: a concurrent publish of the same version or file won (409), or it created the
   * package or version this one was about to, and the file is tried once more.
   */
  private async commitRetryingRace(received: ReceivedBlob, file: PublishedFile): Promise<PackageVersionRow> {
    try {
      return await this.commit(received, file);
    } catch (error) {
      if (!(error instanceof NameTakenError)) throw error;
      await this.refuseExisting(file);
      try {
        return await this.commit(received, file);
      } catch (again) {
        if (again instanceof NameTakenError) await this.refuseExisting(file);
        throw again;
      }
    }
  }

  private async commit(received: ReceivedBlob, file: PublishedFile): Promise<PackageVersionRow> {
    const row: NewPackageFile = {
      key: file.key,
      creatorId: file.doer.id,
      fileName: file.fileName,
      compositeKey: file.compositeKey,
      blob: received.digests,
      isLead: file.isLead ?? true,
      metadataJson: file.metadataJson,
      newVersionOnly: file.newVersionOnly,
      tags: file.tags,
      replaceMetadata: file.replaceMetadata,
      properties: file.properties,
    };
    let replaced: string[] = [];
    const version = await received.commit(async (repos) => {
      if (file.replaceExisting)
        replaced = await repos.packages.deleteFileNamed(file.key, file.fileName, file.compositeKey);
      const { version, newVersion, fileId } = await repos.packages.addFile(row);
      await file.alsoRecord?.(repos, { version, fileId });
      if (newVersion) {
        const { owner, doer } = file;
        await this.hookEvents.package(repos, {
          owner,
          sender: doer,
          action: 'created',
          package: { version, owner, creator: doer, repository: null },
        });
      }
      return version;
    });
    // The replaced file's bytes, when nothing refers to them any more (the new row may: same bytes again).
    await removeUnreferencedBlobs(this.deps, replaced);
    return version;
  }
}

/** Each digest the client gave must be the bytes' (400 otherwise; the caller's close() keeps nothing). */
export function verifyDigests(actual: BlobDigests, expected: Partial<BlobDigests>): void {
  for (const name of ['size', 'md5', 'sha1', 'sha256', 'sha512'] as const) {
    const wanted = expected[name];
    if (wanted === undefined) continue;
    const matches = name === 'size' ? wanted === actual.size : String(wanted).toLowerCase() === actual[name];
    if (!matches)
      throw new BadRequestError(`the uploaded file does not match its ${name === 'size' ? 'length' : name}`);
  }
}
