// What a registry's index documents are built from (PyPI's simple pages, Maven's maven-metadata.xml): every file
// of a package's public versions with its version and stored digests, in one query whatever the number of files.
import type { ListOptions, Page } from '../domain/page.ts';
import type { HotQueries, PackageFileDownload } from './hot-queries.ts';
import { PROPERTY_OF } from './package-property.repository.ts';
import { type DbClient, type Prisma, PrismaSql } from './prisma.ts';

export interface IndexedFile {
  /** The package's name as first published. */
  packageName: string;
  versionId: number;
  version: string;
  versionCreatedAt: Date;
  metadataJson: string;
  downloadCount: number;
  fileName: string;
  fileCreatedAt: Date;
  size: number;
  sha1: string;
  sha256: string;
}

/** A file of any package of a type, for registries whose index spans packages (Conda's repodata). */
export interface TypeFile extends IndexedFile {
  fileId: number;
  packageName: string;
  compositeKey: string;
  md5: string;
  /** The file's property named by the filter's `fileProperty`, '' when it has none. */
  fileProperty: string;
}

export interface TypeFileFilter {
  ownerId: number;
  type: string;
  compositeKey?: string;
  /** Lower case. */
  fileName?: string;
  /** A property of each file to read with it (PackageProperty of refType file). */
  fileProperty?: string;
}

export interface IndexedVersion {
  version: string;
  createdAt: Date;
}

export interface PackageNameKey {
  ownerId: number;
  type: string;
  /** Compared case-insensitively. */
  name: string;
}

