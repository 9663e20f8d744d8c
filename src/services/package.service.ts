// Packages of users and organizations: the API's list, get, delete and files (Forgejo: routers/api/v1/packages),
// the generic registry's upload, download and deletes (routers/api/packages/generic), and who may do what
// (services/context/package.go). Blobs go through the blob store; rows through the package repository.
import type { Readable } from 'node:stream';
import type {
  NewPackageFile,
  PackageFileRow,
  PackageVersionRow,
  PackageView,
  VersionFilter,
  VersionKey,
} from '../db/package.repository.ts';
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import type { AccessModeValue } from '../domain/access/modes.ts';
import { ghostUser } from '../db/ghost-user.ts';
import { packageAccessMode } from '../domain/access/package-access.ts';
import { isValidGenericFileName, isValidGenericPackageName, isValidGenericVersion } from '../domain/package-names.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { hasAccess } from '../domain/access/repo-permission.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import {
  BadRequestError,
  ConflictError,
  NameTakenError,
  NotFoundError,
  PayloadTooLargeError,
} from '../domain/errors.ts';
import { type ReceivedBlob, receivePackageBlob } from '../packages/core/receive-blob.ts';
import { removeUnreferencedBlobs } from '../packages/core/remove-blobs.ts';
import type { BlobStore } from '../infra/storage/blob-store.ts';
import type { PackageIndexes } from '../packages/core/repository-index.ts';
import type { OwnerAccessService } from './owner-access.service.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { QuotaService } from './quota.service.ts';
import type { RepositoryLookupService } from './repository-lookup.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import { completeDigests, rowHasAllDigests } from './blob-digests.ts';
import { sizeBound } from '../packages/core/size-bound.ts';

const GENERIC = 'generic';

export interface GenericFileName {
  name: string;
  version: string;
  fileName: string;
}

const packageNotFound = () => new NotFoundError('package does not exist');
const fileNotFound = () => new NotFoundError('package file does not exist');

/** What a download sends: the file's name and time, and its bytes' size and address in the blob store. */
export interface StoredPackageFile {
  name: string;
  createdAt: Date;
  blob: { size: number; hashSha256: string };
}

/** What a registry that keeps more than rows does once a version of its type is deleted (Cargo's git index). */
export type VersionDeletedListener = (doer: User, owner: User, name: string) => Promise<void>;

