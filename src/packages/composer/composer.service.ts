// The Composer repository's rules (Forgejo: routers/api/packages/composer): an archive uploaded as a new version
// (name, version and metadata read from its composer.json), and what Composer reads: a package's versions with
// their files, the owner's package names, a search, a file to download.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { FoundPackage } from '../../db/package-index.repository.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { type ListOptions, type Page, pageOf } from '../../domain/page.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { readComposerArchive } from './composer-archive.ts';
import { packageMetadata, parseMetadata } from './composer-documents.ts';
import { archiveFileName, isDevVersion } from './composer-names.ts';
import { sizeBound } from '../core/size-bound.ts';

export const COMPOSER = 'composer';
const packageNotFound = () => new NotFoundError('package does not exist');
/** The most packages a search by type looks through. */
const MAX_TYPED = 10_000;

export class ComposerService {
  private readonly publisher: PackagePublisher;
  private readonly documents = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Publishes an archive as a new version (its composer.json's version, else `version`): a malformed or hostile
   * archive answers 400, an existing version 409, past `[packages] LIMIT_SIZE_COMPOSER` or the quota 413.
   */
  async upload(doer: User, owner: User, body: Readable, version?: string, announcedLength?: number): Promise<void> {
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    const limit = this.deps.settings.packages.LIMIT_SIZE_COMPOSER;
    const maxBytes = sizeBound(limit);
    const spooled = await SpooledUpload.receive(body, maxBytes);
    try {
      const archive = await readComposerArchive(spooled.path, version);
      await this.publisher.publish(
        {
          owner,
          doer,
          key: { ownerId: owner.id, type: COMPOSER, name: archive.name, version: archive.version },
          fileName: archiveFileName(archive.name, archive.version),
          isLead: true,
          newVersionOnly: true,
          metadataJson: JSON.stringify(archive.metadata),
          expected: { size: spooled.digests.size, sha256: spooled.digests.sha256 },
          maxBytes,
          announcedLength,
        },
        spooled.open(),
      );
    } finally {
      await spooled.dispose();
    }
  }

  /**
   * `p2/{name}.json` (`dev` false: the tagged versions) or `p2/{name}~dev.json` (the branches), kept while the
   * package is unchanged; 404 for a package the owner does not have.
   */
  async metadata(owner: User, name: string, dev: boolean, registryUrl: string): Promise<IndexDocument> {
    const { packageIndex } = this.deps.repos;
    const key = { ownerId: owner.id, type: COMPOSER, name };
    const found = await packageIndex.revisionOf(key);
    if (!found) throw packageNotFound();
    const cacheKey = `${found.id}\n${dev}\n${registryUrl}`;
    return this.documents.get(cacheKey, found.revision, async () => {
      const files = await packageIndex.listFiles(key);
      if (files.length === 0) throw packageNotFound();
      const chosen = files.filter((file) => isDevVersion(file.version) === dev);
      const body = JSON.stringify(packageMetadata(name.toLowerCase(), chosen, registryUrl));
      return indexDocument(body, new Date(Math.max(...files.map((file) => file.fileCreatedAt.getTime()))));
    });
  }

  names(owner: User): Promise<string[]> {
    return this.deps.repos.packageIndex.listNames(owner.id, COMPOSER);
  }

  /** Packages whose name holds the text; with `type`, only those whose newest version is of that type. */
  async search(owner: User, text: string, type: string, page: ListOptions): Promise<Page<FoundPackage>> {
    const { packageIndex } = this.deps.repos;
    if (type === '') return packageIndex.searchPackages(owner.id, COMPOSER, text, page);
    // The type is in each version's metadata: the matches are filtered here, then paged.
    const all = await packageIndex.searchPackages(owner.id, COMPOSER, text, { page: 1, skip: 0, limit: MAX_TYPED });
    return pageOf(
      all.items.filter((item) => parseMetadata(item.newest.metadataJson).type === type),
      page,
    );
  }

  /** The file to download, counted as a download of its version. */
  async file(owner: User, name: string, version: string, fileName: string): Promise<PackageFileRow> {
    const { packages } = this.deps.repos;
    const found = await packages.findVersion({ ownerId: owner.id, type: COMPOSER, name, version });
    const file = found && (await packages.findFile(found.id, fileName));
    if (!found || !file) throw new NotFoundError('package file does not exist');
    packages.countDownload(found.id);
    return file;
  }
}
