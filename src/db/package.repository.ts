// Packages, their versions and files, and the blobs the files point at (Forgejo: models/packages). Every query is
// scoped by the owner. A package of any type is the same rows: the type is data.
import type { BlobDigests } from '../infra/storage/blob-store.ts';
import type { TeamPackageGrant } from '../domain/access/package-access.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { UnitType } from '../domain/access/modes.ts';
import { translated } from '../infra/database/errors.ts';
import { DownloadTally } from './download-tally.ts';
import type { HotQueries } from './hot-queries.ts';
import type { PackageFileDownload } from './hot-package-queries.ts';
import { deleteOrphanBlobRows } from './package-blob.repository.ts';
import { deletePropertiesOf, PROPERTY_OF } from './package-property.repository.ts';
import type { DbClient, Prisma, User } from './prisma.ts';
import type { RepositoryDetails } from './repository-details.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

export type PackageVersionRow = Prisma.PackageVersionGetPayload<{ include: { package: true } }>;
export type PackageFileRow = Prisma.PackageFileGetPayload<{ include: { blob: true } }>;

/**
 * A version as the API shows it: with its owner, its creator (a ghost when the account is gone) and the repository
 * it is linked to when the viewer may read that.
 */
export interface PackageView {
  version: PackageVersionRow;
  owner: User;
  creator: User;
  repository: RepositoryDetails | null;
}

/** Names the API and the registries look a version up by; names and versions compare case-insensitively. */
export interface VersionKey {
  ownerId: number;
  type: string;
  name: string;
  version: string;
}

export interface VersionFilter {
  type?: string;
  /** Substring of the package name. */
  query?: string;
}

export interface NewPackageFile {
  key: VersionKey;
  creatorId: number;
  fileName: string;
  /** Tells apart files of one name in a version (CRAN's builds per platform and R version, NuGet's symbol files); '' for none. */
  compositeKey?: string;
  blob: BlobDigests;
  isLead: boolean;
  /** The version is new and internal (hidden from the API; a registry's working area such as container uploads). */
  internalVersion?: boolean;
  /** The registry's metadata of a new version, as JSON. */
  metadataJson?: string;
  /** The file must start a new version (npm); an existing one fails its unique index: NameTakenError. */
  newVersionOnly?: boolean;
  /** Tags of the package to point at the version (npm's dist-tags). */
  tags?: readonly string[];
  /** metadataJson also replaces an existing version's (Maven: the POM comes after the jar). */
  replaceMetadata?: boolean;
  /** Facts about the file a registry selects on (PackageProperty rows). */
  properties?: Readonly<Record<string, string>>;
}

export interface AddedFile {
  version: PackageVersionRow;
  newVersion: boolean;
  fileId: number;
}

const NEWEST_FIRST = [{ createdAt: 'desc' }, { id: 'desc' }] satisfies Prisma.PackageVersionOrderByWithRelationInput[];

function versionWhere(key: VersionKey): Prisma.PackageVersionWhereInput {
  return {
    lowerVersion: key.version.toLowerCase(),
    isInternal: false,
    package: { ownerId: key.ownerId, type: key.type, lowerName: key.name.toLowerCase(), isInternal: false },
  };
}

/** The package a key names, created when new; run it in a transaction. */
export function upsertPackage(client: DbClient, key: Pick<VersionKey, 'ownerId' | 'type' | 'name'>) {
  const lowerName = key.name.toLowerCase();
  return client.package.upsert({
    where: { ownerId_type_lowerName: { ownerId: key.ownerId, type: key.type, lowerName } },
    create: { ownerId: key.ownerId, type: key.type, name: key.name, lowerName },
    update: {},
  });
}

/** The row of stored bytes, created when they are new (rows are shared by every file with the same bytes). */
export function upsertBlobRow(client: DbClient, blob: BlobDigests) {
  return client.packageBlob.upsert({
    where: { hashSha256: blob.sha256 },
    create: {
      size: BigInt(blob.size),
      hashMd5: blob.md5,
      hashSha1: blob.sha1,
      hashSha256: blob.sha256,
      hashSha512: blob.sha512,
    },
    // Bytes first stored with some digests left for later (complete-digests.ts) get them from any upload that has them.
    update: Object.fromEntries(
      (
        [
          ['hashMd5', blob.md5],
          ['hashSha1', blob.sha1],
          ['hashSha512', blob.sha512],
        ] as const
      ).filter(([, hex]) => hex !== ''),
    ),
  });
}

/** Marks a change of the package (Package.revision); run it in the transaction of the change. */
export async function touchPackage(client: DbClient, packageId: number): Promise<void> {
  await client.package.updateMany({ where: { id: packageId }, data: { revision: { increment: 1 } } });
}

