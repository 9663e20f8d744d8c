// The Go module proxy's rules (Forgejo: routers/api/packages/goproxy): a module zip uploaded as one version (its
// module path and version read from the zip, its go.mod kept in the version's metadata), and what the proxy
// protocol reads: the version list, a version's info and go.mod, its zip.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { IndexedVersion } from '../../db/package-index.repository.ts';
import type { PackageFileRow, PackageVersionRow } from '../../db/package.repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { latestModuleVersion } from './module-names.ts';
import { readModuleZip } from './module-zip.ts';
import { sizeBound } from '../core/size-bound.ts';

export const GO = 'go';

interface GoMetadata {
  goMod: string;
}

const notFound = () => new NotFoundError('package does not exist');

export class GoService {
  private readonly publisher: PackagePublisher;
  private readonly lists = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /**
   * Publishes a module zip as a new version: a malformed or hostile zip answers 400, an existing version 409, past
   * `[packages] LIMIT_SIZE_GO` or the owner's quota 413; nothing is kept then.
   */
  async upload(doer: User, owner: User, body: Readable, announcedLength?: number): Promise<void> {
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    const limit = this.deps.settings.packages.LIMIT_SIZE_GO;
    const maxBytes = sizeBound(limit);
    const spooled = await SpooledUpload.receive(body, maxBytes);
    try {
      const zip = await readModuleZip(spooled.path);
      const metadata: GoMetadata = { goMod: zip.goMod };
      await this.publisher.publish(
        {
          owner,
          doer,
          key: { ownerId: owner.id, type: GO, name: zip.module, version: zip.version },
          fileName: `${zip.version}.zip`,
          isLead: true,
          newVersionOnly: true,
          metadataJson: JSON.stringify(metadata),
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

  /** `@v/list`: one version a line, oldest first, kept while the module is unchanged; 404 for no module. */
  async versionList(owner: User, module: string): Promise<IndexDocument> {
    const key = { ownerId: owner.id, type: GO, name: module };
    const found = await this.deps.repos.packageIndex.revisionOf(key);
    if (!found) throw notFound();
    return this.lists.get(String(found.id), found.revision, async () => {
      const versions = await this.versions(owner, module);
      const body = versions.map((version) => `${version.version}\n`).join('');
      return indexDocument(body, new Date(Math.max(...versions.map((version) => version.createdAt.getTime()))));
    });
  }

  /** The module's versions, oldest first; 404 for a module the owner does not have. */
  async versions(owner: User, module: string): Promise<IndexedVersion[]> {
    const versions = await this.deps.repos.packageIndex.listVersions({ ownerId: owner.id, type: GO, name: module });
    if (versions.length === 0) throw notFound();
    return versions;
  }

  /** The version `@latest` names: the highest release, else the highest pre-release. */
  async latest(owner: User, module: string): Promise<IndexedVersion> {
    const versions = await this.versions(owner, module);
    const latest = latestModuleVersion(versions.map((version) => version.version));
    const found = versions.find((version) => version.version === latest) ?? versions.at(-1);
    if (!found) throw notFound();
    return found;
  }

  async version(owner: User, module: string, version: string): Promise<PackageVersionRow> {
    const found = await this.deps.repos.packages.findVersion({ ownerId: owner.id, type: GO, name: module, version });
    if (!found) throw new NotFoundError('package version does not exist');
    return found;
  }

  async goMod(owner: User, module: string, version: string): Promise<string> {
    const found = await this.version(owner, module, version);
    return (JSON.parse(found.metadataJson) as GoMetadata).goMod;
  }

  /** The version's zip, counted as a download. */
  async zip(owner: User, module: string, version: string): Promise<PackageFileRow> {
    const { packages } = this.deps.repos;
    const found = await this.version(owner, module, version);
    const file = await packages.findFile(found.id, `${found.version}.zip`);
    if (!file) throw new NotFoundError('package file does not exist');
    packages.countDownload(found.id);
    return file;
  }
}
