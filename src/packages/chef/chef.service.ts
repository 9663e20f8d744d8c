// The Chef registry's rules (Forgejo: routers/api/packages/chef): a cookbook tarball stored as a new version named
// by its metadata.json (an existing version answers 409), the owner's universe kept while none of its cookbooks
// changed, the cookbook list and search, a cookbook, a version, its tarball, and deletes.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { Page } from '../../domain/page.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { PackageService } from '../../services/package.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache } from '../core/index-document-cache.ts';
import { PackagePublisher } from '../core/publish.ts';
import { sizeBound } from '../core/size-bound.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { readFromTarGz } from '../core/tar-gz-archive.ts';
import { type ChefVersion, chefVersions, universeDocument } from './chef-documents.ts';
import { type ChefMetadata, parseChefMetadata } from './chef-metadata.ts';

export const CHEF = 'chef';

const MAX_METADATA_BYTES = 1024 * 1024;
/** Inflated bytes read looking for metadata.json before the tarball is refused as a bomb. */
const MAX_SCANNED_BYTES = 100 * 1024 * 1024;

const cookbookNotFound = () => new NotFoundError('cookbook does not exist');

export interface ChefListItem {
  name: string;
  metadata: ChefMetadata;
}

export class ChefService {
  private readonly publisher: PackagePublisher;
  private readonly universes = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    hookEvents: HookEventsService,
    private readonly packages: PackageService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /** Stores a shared cookbook's tarball as a new version; a malformed or hostile tarball answers 400. */
  async upload(doer: User, owner: User, body: Readable): Promise<void> {
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    const maxBytes = sizeBound(this.deps.settings.packages.LIMIT_SIZE_CHEF);
    const upload = await SpooledUpload.receive(body, maxBytes);
    try {
      const json = await readFromTarGz(upload.path, {
        // The cookbook's own folder's metadata.json, as knife packs it (`<name>/metadata.json`).
        wanted: (name) => /^(?:\.\/)?[^/]+\/metadata\.json$/.test(name),
        what: 'metadata.json',
        maxBytes: MAX_METADATA_BYTES,
        maxScannedBytes: MAX_SCANNED_BYTES,
      });
      if (!json) throw new BadRequestError('the cookbook has no metadata.json');
      const cookbook = parseChefMetadata(json.toString('utf8'));
      await this.publisher.publish(
        {
          owner,
          doer,
          key: { ownerId: owner.id, type: CHEF, name: cookbook.name, version: cookbook.version },
          fileName: `${cookbook.version}.tar.gz`,
          isLead: true,
          newVersionOnly: true,
          metadataJson: JSON.stringify(cookbook.metadata),
          maxBytes,
        },
        upload.open(),
      );
    } finally {
      await upload.dispose();
    }
  }

  /** The owner's universe as the registry at `base` (ending in /api/v1) serves it. */
  async universe(owner: User, base: string): Promise<IndexDocument> {
    const key = { ownerId: owner.id, type: CHEF };
    const revision = await this.deps.repos.packageIndex.typeRevision(key);
    return this.universes.get(`${owner.id}\n${base}`, revision, async () => {
      const files = await this.deps.repos.packageIndex.listFilesOfType(key);
      return JSON.stringify(universeDocument(base, chefVersions(files)));
    });
  }

  /** The cookbooks whose name holds `text`, by name, each with its newest version's metadata. */
  async search(owner: User, text: string, skip: number, limit: number): Promise<Page<ChefListItem>> {
    const found = await this.deps.repos.packageIndex.searchPackages(owner.id, CHEF, text, { page: 1, skip, limit });
    return {
      items: found.items.map((row) => ({ name: row.name, metadata: JSON.parse(row.newest.metadataJson) })),
      total: found.total,
    };
  }

  /** The cookbook's versions (one of them when `version` is given). */
  async versions(owner: User, name: string, version?: string): Promise<ChefVersion[]> {
    const files = await this.deps.repos.packageIndex.listFiles(
      { ownerId: owner.id, type: CHEF, name },
      version?.toLowerCase(),
    );
    if (files.length === 0) throw cookbookNotFound();
    return chefVersions(files);
  }

  /** A version's tarball, counted as a download. */
  async archive(owner: User, name: string, version: string): Promise<PackageFileDownload> {
    const file = await this.deps.repos.packageIndex.downloadFile({
      ownerId: owner.id,
      type: CHEF,
      name,
      version,
      fileName: `${version}.tar.gz`,
    });
    if (!file) throw cookbookNotFound();
    this.deps.repos.packages.countDownload(file.versionId);
    return file;
  }

  async deleteVersion(doer: User, owner: User, name: string, version: string): Promise<void> {
    await this.packages.delete(doer, owner, CHEF, name, version);
  }

  /** Every version of the cookbook (`knife supermarket unshare`). */
  async deleteCookbook(doer: User, owner: User, name: string): Promise<void> {
    const versions = await this.versions(owner, name);
    for (const row of versions) await this.packages.delete(doer, owner, CHEF, name, row.version);
  }
}