/** SQLite answers DATETIME columns of raw queries as text or epoch milliseconds, PostgreSQL as dates. */
function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  return new Date(/^\d+$/.test(text) ? Number(text) : text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

interface FileRow {
  packageName: string;
  versionId: number;
  version: string;
  versionCreatedAt: unknown;
  metadataJson: string;
  downloadCount: bigint | number;
  fileName: string;
  fileCreatedAt: unknown;
  size: bigint | number;
  sha1: string;
  sha256: string;
}

/** A package found by a registry's search, with its newest public version. */
export interface FoundPackage {
  name: string;
  newest: { version: string; metadataJson: string; downloadCount: number };
}

export class PackageIndexRepository {
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /** The package's id and revision (Package.revision), by which a kept index document is known current. */
  revisionOf(key: PackageNameKey): Promise<{ id: number; revision: number } | null> {
    return this.hot.packageRevision(key.ownerId, key.type, key.name.toLowerCase());
  }

  /** A file of a public version by its names (compared case-insensitively), with what a download needs. */
  downloadFile(key: PackageNameKey & { version: string; fileName: string }): Promise<PackageFileDownload | null> {
    return this.hot.packageFile({
      ownerId: key.ownerId,
      type: key.type,
      lowerName: key.name.toLowerCase(),
      lowerVersion: key.version.toLowerCase(),
      lowerFileName: key.fileName.toLowerCase(),
    });
  }

  /** The names of the owner's public packages of the type holding the text, by name, and how many there are. */
  async searchNames(
    key: Omit<PackageNameKey, 'name'>,
    text: string,
    page: { skip: number; take: number },
  ): Promise<{ names: string[]; total: number }> {
    const where: Prisma.PackageWhereInput = {
      ownerId: key.ownerId,
      type: key.type,
      isInternal: false,
      versions: { some: { isInternal: false } },
      ...(text === '' ? {} : { lowerName: { contains: text.toLowerCase() } }),
    };
    const [rows, total] = await Promise.all([
      this.client.package.findMany({
        where,
        select: { name: true },
        orderBy: { lowerName: 'asc' },
        skip: page.skip,
        take: page.take,
      }),
      this.client.package.count({ where }),
    ]);
    return { names: rows.map((row) => row.name), total };
  }

  /**
   * The files of the package's public versions (of one version when `lowerVersion` is given), oldest version
   * first, each version's files in upload order.
   */
  listFiles(key: PackageNameKey, lowerVersion?: string): Promise<IndexedFile[]> {
    return this.files(
      key,
      PrismaSql.sql`AND p."lowerName" = ${key.name.toLowerCase()}
        ${lowerVersion === undefined ? PrismaSql.empty : PrismaSql.sql`AND v."lowerVersion" = ${lowerVersion}`}`,
    );
  }

  /** The files of every public package of the owner's of the type (a repository-wide index such as Helm's). */
  listFilesOfType(key: Omit<PackageNameKey, 'name'>): Promise<IndexedFile[]> {
    return this.files(key, PrismaSql.empty);
  }

  private async files(key: Omit<PackageNameKey, 'name'>, condition: Prisma.Sql): Promise<IndexedFile[]> {
    const rows = await this.client.$queryRaw<FileRow[]>`
      SELECT p."name" AS "packageName", v."id" AS "versionId", v."version" AS "version",
             v."createdAt" AS "versionCreatedAt", v."metadataJson" AS "metadataJson",
             v."downloadCount" AS "downloadCount", f."name" AS "fileName", f."createdAt" AS "fileCreatedAt",
             b."size" AS "size", b."hashSha1" AS "sha1", b."hashSha256" AS "sha256"
      FROM "Package" p
      JOIN "PackageVersion" v ON v."packageId" = p."id"
      JOIN "PackageFile" f ON f."versionId" = v."id"
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      WHERE p."ownerId" = ${key.ownerId} AND p."type" = ${key.type}
        AND p."isInternal" = ${false} AND v."isInternal" = ${false} ${condition}
      ORDER BY v."createdAt", v."id", f."id"`;
    return rows.map((row) => ({
      packageName: row.packageName,
      versionId: Number(row.versionId),
      version: row.version,
      versionCreatedAt: toDate(row.versionCreatedAt),
      metadataJson: row.metadataJson,
      downloadCount: Number(row.downloadCount),
      fileName: row.fileName,
      fileCreatedAt: toDate(row.fileCreatedAt),
      size: Number(row.size),
      sha1: row.sha1,
      sha256: row.sha256,
    }));
  }

  /**
   * The files of every public package of the type the owner has, oldest version first, each version's files in
   * upload order; only those of one composite key or file name when given.
   */
  async listTypeFiles(filter: TypeFileFilter): Promise<TypeFile[]> {
    const rows = await this.client.$queryRaw<(FileRow & Record<string, unknown>)[]>`
      SELECT v."id" AS "versionId", v."version" AS "version", v."createdAt" AS "versionCreatedAt",
             v."metadataJson" AS "metadataJson", v."downloadCount" AS "downloadCount", f."id" AS "fileId",
             f."name" AS "fileName", b."hashSha1" AS "sha1",
             f."createdAt" AS "fileCreatedAt", f."compositeKey" AS "compositeKey", p."name" AS "packageName",
             b."size" AS "size", b."hashSha256" AS "sha256", b."hashMd5" AS "md5", pp."value" AS "fileProperty"
      FROM "Package" p
      JOIN "PackageVersion" v ON v."packageId" = p."id"
      JOIN "PackageFile" f ON f."versionId" = v."id"
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      LEFT JOIN "PackageProperty" pp ON pp."refType" = ${PROPERTY_OF.file} AND pp."refId" = f."id"
        AND pp."name" = ${filter.fileProperty ?? ''}
      WHERE p."ownerId" = ${filter.ownerId} AND p."type" = ${filter.type}
        AND p."isInternal" = ${false} AND v."isInternal" = ${false}
        ${filter.compositeKey === undefined ? PrismaSql.empty : PrismaSql.sql`AND f."compositeKey" = ${filter.compositeKey}`}
        ${filter.fileName === undefined ? PrismaSql.empty : PrismaSql.sql`AND f."lowerName" = ${filter.fileName}`}
      ORDER BY v."createdAt", v."id", f."id"`;
    return rows.map((row) => ({
      versionId: Number(row.versionId),
      version: row.version,
      versionCreatedAt: toDate(row.versionCreatedAt),
      metadataJson: row.metadataJson,
      downloadCount: Number(row.downloadCount),
      fileId: Number(row.fileId),
      fileName: row.fileName,
      sha1: String(row.sha1),
      fileCreatedAt: toDate(row.fileCreatedAt),
      compositeKey: String(row.compositeKey),
      packageName: String(row.packageName),
      size: Number(row.size),
      sha256: row.sha256,
      md5: String(row.md5),
      fileProperty: typeof row.fileProperty === 'string' ? row.fileProperty : '',
    }));
  }

  /** The names of the owner's public packages of the type with a version that has this property. */
  async packagesWithVersionProperty(ownerId: number, type: string, name: string, value: string): Promise<string[]> {
    const rows = await this.client.$queryRaw<{ name: string }[]>`
      SELECT DISTINCT p."name" AS "name"
      FROM "PackageProperty" pp
      JOIN "PackageVersion" v ON v."id" = pp."refId"
      JOIN "Package" p ON p."id" = v."packageId"
      WHERE pp."refType" = ${PROPERTY_OF.version} AND pp."name" = ${name} AND pp."value" = ${value}
        AND p."ownerId" = ${ownerId} AND p."type" = ${type} AND p."isInternal" = ${false} AND v."isInternal" = ${false}
      ORDER BY p."name"`;
    return rows.map((row) => row.name);
  }

  /** The package's name as first published. */
  async packageName(key: PackageNameKey): Promise<string | null> {
    const found = await this.client.package.findUnique({
      where: { ownerId_type_lowerName: { ownerId: key.ownerId, type: key.type, lowerName: key.name.toLowerCase() } },
      select: { name: true },
    });
    return found?.name ?? null;
  }

  /** The package's public versions, oldest first. */
  async listVersions(key: PackageNameKey): Promise<IndexedVersion[]> {
    const rows = await this.client.packageVersion.findMany({
      where: {
        isInternal: false,
        package: { ownerId: key.ownerId, type: key.type, lowerName: key.name.toLowerCase(), isInternal: false },
      },
      select: { version: true, createdAt: true },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    });
    return rows;
  }

  /** The names of the owner's public packages of a type, by name. */
  async listNames(ownerId: number, type: string): Promise<string[]> {
    const rows = await this.client.package.findMany({
      where: { ownerId, type, isInternal: false, versions: { some: { isInternal: false } } },
      select: { name: true },
      orderBy: { lowerName: 'asc' },
    });
    return rows.map((row) => row.name);
  }

  /** The owner's public packages of a type whose name holds the text, by name, each with its newest version. */
  async searchPackages(ownerId: number, type: string, text: string, page: ListOptions): Promise<Page<FoundPackage>> {
    const where: Prisma.PackageWhereInput = {
      ownerId,
      type,
      isInternal: false,
      ...(text === '' ? {} : { lowerName: { contains: text.toLowerCase() } }),
      versions: { some: { isInternal: false } },
    };
    const [rows, total] = await Promise.all([
      this.client.package.findMany({
        where,
        select: {
          name: true,
          versions: {
            where: { isInternal: false },
            select: { version: true, metadataJson: true, downloadCount: true },
            orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
            take: 1,
          },
        },
        orderBy: { lowerName: 'asc' },
        skip: page.skip,
        take: page.limit,
      }),
      this.client.package.count({ where }),
    ]);
    return { items: rows.map((row) => ({ name: row.name, newest: row.versions[0] })), total };
  }
}
