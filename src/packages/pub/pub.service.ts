// The pub registry's rules (Forgejo: routers/api/packages/pub): an uploaded .tar.gz stored as a new version named
// by its pubspec.yaml (an existing version answers 409), a package's document kept while its revision is current,
// a version, and an archive to download.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { readFromTarGz } from '../core/tar-gz-archive.ts';
import { packageDocument, type PubVersion, pubVersions } from './pub-documents.ts';
import { parsePubspec } from './pubspec.ts';
import { sizeBound } from '../core/size-bound.ts';

export const PUB = 'pub';

const MAX_PUBSPEC_BYTES = 1024 * 1024;
/** pub's own bound on a package's archive, inflated. */
const MAX_SCANNED_BYTES = 100 * 1024 * 1024;

const packageNotFound = () => new NotFoundError('package does not exist');

export class PubService {
  private readonly publisher: PackagePublisher;
  private readonly documents = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /** Stores an uploaded archive as a new version; answers its name and version for the finalize step. */
  async upload(doer: User, owner: User, body: Readable): Promise<{ name: string; version: string }> {
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    const limit = this.deps.settings.packages.LIMIT_SIZE_PUB;
    const maxBytes = sizeBound(limit);
    const upload = await SpooledUpload.receive(body, maxBytes);
    try {
      const text = await readFromTarGz(upload.path, {
        wanted: (name) => name === 'pubspec.yaml' || name === './pubspec.yaml',
        what: 'pubspec.yaml',
        maxBytes: MAX_PUBSPEC_BYTES,
        maxScannedBytes: MAX_SCANNED_BYTES,
      });
      if (!text) throw new BadRequestError('the package has no pubspec.yaml');
      const pubspec = parsePubspec(text.toString('utf8'));
      const { document } = pubspec;
      const metadata = {
        description: typeof document.description === 'string' ? document.description : '',
        homepage: typeof document.homepage === 'string' ? document.homepage : '',
        repository: typeof document.repository === 'string' ? document.repository : '',
        documentation: typeof document.documentation === 'string' ? document.documentation : '',
        pubspec: document,
      };
      await this.publisher.publish(
        {
          owner,
          doer,
          key: { ownerId: owner.id, type: PUB, name: pubspec.name, version: pubspec.version },
          fileName: `${pubspec.version}.tar.gz`,
          isLead: true,
          newVersionOnly: true,
          metadataJson: JSON.stringify(metadata),
          maxBytes,
        },
        upload.open(),
      );
      return { name: pubspec.name, version: pubspec.version };
    } finally {
      await upload.dispose();
    }
  }

  /** Whether the version was stored (the finalize step). */
  async assertVersion(owner: User, name: string, version: string): Promise<void> {
    if (!(await this.deps.repos.packages.findVersion({ ownerId: owner.id, type: PUB, name, version }))) {
      throw packageNotFound();
    }
  }

  private async versions(
    owner: User,
    name: string,
    version?: string,
  ): Promise<{ name: string; versions: PubVersion[] }> {
    const key = { ownerId: owner.id, type: PUB, name };
    const files = await this.deps.repos.packageIndex.listFiles(key, version?.toLowerCase());
    if (files.length === 0) throw packageNotFound();
    return { name: files[0].packageName, versions: pubVersions(files) };
  }

  /** GET api/packages/{name} as the registry at `base` serves it. */
  async packageDocument(owner: User, name: string, base: string): Promise<IndexDocument> {
    const found = await this.deps.repos.packageIndex.revisionOf({ ownerId: owner.id, type: PUB, name });
    if (!found) throw packageNotFound();
    return this.documents.get(`${found.id}\n${base}`, found.revision, async () => {
      const { name: stored, versions } = await this.versions(owner, name);
      return indexDocument(JSON.stringify(packageDocument(base, stored, versions)));
    });
  }

  async version(owner: User, name: string, version: string): Promise<{ name: string; version: PubVersion }> {
    const found = await this.versions(owner, name, version);
    return { name: found.name, version: found.versions[0] };
  }

  /** The archive of a version, counted as a download. */
  async archive(owner: User, name: string, version: string): Promise<PackageFileDownload> {
    const file = await this.deps.repos.packageIndex.downloadFile({
      ownerId: owner.id,
      type: PUB,
      name,
      version,
      fileName: `${version}.tar.gz`,
    });
    if (!file) throw new NotFoundError('package file does not exist');
    this.deps.repos.packages.countDownload(file.versionId);
    return file;
  }
}
