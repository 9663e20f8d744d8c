// `dotnet nuget push` of a package and of its symbol package (Forgejo: routers/api/packages/nuget UploadPackage,
// UploadSymbolPackage). The pushed archive is spooled, its .nuspec read for the id and version, then stored as the
// version's .nupkg with the manifest beside it as `<id>.nuspec`; a symbol package joins its version as the .snupkg
// and one file per Portable PDB, known by its PDB id for the symbol server.
import { Readable } from 'node:stream';
import type { User } from '../../db/entities.ts';
import type { VersionKey } from '../../db/package.repository.ts';
import { BadRequestError, NotFoundError } from '../../domain/errors.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { QuotaService } from '../../services/quota.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { PackagePublisher, type PublishedFile } from '../core/publish.ts';
import { removeUnreferencedBlobs } from '../core/remove-blobs.ts';
import { SpooledUpload } from '../core/spooled-upload.ts';
import { UploadedZip } from '../core/uploaded-zip.ts';
import { nugetFileNames } from './nuget-links.ts';
import { readNuspec, readPdbFiles } from './nupkg.ts';
import { sizeBound } from '../core/size-bound.ts';

/** Only the nuspec and the PDBs are ever inflated, each within its own bound: the total declared size is free. */
const NUPKG_ZIP_LIMITS = { maxEntries: 100_000, maxTotalBytes: Number.MAX_SAFE_INTEGER };

export const NUGET = 'nuget';
/** The property of a PDB file its symbol server looks it up by. */
export const SYMBOL_ID_PROPERTY = 'nuget.symbol.id';

export class NugetPush {
  private readonly publisher: PackagePublisher;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly quota: QuotaService,
    hookEvents: HookEventsService,
  ) {
    this.publisher = new PackagePublisher(deps, quota, hookEvents);
  }

  private get maxBytes(): number | undefined {
    const limit = this.deps.settings.packages.LIMIT_SIZE_NUGET;
    return sizeBound(limit);
  }

  /** Spools the archive within the size limit and the quota, and reads it; whatever happens, nothing stays spooled. */
  private async withArchive<T>(
    owner: User,
    body: Readable,
    use: (archive: UploadedZip, upload: SpooledUpload) => Promise<T>,
  ): Promise<T> {
    await this.quota.assertWithin(owner, 'size:assets:packages:all');
    const upload = await SpooledUpload.receive(body, this.maxBytes);
    try {
      const archive = await UploadedZip.open(upload.path, NUPKG_ZIP_LIMITS);
      try {
        return await use(archive, upload);
      } finally {
        archive.close();
      }
    } finally {
      await upload.dispose();
    }
  }

  /** A new version from a .nupkg: an existing version answers 409, a symbol package 400. */
  async push(doer: User, owner: User, body: Readable): Promise<void> {
    await this.withArchive(owner, body, async (archive, upload) => {
      const { nuspec, bytes } = await readNuspec(archive);
      if (nuspec.isSymbolPackage)
        throw new BadRequestError('a symbol package is pushed to the symbol package resource');
      const key: VersionKey = { ownerId: owner.id, type: NUGET, name: nuspec.id, version: nuspec.version };
      const file: PublishedFile = { owner, doer, key, fileName: '', maxBytes: this.maxBytes };
      await this.publisher.publish(
        {
          ...file,
          fileName: nugetFileNames.package(nuspec.id, nuspec.version),
          isLead: true,
          newVersionOnly: true,
          metadataJson: JSON.stringify(nuspec.metadata),
        },
        upload.open(),
      );
      try {
        await this.publisher.publish(
          { ...file, fileName: nugetFileNames.nuspec(nuspec.id), isLead: false },
          Readable.from(bytes),
        );
      } catch (error) {
        await this.removeVersion(key);
        throw error;
      }
    });
  }

  /** A .snupkg for an existing version (404 otherwise): the archive and each of its PDB files. */
  async pushSymbols(doer: User, owner: User, body: Readable): Promise<void> {
    await this.withArchive(owner, body, async (archive, upload) => {
      const { nuspec } = await readNuspec(archive);
      if (!nuspec.isSymbolPackage) throw new BadRequestError('the package is not a symbol package');
      const pdbs = await readPdbFiles(archive);
      const key: VersionKey = { ownerId: owner.id, type: NUGET, name: nuspec.id, version: nuspec.version };
      if (!(await this.deps.repos.packages.findVersion(key))) throw new NotFoundError('package does not exist');
      const file: PublishedFile = { owner, doer, key, fileName: '', isLead: false, maxBytes: this.maxBytes };
      await this.publisher.publish(
        { ...file, fileName: nugetFileNames.symbols(nuspec.id, nuspec.version) },
        upload.open(),
      );
      for (const pdb of pdbs) {
        await this.publisher.publish(
          { ...file, fileName: pdb.name, compositeKey: pdb.id, properties: { [SYMBOL_ID_PROPERTY]: pdb.id } },
          Readable.from(pdb.bytes),
        );
      }
    });
  }

  /** Takes back a version whose push failed half-way. */
  private async removeVersion(key: VersionKey): Promise<void> {
    const version = await this.deps.repos.packages.findVersion(key);
    if (!version) return;
    const orphans = await this.deps.transactions.run((repos) => repos.packages.deleteVersion(version));
    await removeUnreferencedBlobs(this.deps, orphans);
  }
}
