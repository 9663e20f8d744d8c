// What the Conan registry reads and changes beyond the package core's rows: every file of a recipe version with
// its composite key (the recipe or binary package reference and revisions it belongs to), time, MD5 and parsed
// conaninfo, in two queries whatever their number; the owner's recipes for `conan search`; the revisions kept per
// package revision (Package.revision); and the removal of a set of files in the transaction of a delete.
import type { HotQueries } from './hot-queries.ts';
import { deleteOrphanBlobRows } from './package-blob.repository.ts';
import { deletePropertiesOf, PROPERTY_OF } from './package-property.repository.ts';
import { touchPackage } from './package.repository.ts';
import type { DbClient } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

const CONAN = 'conan';
/** Forgejo's property of a conaninfo.txt file (modules/packages/conan: PropertyPackageInfo). */
export const PACKAGE_INFO_PROPERTY = 'conan.package.info';

export interface ConanFileRow {
  id: number;
  blobId: number;
  name: string;
  compositeKey: string;
  createdAt: Date;
  md5: string;
  /** The parsed conaninfo.txt (JSON), on that file only. */
  info?: string;
}

export interface ConanVersionFiles {
  packageId: number;
  versionId: number;
  files: ConanFileRow[];
}

export interface ConanRecipeRow {
  name: string;
  version: string;
  compositeKey: string;
}

/** SQLite bounds the parameters of one statement. */
const SLICE = 500;

export class ConanRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
    private readonly hot: HotQueries,
  ) {}

  /** The package's id and revision, to tell whether a kept document is current; null when there is none. */
  revisionOf(ownerId: number, lowerName: string): Promise<{ id: number; revision: number } | null> {
    return this.hot.packageRevision(ownerId, CONAN, lowerName);
  }

  /** A state that changes with any change of the owner's Conan packages. */
  ownerRevision(ownerId: number): Promise<string> {
    return this.hot.ownerPackagesRevision(ownerId, CONAN);
  }

  /** The version's files in upload order; null when the version does not exist. */
  async versionFiles(ownerId: number, name: string, version: string): Promise<ConanVersionFiles | null> {
    const found = await this.client.packageVersion.findFirst({
      where: {
        lowerVersion: version.toLowerCase(),
        isInternal: false,
        package: { ownerId, type: CONAN, lowerName: name.toLowerCase(), isInternal: false },
      },
      select: {
        id: true,
        packageId: true,
        files: {
          select: {
            id: true,
            blobId: true,
            name: true,
            compositeKey: true,
            createdAt: true,
            blob: { select: { hashMd5: true } },
          },
          orderBy: { id: 'asc' },
        },
      },
    });
    if (!found) return null;
    const infoFiles = found.files.filter((file) => file.name === 'conaninfo.txt').map((file) => file.id);
    const infos = new Map<number, string>();
    for (let i = 0; i < infoFiles.length; i += SLICE) {
      const rows = await this.client.packageProperty.findMany({
        where: { refType: PROPERTY_OF.file, name: PACKAGE_INFO_PROPERTY, refId: { in: infoFiles.slice(i, i + SLICE) } },
        select: { refId: true, value: true },
      });
      for (const row of rows) infos.set(row.refId, row.value);
    }
    return {
      packageId: found.packageId,
      versionId: found.id,
      files: found.files.map((file) => ({
        id: file.id,
        blobId: file.blobId,
        name: file.name,
        compositeKey: file.compositeKey,
        createdAt: file.createdAt,
        md5: file.blob.hashMd5,
        ...(infos.has(file.id) ? { info: infos.get(file.id) } : {}),
      })),
    };
  }

  /** Each recipe of the owner once per version and composite key of its conanfile.py. */
  async recipes(ownerId: number): Promise<ConanRecipeRow[]> {
    const rows = await this.client.packageFile.findMany({
      where: {
        isLead: true,
        version: { isInternal: false, package: { ownerId, type: CONAN, isInternal: false } },
      },
      select: { compositeKey: true, version: { select: { version: true, package: { select: { name: true } } } } },
      distinct: ['versionId', 'compositeKey'],
    });
    return rows.map((row) => ({
      name: row.version.package.name,
      version: row.version.version,
      compositeKey: row.compositeKey,
    }));
  }

  /**
   * Deletes these files of the package with their properties and marks the package changed; answers the hashes of
   * the blobs no file refers to any more. Run it in a transaction.
   */
  async deleteFiles(packageId: number, files: readonly { id: number; blobId: number }[]): Promise<string[]> {
    const ids = files.map((file) => file.id);
    for (let i = 0; i < ids.length; i += SLICE) {
      const slice = ids.slice(i, i + SLICE);
      await deletePropertiesOf(this.client, { fileIds: slice });
      await this.client.packageFile.deleteMany({ where: { id: { in: slice } } });
    }
    await touchPackage(this.client, packageId);
    const blobIds = [...new Set(files.map((file) => file.blobId))];
    const orphans: string[] = [];
    for (let i = 0; i < blobIds.length; i += SLICE)
      orphans.push(...(await deleteOrphanBlobRows(this.client, this.provider, blobIds.slice(i, i + SLICE))));
    return orphans;
  }
}
