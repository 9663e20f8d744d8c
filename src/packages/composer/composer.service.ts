// The Composer repository's rules (Forgejo: routers/api/packages/composer): an archive uploaded as a new version
// (name, version and metadata read from its composer.json), and what Composer reads: a package's versions with
// their files, the owner's package names, a search, a file to download.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { FoundPackage, IndexedFile } from '../../db/package-index.repository.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { type ListOptions, type Page, pageOf } from '../../domain/page.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher } from '../core/publish.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { readComposerArchive } from './composer-archive.ts';
import { parseMetadata } from './composer-documents.ts';
import { archiveFileName, isDevVersion } from './composer-names.ts';

export const COMPOSER = 'composer';
/** The most packages a search by type looks through. */
const MAX_TYPED = 10_000;

export class ComposerService {
  private readonly publisher: PackagePublisher;

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
    const maxBytes = limit >= 0 ? limit : undefined;
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

  /** The files of the package's tagged versions (`dev` false) or of its branches (`dev` true), oldest first. */
  async packageFiles(owner: User, name: string, dev: boolean): Promise<IndexedFile[]> {
    const files = await this.deps.repos.packageIndex.listFiles({ ownerId: owner.id, type: COMPOSER, name });
    if (files.length === 0) throw new NotFoundError('package does not exist');
    return files.filter((file) => isDevVersion(file.version) === dev);
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
