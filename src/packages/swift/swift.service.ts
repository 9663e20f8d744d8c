// The Swift registry's rules (Forgejo: routers/api/packages/swift): a release published as its source archive (the
// manifests read from the zip as it streams in, the publisher's metadata beside), its releases listed newest last
// by semantic version, its metadata, manifests and archive, and packages looked up by repository URL.
import type { Readable } from 'node:stream';
import semver from 'semver';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow, PackageVersionRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { readSwiftArchive } from './swift-archive.ts';
import { readPublisherMetadata, type SwiftMetadata } from './swift-metadata.ts';
import { isValidName, isValidScope, normalVersion, packageId } from './swift-names.ts';
import { sizeBound } from '../core/size-bound.ts';

export const SWIFT = 'swift';
const REPOSITORY_URL = 'swift.repository_url';

export interface SwiftRelease {
  version: PackageVersionRow;
  metadata: SwiftMetadata;
  file: PackageFileRow;
}

export interface SwiftPublish {
  scope: string;
  name: string;
  version: string;
  archive: Readable;
  metadata: Promise<string>;
}

export class SwiftService {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /** Publishes a release: an existing one answers 409, a malformed archive or metadata 400. */
  async publish(doer: User, owner: User, upload: SwiftPublish): Promise<void> {
    const version = normalVersion(upload.version);
    if (!isValidScope(upload.scope) || !isValidName(upload.name) || version === null) {
      throw new BadRequestError('invalid scope, name or version');
    }
    const limit = this.deps.settings.packages.LIMIT_SIZE_SWIFT;
    await this.publisher.publishInspected(
      { owner, maxBytes: sizeBound(limit) },
      upload.archive,
      async (copy) => {
        const manifests = await readSwiftArchive(copy);
        return readPublisherMetadata(await upload.metadata, manifests);
      },
      (found) => ({
        owner,
        doer,
        key: { ownerId: owner.id, type: SWIFT, name: packageId(upload.scope, upload.name), version },
        fileName: `${upload.name}-${version}.zip`,
        isLead: true,
        newVersionOnly: true,
        metadataJson: JSON.stringify(found.metadata),
        // A release is always a new version: its URLs are facts of that version (a name may repeat).
        alsoRecord: async (repos, added) => {
          for (const url of found.repositoryUrls)
            await repos.packageProperties.add('version', added.version.id, { [REPOSITORY_URL]: url });
        },
      }),
    );
  }

  /** The package's versions, oldest first by semantic version; 404 for a package the owner does not have. */
  async versions(owner: User, scope: string, name: string): Promise<string[]> {
    const rows = await this.deps.repos.packageIndex.listVersions({
      ownerId: owner.id,
      type: SWIFT,
      name: packageId(scope, name),
    });
    if (rows.length === 0) throw new NotFoundError('package does not exist');
    return rows.map((row) => row.version).sort((a, b) => semver.compare(a, b, true));
  }

  async release(owner: User, scope: string, name: string, version: string): Promise<SwiftRelease> {
    const { packages } = this.deps.repos;
    const found = await packages.findVersion({ ownerId: owner.id, type: SWIFT, name: packageId(scope, name), version });
    const [file] = found ? await packages.listFiles(found.id) : [];
    if (!found || !file) throw new NotFoundError('package version does not exist');
    return { version: found, metadata: JSON.parse(found.metadataJson) as SwiftMetadata, file };
  }

  /** The archive to download, counted as a download of its version. */
  async archive(owner: User, scope: string, name: string, version: string): Promise<PackageFileRow> {
    const release = await this.release(owner, scope, name, version);
    this.deps.repos.packages.countDownload(release.version.id);
    return release.file;
  }

  /** The identifiers (`scope.name`) of the owner's packages published with this repository URL. */
  async identifiers(owner: User, url: string): Promise<string[]> {
    const names = await this.deps.repos.packageIndex.packagesWithVersionProperty(owner.id, SWIFT, REPOSITORY_URL, url);
    if (names.length === 0) throw new NotFoundError('no package has that repository URL');
    return names;
  }
}