/** Points a tag of the package at a version, moving it when it exists. */
export function setTag(client: DbClient, packageId: number, name: string, versionId: number) {
  return client.packageTag.upsert({
    where: { packageId_name: { packageId, name } },
    create: { packageId, name, versionId },
    update: { versionId },
  });
}

export class PackageRepository {
  private readonly downloads: DownloadTally;

  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
    /** Prepared statements for what every download asks (committed rows). */
    private readonly hot: HotQueries,
  ) {
    this.downloads = new DownloadTally(client);
  }

  /** The viewer's teams in the organization with their packages unit, for the access rule. */
  async teamGrantsOf(orgId: number, userId: number): Promise<TeamPackageGrant[]> {
    const teams = await this.hot.memberTeamUnitModes(userId, orgId, UnitType.packages);
    return teams.map((team) => ({ accessMode: team.accessMode, packagesUnit: team.unitMode }));
  }

  findVersion(key: VersionKey): Promise<PackageVersionRow | null> {
    return this.client.packageVersion.findFirst({ where: versionWhere(key), include: { package: true } });
  }

  /** One entry per version, internal packages and versions left out, newest first. */
  async pageVersions(ownerId: number, filter: VersionFilter, page: ListOptions): Promise<Page<PackageVersionRow>> {
    const where: Prisma.PackageVersionWhereInput = {
      isInternal: false,
      package: {
        ownerId,
        isInternal: false,
        ...(filter.type ? { type: filter.type } : {}),
        ...(filter.query ? { lowerName: { contains: filter.query.toLowerCase() } } : {}),
      },
    };
    const [items, total] = await Promise.all([
      this.client.packageVersion.findMany({
        where,
        include: { package: true },
        orderBy: NEWEST_FIRST,
        skip: page.skip,
        take: page.limit,
      }),
      this.client.packageVersion.count({ where }),
    ]);
    return { items, total };
  }

  listUsers(ids: readonly number[]): Promise<User[]> {
    return ids.length === 0
      ? Promise.resolve([])
      : this.client.user.findMany({ where: { id: { in: [...new Set(ids)] } } });
  }

  listFiles(versionId: number): Promise<PackageFileRow[]> {
    return this.client.packageFile.findMany({ where: { versionId }, include: { blob: true }, orderBy: { id: 'asc' } });
  }

  /** A visible file by its version's key and its name, with what a download needs; null when any part is missing. */
  findDownload(key: VersionKey, fileName: string): Promise<PackageFileDownload | null> {
    return this.hot.packageFile({
      ownerId: key.ownerId,
      type: key.type,
      lowerName: key.name.toLowerCase(),
      lowerVersion: key.version.toLowerCase(),
      lowerFileName: fileName.toLowerCase(),
    });
  }

  findFile(versionId: number, fileName: string, compositeKey = ''): Promise<PackageFileRow | null> {
    return this.client.packageFile.findFirst({
      where: { versionId, lowerName: fileName.toLowerCase(), compositeKey },
      include: { blob: true },
    });
  }

  async fileExists(key: VersionKey, fileName: string, compositeKey = ''): Promise<boolean> {
    const found = await this.client.packageFile.findFirst({
      where: { lowerName: fileName.toLowerCase(), compositeKey, version: versionWhere(key) },
      select: { id: true },
    });
    return found !== null;
  }

  /**
   * Adds a file to a version, creating the package and the version when they are new and the blob row when the
   * bytes are, and points the file's tags at the version; run it in a transaction. A file of that name in the
   * version, an existing version when the file must start one, or a package or version created by a concurrent
   * upload meanwhile, fails a unique index: NameTakenError. Answers the version and whether it is new.
   */
  async addFile(file: NewPackageFile): Promise<AddedFile> {
    return translated({ taken: 'package file name' }, () => this.insertFile(file));
  }

  private async insertFile(file: NewPackageFile): Promise<AddedFile> {
    const { key } = file;
    const lowerVersion = key.version.toLowerCase();
    const pkg = await upsertPackage(this.client, key);
    await touchPackage(this.client, pkg.id);
    const newVersion = {
      packageId: pkg.id,
      creatorId: file.creatorId,
      version: key.version,
      lowerVersion,
      isInternal: file.internalVersion ?? false,
      ...(file.metadataJson === undefined ? {} : { metadataJson: file.metadataJson }),
    };
    const existing = file.newVersionOnly
      ? null
      : await this.client.packageVersion.findUnique({
          where: { packageId_lowerVersion: { packageId: pkg.id, lowerVersion } },
          select: { id: true },
        });
    const replaced = existing && file.replaceMetadata && file.metadataJson !== undefined;
    const version = !existing
      ? await this.client.packageVersion.create({ data: newVersion })
      : replaced
        ? await this.client.packageVersion.update({
            where: { id: existing.id },
            data: { metadataJson: file.metadataJson },
          })
        : await this.client.packageVersion.findUniqueOrThrow({ where: { id: existing.id } });
    const stored = await upsertBlobRow(this.client, file.blob);
    const created = await this.client.packageFile.create({
      data: {
        versionId: version.id,
        blobId: stored.id,
        name: file.fileName,
        lowerName: file.fileName.toLowerCase(),
        compositeKey: file.compositeKey ?? '',
        isLead: file.isLead,
      },
      select: { id: true },
    });
    const properties = Object.entries(file.properties ?? {}).map(([name, value]) => ({
      refType: PROPERTY_OF.file,
      refId: created.id,
      name,
      value,
    }));
    if (properties.length > 0) await this.client.packageProperty.createMany({ data: properties });
    for (const name of file.tags ?? []) await setTag(this.client, pkg.id, name, version.id);
    return { version: { ...version, package: pkg }, newVersion: existing === null, fileId: created.id };
  }

  /**
   * The files of that name (case-insensitive) of the owner's public packages of the type, of these files only when
   * ids are given.
   */
  filesNamed(
    key: Pick<VersionKey, 'ownerId' | 'type'>,
    fileIds: number[] | null,
    fileName: string,
  ): Promise<PackageFileRow[]> {
    if (fileIds?.length === 0) return Promise.resolve([]);
    return this.client.packageFile.findMany({
      where: {
        ...(fileIds ? { id: { in: fileIds } } : {}),
        lowerName: fileName.toLowerCase(),
        version: { isInternal: false, package: { ownerId: key.ownerId, type: key.type, isInternal: false } },
      },
      include: { blob: true },
      take: 2,
    });
  }

  /** The metadata JSON of these versions, by id (an index lists many versions' metadata at once). */
  async versionMetadata(versionIds: number[]): Promise<Map<number, string>> {
    const found = new Map<number, string>();
    // In slices: SQLite bounds the parameters of one statement.
    for (let i = 0; i < versionIds.length; i += 500) {
      const rows = await this.client.packageVersion.findMany({
        where: { id: { in: versionIds.slice(i, i + 500) } },
        select: { id: true, metadataJson: true },
      });
      for (const row of rows) found.set(row.id, row.metadataJson);
    }
    return found;
  }

  countFiles(versionId: number): Promise<number> {
    return this.client.packageFile.count({ where: { versionId } });
  }

  /**
   * Deletes a version with its files, and its package when no version is left; returns the hashes of the blobs no
   * file refers to any more, whose rows are gone too. Run it in a transaction.
   */
  async deleteVersion(version: PackageVersionRow): Promise<string[]> {
    const files = await this.client.packageFile.findMany({
      where: { versionId: version.id },
      select: { id: true, blobId: true },
    });
    await this.client.packageFile.deleteMany({ where: { versionId: version.id } });
    await this.client.packageVersion.delete({ where: { id: version.id } });
    const lastVersion = (await this.client.packageVersion.count({ where: { packageId: version.packageId } })) === 0;
    await deletePropertiesOf(this.client, {
      versionIds: [version.id],
      fileIds: files.map((file) => file.id),
      packageIds: lastVersion ? [version.packageId] : [],
    });
    if (lastVersion) await this.client.package.delete({ where: { id: version.packageId } });
    else await touchPackage(this.client, version.packageId);
    return this.deleteOrphanBlobs(files.map((file) => file.blobId));
  }

  /**
   * Deletes the version's file of that name and composite key, if there is one, to be replaced; returns the hash of its blob when no
   * other file refers to it. Run it in a transaction.
   */
  async deleteFileNamed(key: VersionKey, fileName: string, compositeKey = ''): Promise<string[]> {
    const found = await this.client.packageFile.findFirst({
      where: { lowerName: fileName.toLowerCase(), compositeKey, version: versionWhere(key) },
      select: { id: true, blobId: true },
    });
    if (!found) return [];
    await this.client.packageFile.delete({ where: { id: found.id } });
    await deletePropertiesOf(this.client, { fileIds: [found.id] });
    return this.deleteOrphanBlobs([found.blobId]);
  }

  /** Deletes one file; returns the hash of its blob when no other file refers to it. Run it in a transaction. */
  async deleteFile(file: PackageFileRow): Promise<string[]> {
    await this.client.packageFile.delete({ where: { id: file.id } });
    await deletePropertiesOf(this.client, { fileIds: [file.id] });
    return this.deleteOrphanBlobs([file.blobId]);
  }

  private deleteOrphanBlobs(blobIds: number[]): Promise<string[]> {
    return deleteOrphanBlobRows(this.client, this.provider, blobIds);
  }

  /** Counted in the next batch (download-tally.ts), so a download never waits for a write. */
  countDownload(versionId: number): void {
    this.downloads.add(versionId);
  }

  /** Writes the downloads counted so far (before a shutdown, or to read exact counts). */
  flushDownloads(): Promise<void> {
    return this.downloads.flush();
  }
}
