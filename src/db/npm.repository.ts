// What the npm registry reads and changes beyond the package core's rows: a package's versions with their tarballs
// and its dist-tags, in two queries for a packument; version metadata (deprecation); tags; the search.
import type { ListOptions, Page } from '../domain/page.ts';
import type { HotQueries, PackageFileDownload } from './hot-queries.ts';
import type { DbClient, Prisma } from './prisma.ts';
import { setTag, touchPackage } from './package.repository.ts';

const NPM = 'npm';

/** One version of a packument with its tarball. */
export interface NpmVersionRow {
  versionId: number;
  version: string;
  metadataJson: string;
  createdAt: Date;
  fileName: string;
  size: number;
  sha1: string;
  sha512: string;
}

export interface NpmTagRow {
  name: string;
  version: string;
  updatedAt: Date;
}

export interface NpmPackageRows {
  packageId: number;
  name: string;
  versions: NpmVersionRow[];
  tags: NpmTagRow[];
}

export type NpmSearchRow = Prisma.PackageGetPayload<{ include: { tags: { include: { version: true } } } }>;

interface RawVersionRow {
  packageId: number | bigint;
  name: string;
  versionId: number | bigint;
  version: string;
  metadataJson: string;
  createdAt: Date | string | number;
  fileName: string;
  size: number | bigint;
  sha1: string;
  sha512: string;
}

/** Raw rows come back as each database types them: Dates or text or numbers, numbers or BigInts. */
function asDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

export class NpmRepository {
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /** The package with its visible versions, their tarballs and its tags; null when it has no version. */
  async packageRows(ownerId: number, lowerName: string): Promise<NpmPackageRows | null> {
    const [rows, tags] = await Promise.all([
      this.client.$queryRaw<RawVersionRow[]>`
        SELECT p."id" AS "packageId", p."name" AS "name", v."id" AS "versionId", v."version" AS "version",
               v."metadataJson" AS "metadataJson", v."createdAt" AS "createdAt", f."name" AS "fileName",
               b."size" AS "size", b."hashSha1" AS "sha1", b."hashSha512" AS "sha512"
        FROM "Package" p
        JOIN "PackageVersion" v ON v."packageId" = p."id"
        JOIN "PackageFile" f ON f."versionId" = v."id"
        JOIN "PackageBlob" b ON b."id" = f."blobId"
        WHERE p."ownerId" = ${ownerId} AND p."type" = ${NPM} AND p."lowerName" = ${lowerName}
          AND p."isInternal" = FALSE AND v."isInternal" = FALSE
        ORDER BY v."id"`,
      this.client.packageTag.findMany({
        where: { package: { ownerId, type: NPM, lowerName } },
        select: { name: true, updatedAt: true, version: { select: { version: true } } },
        orderBy: { name: 'asc' },
      }),
    ]);
    if (rows.length === 0) return null;
    return {
      packageId: Number(rows[0].packageId),
      name: rows[0].name,
      versions: rows.map((row) => ({
        versionId: Number(row.versionId),
        version: row.version,
        metadataJson: row.metadataJson,
        createdAt: asDate(row.createdAt),
        fileName: row.fileName,
        size: Number(row.size),
        sha1: row.sha1,
        sha512: row.sha512,
      })),
      tags: tags.map((tag) => ({ name: tag.name, version: tag.version.version, updatedAt: tag.updatedAt })),
    };
  }

  /** Points the tag at the version, moving it when it exists. */
  async setTag(packageId: number, name: string, versionId: number): Promise<void> {
    await setTag(this.client, packageId, name, versionId);
    await touchPackage(this.client, packageId);
  }

  /** Answers whether the tag existed. */
  async deleteTag(packageId: number, name: string): Promise<boolean> {
    const deleted = (await this.client.packageTag.deleteMany({ where: { packageId, name } })).count > 0;
    if (deleted) await touchPackage(this.client, packageId);
    return deleted;
  }

  async updateMetadata(packageId: number, versionId: number, metadataJson: string): Promise<void> {
    await this.client.packageVersion.update({ where: { id: versionId }, data: { metadataJson } });
    await touchPackage(this.client, packageId);
  }

  /** A version's tarball by its names, for a download. */
  tarball(ownerId: number, name: string, version: string, fileName: string): Promise<PackageFileDownload | null> {
    return this.hot.packageFile({
      ownerId,
      type: NPM,
      lowerName: name.toLowerCase(),
      lowerVersion: version.toLowerCase(),
      lowerFileName: fileName.toLowerCase(),
    });
  }

  /** The package's id and revision, to tell whether a cached document is current; null when there is none. */
  revisionOf(ownerId: number, lowerName: string): Promise<{ id: number; revision: number } | null> {
    return this.hot.packageRevision(ownerId, NPM, lowerName);
  }

  /** The owner's npm packages whose name holds the text, by name, with their `latest` version. */
  async search(ownerId: number, text: string, page: ListOptions): Promise<Page<NpmSearchRow>> {
    const where: Prisma.PackageWhereInput = {
      ownerId,
      type: NPM,
      isInternal: false,
      ...(text === '' ? {} : { lowerName: { contains: text.toLowerCase() } }),
      versions: { some: { isInternal: false } },
    };
    const [items, total] = await Promise.all([
      this.client.package.findMany({
        where,
        include: { tags: { where: { name: 'latest' }, include: { version: true } } },
        orderBy: { lowerName: 'asc' },
        skip: page.skip,
        take: page.limit,
      }),
      this.client.package.count({ where }),
    ]);
    return { items, total };
  }
}
