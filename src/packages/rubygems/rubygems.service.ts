// The RubyGems registry's rules (Forgejo: routers/api/packages/rubygems): `gem push` stores a .gem as a new
// version (its name, version and platform read from the gem's own specification while it streams in), the specs
// lists, the dependency API and quick specifications are built from the owner's versions, and `gem yank` deletes
// a version through the package API's deletion.
import type { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { PackageFileRow } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { RevisionCache } from '../core/revision-cache.ts';
import type { IndexDocument } from '../core/index-document.ts';
import { PackagePublisher } from '../core/publish.ts';
import { readGem } from './gem-archive.ts';
import { buildGemCatalog, type GemCatalog, type GemDocument } from './gem-catalog.ts';
import { dependencyList, quickSpecification } from './gem-index.ts';
import { type GemSpec, gemFileName } from './gem-spec.ts';
import { sizeBound } from '../core/size-bound.ts';

export const RUBYGEMS = 'rubygems';

export type SpecsKind = 'specs' | 'latest_specs' | 'prerelease_specs';

/** The dependency API answers at most this many gems at once (Bundler asks in batches of 100). */
const MAX_DEPENDENCY_GEMS = 200;
const QUICK_SPEC_SUFFIX = '.gemspec.rz';

const gemNotFound = () => new NotFoundError('gem does not exist');

export class RubygemsService {
  private readonly publisher: PackagePublisher;
  /** By owner, at the revision of its RubyGems packages. */
  private readonly catalogs = new RevisionCache<GemCatalog>({ maxSize: 500 });

  constructor(
    private readonly deps: ServiceDeps,
    quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  /** `gem push`: a version that exists answers 409, a body that is not a gem 400, past the size limit 413. */
  async push(doer: User, owner: User, body: Readable, announcedLength?: number): Promise<GemSpec> {
    const limit = this.deps.settings.packages.LIMIT_SIZE_RUBYGEMS;
    const { found } = await this.publisher.publishInspected(
      { owner, maxBytes: sizeBound(limit), announcedLength },
      body,
      readGem,
      (spec) => {
        const { name, version, ...metadata } = spec;
        return {
          owner,
          doer,
          key: { ownerId: owner.id, type: RUBYGEMS, name, version },
          fileName: gemFileName(spec),
          metadataJson: JSON.stringify(metadata),
          newVersionOnly: true,
        };
      },
    );
    return found;
  }

  async specs(owner: User, kind: SpecsKind): Promise<GemDocument> {
    const catalog = await this.catalog(owner);
    if (kind === 'latest_specs') return catalog.latestSpecs;
    return kind === 'prerelease_specs' ? catalog.prereleaseSpecs : catalog.specs;
  }

  /** The compact index's versions file. */
  async compactVersions(owner: User): Promise<IndexDocument> {
    return (await this.catalog(owner)).versions();
  }

  /** The compact index's info file of a gem; 404 for a gem the owner has not. */
  async compactInfo(owner: User, name: string): Promise<IndexDocument> {
    const document = (await this.catalog(owner)).info(name.toLowerCase());
    if (!document) throw gemNotFound();
    return document;
  }

  /** GET api/v1/dependencies?gems=a,b: every version of the named gems (none named: an empty answer). */
  async dependencies(owner: User, names: readonly string[]): Promise<Buffer | null> {
    if (names.length === 0) return null;
    if (names.length > MAX_DEPENDENCY_GEMS) throw new BadRequestError(`at most ${MAX_DEPENDENCY_GEMS} gems at once`);
    const catalog = await this.catalog(owner);
    const specs = names.flatMap((name) => catalog.byName.get(name.toLowerCase()) ?? []).map((gem) => gem.spec);
    return dependencyList(specs);
  }

  /** quick/Marshal.4.8/NAME-VERSION[-PLATFORM].gemspec.rz */
  async quickSpecification(owner: User, fileName: string): Promise<Buffer> {
    if (!fileName.endsWith(QUICK_SPEC_SUFFIX)) throw gemNotFound();
    const gemName = `${fileName.slice(0, -QUICK_SPEC_SUFFIX.length)}.gem`;
    const gem = (await this.catalog(owner)).byFileName.get(gemName.toLowerCase());
    if (!gem) throw gemNotFound();
    return quickSpecification(gem.spec);
  }

  /** gems/NAME-VERSION[-PLATFORM].gem, counted as a download. */
  async gemFile(owner: User, fileName: string): Promise<PackageFileRow> {
    const gem = (await this.catalog(owner)).byFileName.get(fileName.toLowerCase());
    const file = gem && (await this.deps.repos.packages.findFile(gem.versionId, gem.fileName));
    if (!gem || !file) throw gemNotFound();
    this.deps.repos.packages.countDownload(gem.versionId);
    return file;
  }

  /** The owner's catalog: the kept one while its packages keep their revision, else built from one query. */
  private async catalog(owner: User) {
    const index = this.deps.repos.ownerPackageIndex;
    const revision = await index.revision(owner.id, RUBYGEMS);
    return this.catalogs.get(String(owner.id), revision, async () =>
      buildGemCatalog(await index.listFiles(owner.id, RUBYGEMS)),
    );
  }
}
