// The Cargo registry's rules (Forgejo: routers/api/packages/cargo, services/packages/cargo): `cargo publish` through
// the package core with the crate checked as it streams in, the sparse index's files built from the rows and kept
// per package revision, yank and unyank, downloads and `cargo search`; and the git index (./git-index.ts) for an
// owner who asked for one, committed to after every change of a crate.
import { pipeline, type Readable } from 'node:stream';
import semver from 'semver';
import type { CargoSearchRow } from '../../db/cargo.repository.ts';
import type { User } from '../../db/entities.ts';
import type { PackageFileDownload } from '../../db/hot-queries.ts';
import { Visibility } from '../../domain/access/modes.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { ListOptions } from '../../domain/page.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { type IndexDocument, IndexDocumentCache, indexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import type { CargoGitIndex } from './git-index.ts';
import { crateArchiveCheck } from './crate-archive.ts';
import { readCratePublish } from './publish-body.ts';
import { indexFile, type RegistryConfig, registryConfig } from './sparse-index.ts';
import { sizeBound } from '../core/size-bound.ts';

export const CARGO = 'cargo';

export interface CrateSearchResult {
  crates: { name: string; max_version: string; description: string }[];
  total: number;
}

const crateNotFound = () => new NotFoundError('crate does not exist');

/** The crate's file name, lower case as Forgejo stores it. */
export function crateFileName(name: string, version: string): string {
  return `${name}-${version}.crate`.toLowerCase();
}

export class CargoService {
  private readonly publisher: PackagePublisher;
  private readonly indexFiles = new IndexDocumentCache();

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
    private readonly gitIndex: CargoGitIndex,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  private get cargo() {
    return this.deps.repos.cargo;
  }

  /**
   * `cargo publish`: the metadata read, the crate streamed into the store through its archive check. An existing
   * version answers 409, a malformed body or crate 400, past `[packages] LIMIT_SIZE_CARGO` or the quota 413.
   */
  async publish(doer: User, owner: User, body: Readable): Promise<void> {
    const { manifest, crateLength, crate } = await readCratePublish(body);
    const { name, version } = manifest;
    const limit = this.deps.settings.packages.LIMIT_SIZE_CARGO;
    const check = crateArchiveCheck(`${name}-${version}`);
    const checked = pipeline(crate, check, () => undefined);
    try {
      await this.publisher.publish(
        {
          owner,
          doer,
          key: { ownerId: owner.id, type: CARGO, name, version },
          fileName: crateFileName(name, version),
          metadataJson: JSON.stringify(manifest.metadata),
          newVersionOnly: true,
          expected: { size: crateLength },
          announcedLength: crateLength,
          maxBytes: sizeBound(limit),
        },
        checked,
      );
    } catch (error) {
      throw check.failure instanceof BadRequestError ? check.failure : error;
    }
    await this.indexChanged(doer, owner, name);
  }

  /** `config.json`: a registry that is not public to everyone asks cargo to authenticate every request. */
  config(owner: User, registryUrl: string): RegistryConfig {
    const authRequired = this.deps.settings.service.REQUIRE_SIGNIN_VIEW || owner.visibility !== Visibility.public;
    return registryConfig(registryUrl, authRequired);
  }

  /** The crate's index file: the one kept while the crate's revision is the same, else built from its rows. */
  async indexFile(owner: User, name: string): Promise<IndexDocument> {
    const lowerName = name.toLowerCase();
    const found = await this.cargo.revisionOf(owner.id, lowerName);
    if (!found) throw crateNotFound();
    return this.indexFiles.get(String(found.id), found.revision, async () => {
      const rows = await this.cargo.crateRows(owner.id, lowerName);
      if (!rows) throw crateNotFound();
      return indexDocument(indexFile(rows));
    });
  }

  /** `cargo yank` and `cargo yank --undo`. */
  async setYanked(doer: User, owner: User, name: string, version: string, yanked: boolean): Promise<void> {
    const found = await this.deps.repos.packages.findVersion({ ownerId: owner.id, type: CARGO, name, version });
    if (!found) throw new NotFoundError('crate version does not exist');
    await this.deps.transactions.run((repos) => repos.cargo.setYanked(found.packageId, found.id, yanked));
    await this.indexChanged(doer, owner, name);
  }

  /**
   * Makes the owner's git index (the repository `_cargo-index`) if it has none and writes it whole; `rebuild`
   * writes an existing one anew (404 without one), as Forgejo's package settings do.
   */
  async writeGitIndex(doer: User, owner: User, registryUrl: string, rebuild: boolean): Promise<void> {
    const config = this.config(owner, registryUrl);
    if (rebuild) await this.gitIndex.rebuild(doer, owner, config);
    else await this.gitIndex.initialize(doer, owner, config);
  }

  /**
   * The crate's file committed to the owner's git index, if it has one. The change itself is already stored: a
   * failure here is logged, not answered, and the next change or a rebuild writes the file.
   */
  async indexChanged(doer: User, owner: User, name: string): Promise<void> {
    try {
      await this.gitIndex.update(doer, owner, name);
    } catch (error) {
      this.deps.log.error({ err: error, ownerId: owner.id, crate: name }, 'updating the Cargo git index failed');
    }
  }

  /** The crate file of a version, counted as a download. */
  async crateFile(owner: User, name: string, version: string): Promise<PackageFileDownload> {
    const file = await this.cargo.crateFile(owner.id, name.toLowerCase(), version.toLowerCase());
    if (!file) throw new NotFoundError('crate file does not exist');
    this.deps.repos.packages.countDownload(file.versionId);
    return file;
  }

  /** `cargo search`: the owner's crates whose name holds the text, each with its highest version. */
  async search(owner: User, text: string, page: ListOptions): Promise<CrateSearchResult> {
    const { items, total } = await this.cargo.search(owner.id, text, page);
    return { crates: items.map(searchEntry), total };
  }
}

function searchEntry(row: CargoSearchRow) {
  const highest = row.versions.reduce((a, b) => (semver.gt(b.version, a.version) ? b : a));
  let description = '';
  try {
    const parsed = JSON.parse(highest.metadataJson) as { description?: unknown };
    if (typeof parsed.description === 'string') description = parsed.description;
  } catch {
    // A version without metadata has no description.
  }
  return { name: row.name, max_version: highest.version, description };
}
