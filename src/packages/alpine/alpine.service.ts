// The Alpine registry's rules (Forgejo: routers/api/packages/alpine, services/packages/alpine): an .apk uploaded to
// a branch and repository is named by its .PKGINFO and stored once per branch, repository and architecture (the
// file's composite key); the branch and repository's index is rebuilt after each upload and delete.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { HeadTap } from '../core/head-tap.ts';
import { PackagePublisher } from '../core/publish.ts';
import { removeIndexedFile } from '../core/remove-indexed-file.ts';
import type { PackageIndexes } from '../core/repository-index.ts';
import { ALPINE, ALPINE_PROPERTY, alpineScope } from './alpine-index.ts';
import { APK_HEAD_BYTES, readApkControl } from './apk-file.ts';
import { describeApk } from './pkginfo.ts';
import { sizeBound } from '../core/size-bound.ts';

const SCOPE_NAME = /^[A-Za-z0-9][A-Za-z0-9._+~-]*$/;

export interface ApkLocation {
  branch: string;
  repository: string;
}

export interface ApkFile extends ApkLocation {
  architecture: string;
  fileName: string;
}

const compositeKey = (file: ApkLocation & { architecture: string }) =>
  `${file.branch}|${file.repository}|${file.architecture}`;

function checkLocation(location: ApkLocation): void {
  if (!SCOPE_NAME.test(location.branch) || !SCOPE_NAME.test(location.repository))
    throw new BadRequestError('invalid branch or repository');
  if (location.branch.length + location.repository.length > 200)
    throw new BadRequestError('invalid branch or repository');
}

export class AlpineService {
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
   * Stores an .apk in the branch and repository: no .apk or an invalid .PKGINFO 400, the same file there already
   * 409, past `[packages] LIMIT_SIZE_ALPINE` 413; the index is rebuilt after the commit.
   */
  async upload(
    doer: User,
    owner: User,
    location: ApkLocation,
    body: Readable,
    announcedLength?: number,
  ): Promise<void> {
    checkLocation(location);
    const limit = this.deps.settings.packages.LIMIT_SIZE_ALPINE;
    const tap = new HeadTap(APK_HEAD_BYTES);
    body.on('error', (error) => tap.destroy(error));
    body.pipe(tap);
    const limits = { owner, maxBytes: sizeBound(limit), announcedLength };
    await this.publisher.publishDescribed(limits, tap, async () => {
      const apk = describeApk(await readApkControl(tap.head));
      const scope = alpineScope(location.branch, location.repository);
      return {
        owner,
        doer,
        key: { ownerId: owner.id, type: ALPINE, name: apk.name, version: apk.version },
        fileName: `${apk.name}-${apk.version}.apk`,
        compositeKey: compositeKey({ ...location, architecture: apk.architecture }),
        isLead: true,
        metadataJson: JSON.stringify(apk.versionMetadata),
        alsoRecord: async (repos, added) => {
          await repos.packageProperties.add('file', added.fileId, {
            [ALPINE_PROPERTY.scope]: scope,
            [ALPINE_PROPERTY.architecture]: apk.architecture,
            [ALPINE_PROPERTY.metadata]: JSON.stringify(apk.fileMetadata),
          });
          await this.indexes.enqueue(repos, { ownerId: owner.id, type: ALPINE, scope });
        },
      };
    });
  }

  private async find(owner: User, file: ApkFile) {
    const found = await this.deps.repos.scopedFiles.fileNamed(owner.id, ALPINE, file.fileName, compositeKey(file));
    if (!found) throw new NotFoundError('package file does not exist');
    return found;
  }

  /** An .apk to download, counted as a download of its version. */
  async file(owner: User, file: ApkFile): Promise<PackageFileRow> {
    const found = await this.find(owner, file);
    this.deps.repos.packages.countDownload(found.version.id);
    return found.file;
  }

  /** Removes the .apk; its version goes with its last file. */
  async delete(doer: User, owner: User, file: ApkFile): Promise<void> {
    const { file: row, version } = await this.find(owner, file);
    const index = { ownerId: owner.id, type: ALPINE, scope: alpineScope(file.branch, file.repository) };
    await removeIndexedFile(
      this.deps,
      { indexes: this.indexes, hookEvents: this.hookEvents },
      { doer, owner, version, file: row, index },
    );
  }
}
