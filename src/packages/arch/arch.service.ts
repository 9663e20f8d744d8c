// The Arch registry's rules (Forgejo: routers/api/packages/arch, services/packages/arch): an uploaded package filed
// under its pkgname and `[epoch:]pkgver-pkgrel` in a repository (the file's composite key; "" for the registry's
// own), named `{name}-{version}-{arch}.pkg.tar.{ext}`, its .PKGINFO kept as a property of the file for the
// databases; the package's signature is made with the owner's key when the databases are next built
// (arch-index-builder.ts). Every upload and delete asks for a rebuild of the repository's databases.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { NotFoundError, PayloadTooLargeError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { removeIndexedFile } from '../core/remove-indexed-file.ts';
import type { PackageIndexes } from '../core/repository-index.ts';
import { peekArchPackage } from './arch-upload.ts';
import { sizeBound } from '../core/size-bound.ts';

export const ARCH = 'arch';
/** The file property holding the parsed .PKGINFO (a PkgInfo as JSON). */
export const ARCH_METADATA = 'arch.metadata';
/** The file property holding the package's detached signature, base64. */
export const ARCH_SIGNATURE = 'arch.signature';
/** The file property holding the paths the package installs, one a line (the `.files` database lists them). */
export const ARCH_FILES = 'arch.files';

/** `{name}-{pkgver}-{pkgrel}-{arch}.pkg.tar.{ext}`, split into the package's name, version and architecture. */
const FILE_NAME = /^(?<name>.+)-(?<version>[^-]+-[^-]+)-(?<arch>[^-]+)\.pkg\.tar\.(?:zst|xz|gz)$/;

export interface ArchFileTarget {
  repository: string;
  name: string;
  version: string;
  arch: string;
}

export class ArchService {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    private readonly hookEvents: HookEventsService,
    private readonly indexes: PackageIndexes,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Stores an uploaded package in the repository: 400 for what is no Arch package (nothing kept), 409 when the
   * repository has that file, 413 past `[packages] LIMIT_SIZE_ARCH` or the quota.
   */
  async upload(doer: User, owner: User, repository: string, body: Readable, announcedLength?: number): Promise<void> {
    const limit = this.deps.settings.packages.LIMIT_SIZE_ARCH;
    const maxBytes = sizeBound(limit);
    if (maxBytes !== undefined && announcedLength !== undefined && announcedLength > maxBytes) {
      throw new PayloadTooLargeError(`the file is too large: at most ${maxBytes} bytes`);
    }
    const { info, compression, body: whole } = await peekArchPackage(body);
    await this.publisher.publish(
      {
        owner,
        doer,
        key: { ownerId: owner.id, type: ARCH, name: info.name, version: info.version },
        fileName: `${info.name}-${info.version}-${info.arch}.pkg.tar.${compression}`,
        compositeKey: repository,
        isLead: true,
        metadataJson: JSON.stringify({ description: info.description, url: info.url, licenses: info.licenses }),
        maxBytes,
        announcedLength,
        alsoRecord: async (repos, added) => {
          await repos.packageProperties.add('file', added.fileId, { [ARCH_METADATA]: JSON.stringify(info) });
          await this.indexes.enqueue(repos, { ownerId: owner.id, type: ARCH, scope: repository });
        },
      },
      whole,
    );
  }

  /** A stored package by its file name, counted as a download; 404 when the repository has none such. */
  async file(owner: User, repository: string, fileName: string): Promise<PackageFileRow> {
    const parts = FILE_NAME.exec(fileName)?.groups;
    if (!parts) throw new NotFoundError('package file does not exist');
    const { version, file } = await this.find(owner, {
      repository,
      name: parts.name!,
      version: parts.version!,
      arch: parts.arch!,
    });
    if (file.name !== fileName) throw new NotFoundError('package file does not exist');
    this.deps.repos.packages.countDownload(version.id);
    return file;
  }

  /** The package's detached signature, once the databases listed it; 404 before. */
  async signature(owner: User, repository: string, fileName: string): Promise<Buffer> {
    const file = await this.file(owner, repository, fileName);
    const properties = await this.deps.repos.packageProperties.of('file', [file.id]);
    const signature = properties.get(file.id)?.[ARCH_SIGNATURE];
    if (!signature) throw new NotFoundError('the package is not signed yet');
    return Buffer.from(signature, 'base64');
  }

  /** Deletes the package's file for the architecture from the repository (its version too when it was the last). */
  async delete(doer: User, owner: User, target: ArchFileTarget): Promise<void> {
    const { version, file } = await this.find(owner, target);
    const index = { ownerId: owner.id, type: ARCH, scope: target.repository };
    await removeIndexedFile(
      this.deps,
      { indexes: this.indexes, hookEvents: this.hookEvents },
      { doer, owner, version, file, index },
    );
  }

  private async find(owner: User, target: ArchFileTarget) {
    const { packages } = this.deps.repos;
    const version = await packages.findVersion({
      ownerId: owner.id,
      type: ARCH,
      name: target.name,
      version: target.version,
    });
    const files = version ? await packages.listFiles(version.id) : [];
    const prefix = `${target.name}-${target.version}-${target.arch}.pkg.tar.`.toLowerCase();
    const file = files.find((row) => row.compositeKey === target.repository && row.lowerName.startsWith(prefix));
    if (!version || !file) throw new NotFoundError('package file does not exist');
    return { version, file };
  }
}
