// What a registry's index documents are built from (PyPI's simple pages, Maven's maven-metadata.xml): every file
// of a package's public versions with its version and stored digests, in one query whatever the number of files.
import type { ListOptions, Page } from '../domain/page.ts';
import type { HotQueries, PackageFileDownload } from './hot-queries.ts';
import { type DbClient, Prisma } from './prisma.ts';

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
  async listFiles(key: PackageNameKey, lowerVersion?: string): Promise<IndexedFile[]> {
    const lowerName = key.name.toLowerCase();
    const rows = await this.client.$queryRaw<FileRow[]>`
      SELECT p."name" AS "packageName", v."id" AS "versionId", v."version" AS "version",
             v."createdAt" AS "versionCreatedAt", v."metadataJson" AS "metadataJson",
             v."downloadCount" AS "downloadCount", f."name" AS "fileName", f."createdAt" AS "fileCreatedAt",
             b."size" AS "size", b."hashSha1" AS "sha1", b."hashSha256" AS "sha256"
      FROM "Package" p
      JOIN "PackageVersion" v ON v."packageId" = p."id"
      JOIN "PackageFile" f ON f."versionId" = v."id"
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      WHERE p."ownerId" = ${key.ownerId} AND p."type" = ${key.type} AND p."lowerName" = ${lowerName}
        AND p."isInternal" = ${false} AND v."isInternal" = ${false}
        ${lowerVersion === undefined ? Prisma.empty : Prisma.sql`AND v."lowerVersion" = ${lowerVersion}`}
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