export class PackageService {
  private readonly deletionListeners = new Map<string, VersionDeletedListener>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly ownerAccess: OwnerAccessService,
    private readonly repositories: RepositoryLookupService,
    private readonly quota: QuotaService,
    private readonly hookEvents: HookEventsService,
    private readonly indexes: PackageIndexes,
  ) {}

  private get packages() {
    return this.deps.repos.packages;
  }

  /** The viewer's level on the owner's packages (site admins are let through by the guards). */
  async accessMode(viewer: User | null, owner: User): Promise<AccessModeValue> {
    const teams = viewer && isOrganization(owner) ? await this.packages.teamGrantsOf(owner.id, viewer.id) : [];
    return packageAccessMode(viewer, owner, teams, await this.ownerAccess.canSee(viewer, owner));
  }

  // ---- the package API ----

  async list(viewer: User | null, owner: User, filter: VersionFilter, page: ListOptions): Promise<Page<PackageView>> {
    const { items, total } = await this.packages.pageVersions(owner.id, filter, page);
    return { items: await this.views(viewer, owner, items), total };
  }

  async get(viewer: User | null, owner: User, type: string, name: string, version: string): Promise<PackageView> {
    const [view] = await this.views(viewer, owner, [await this.versionOf({ ownerId: owner.id, type, name, version })]);
    return view;
  }

  async delete(doer: User, owner: User, type: string, name: string, version: string): Promise<void> {
    await this.deleteVersion(doer, owner, await this.versionOf({ ownerId: owner.id, type, name, version }));
  }

  async files(owner: User, type: string, name: string, version: string): Promise<PackageFileRow[]> {
    const versionId = (await this.versionOf({ ownerId: owner.id, type, name, version })).id;
    const files = await this.packages.listFiles(versionId);
    if (files.every((file) => rowHasAllDigests(file.blob))) return files;
    await completeDigests(
      this.deps,
      files.map((file) => file.blob.hashSha256),
    );
    return this.packages.listFiles(versionId);
  }

  // ---- the generic registry ----

  /**
   * Stores an uploaded file: names are checked before a byte is read (400), a file of that name in the version is
   * refused (409), the body is streamed into the blob store within `[packages] LIMIT_SIZE_GENERIC` (413).
   */
  async uploadGeneric(
    doer: User,
    owner: User,
    target: GenericFileName,
    body: Readable,
    announcedLength?: number,
  ): Promise<void> {
    if (!isValidGenericPackageName(target.name)) throw new BadRequestError('invalid package name');
    if (!isValidGenericFileName(target.fileName)) throw new BadRequestError('invalid filename');
    if (!isValidGenericVersion(target.version)) throw new BadRequestError('invalid package version');
    const limit = this.deps.settings.packages.LIMIT_SIZE_GENERIC;
    const maxBytes = sizeBound(limit);
    if (maxBytes !== undefined && announcedLength !== undefined && announcedLength > maxBytes) {
      throw new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);
    }
    const key: VersionKey = { ownerId: owner.id, type: GENERIC, name: target.name, version: target.version };
    const duplicate = () => new ConflictError('package file already exists');
    if (await this.packages.fileExists(key, target.fileName)) throw duplicate();
    // As Forgejo: what is already stored is checked, before a byte of the new file is read (413); the upload is
    // then stopped once it would take the owner past the limit.
    await this.quota.assertWithin(owner, 'size:assets:packages:all');

    const received = await receivePackageBlob(this.deps, this.quota, { owner, body, maxBytes, announcedLength });
    try {
      const { fileName } = target;
      const file: NewPackageFile = { key, creatorId: doer.id, fileName, blob: received.digests, isLead: true };
      await this.addFileRetryingRace(received, file, doer, owner);
    } catch (error) {
      if (error instanceof NameTakenError && (await this.packages.fileExists(key, target.fileName))) throw duplicate();
      throw error;
    } finally {
      await received.close();
    }
  }

  /**
   * Adds the file; a new version is announced to the owner's hooks in the same transaction. Two first uploads of
   * one package or version at once: the loser of the race tries once more.
   */
  private async addFileRetryingRace(
    received: ReceivedBlob,
    file: NewPackageFile,
    doer: User,
    owner: User,
  ): Promise<void> {
    const add = () =>
      received.commit(async (repos) => {
        const { version, newVersion } = await repos.packages.addFile(file);
        if (newVersion) await this.announce(repos, owner, doer, version, 'created');
      });
    try {
      await add();
    } catch (error) {
      if (!(error instanceof NameTakenError) || (await this.packages.fileExists(file.key, file.fileName))) throw error;
      await add();
    }
  }

  /** The file to download, counted as a download of its version. */
  async genericFile(owner: User, target: GenericFileName): Promise<StoredPackageFile> {
    const key = { ownerId: owner.id, type: GENERIC, name: target.name, version: target.version };
    const found = await this.packages.findDownload(key, target.fileName);
    if (!found) {
      // Which of the version and the file is missing decides the message.
      await this.versionOf(key);
      throw fileNotFound();
    }
    this.packages.countDownload(found.versionId);
    return { name: found.name, createdAt: found.createdAt, blob: { size: found.size, hashSha256: found.sha256 } };
  }

  /** Where package files' bytes are, for downloads. */
  get blobs(): BlobStore {
    return this.deps.packageBlobs;
  }

  async deleteGenericVersion(doer: User, owner: User, name: string, version: string): Promise<void> {
    await this.deleteVersion(doer, owner, await this.versionOf({ ownerId: owner.id, type: GENERIC, name, version }));
  }

  /** Deletes one file; the last file of a version takes the version with it, as in Forgejo. */
  async deleteGenericFile(doer: User, owner: User, target: GenericFileName): Promise<void> {
    const version = await this.versionOf({
      ownerId: owner.id,
      type: GENERIC,
      name: target.name,
      version: target.version,
    });
    const file = await this.packages.findFile(version.id, target.fileName);
    if (!file) throw fileNotFound();
    const orphans = await this.deps.transactions.run(async (repos) => {
      if ((await repos.packages.countFiles(version.id)) !== 1) return repos.packages.deleteFile(file);
      await this.announce(repos, owner, doer, version, 'deleted');
      return repos.packages.deleteVersion(version);
    });
    await removeUnreferencedBlobs(this.deps, orphans);
    await this.deletionListeners.get(version.package.type)?.(doer, owner, version.package.name);
  }

  // ---- shared ----

  /** A package event for the owner's hooks (Forgejo: notifier.go notifyPackage). */
  private announce(
    repos: Repositories,
    owner: User,
    doer: User,
    version: PackageVersionRow,
    action: 'created' | 'deleted',
  ): Promise<void> {
    return this.hookEvents.package(repos, {
      owner,
      sender: doer,
      action,
      package: { version, owner, creator: doer, repository: null },
    });
  }

  private async versionOf(key: VersionKey): Promise<PackageVersionRow> {
    const version = await this.packages.findVersion(key);
    if (!version) throw packageNotFound();
    return version;
  }

  /** The type's listener hears of each deleted version, after the deletion committed. */
  onVersionDeleted(type: string, listener: VersionDeletedListener): void {
    this.deletionListeners.set(type, listener);
  }

  private async deleteVersion(doer: User, owner: User, version: PackageVersionRow): Promise<void> {
    const orphans = await this.deps.transactions.run(async (repos) => {
      await this.announce(repos, owner, doer, version, 'deleted');
      // A type with repository indexes (Debian, RPM…) rebuilds the ones that listed the version.
      await this.indexes.enqueueForVersion(repos, version);
      return repos.packages.deleteVersion(version);
    });
    await removeUnreferencedBlobs(this.deps, orphans);
    await this.deletionListeners.get(version.package.type)?.(doer, owner, version.package.name);
  }

  private async views(viewer: User | null, owner: User, versions: PackageVersionRow[]): Promise<PackageView[]> {
    const repoIds = [...new Set(versions.map((version) => version.package.repoId).filter((id) => id !== 0))];
    const [creatorList, repoList] = await Promise.all([
      this.packages.listUsers(versions.map((version) => version.creatorId)),
      Promise.all(repoIds.map((id) => this.repositories.findById(id))),
    ]);
    const linked = await this.repositories.details(
      viewer,
      repoList.filter((repo) => repo !== null),
    );
    const creators = new Map(creatorList.map((user) => [user.id, user]));
    const readable = new Map(
      linked.filter((details) => hasAccess(details.permission)).map((details) => [details.repo.id, details]),
    );
    return versions.map((version) => ({
      version,
      owner,
      creator: creators.get(version.creatorId) ?? ghostUser(),
      repository: readable.get(version.package.repoId) ?? null,
    }));
  }
}
