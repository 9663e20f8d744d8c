// What an owner-wide index document is built from (RubyGems' specs files, CRAN's PACKAGES): every file of every
// public version of one type, in one query, and a revision of that set — a cached document is current while the
// revision it was built at is.
import type { HotQueries } from './hot-queries.ts';
import { type DbClient, PrismaSql } from './prisma.ts';

export interface OwnerIndexedFile {
  packageName: string;
  versionId: number;
  version: string;
  metadataJson: string;
  fileName: string;
  compositeKey: string;
  size: number;
  md5: string;
  sha256: string;
}

interface FileRow extends Omit<OwnerIndexedFile, 'versionId' | 'size'> {
  versionId: number | bigint;
  size: number | bigint;
}

export class OwnerPackageIndexRepository {
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /**
   * Changes with every version added or removed and every change of a package (Package.revision counts them), so
   * a document built at one revision is current while it is the same; a prepared statement, read on every request.
   */
  revision(ownerId: number, type: string): Promise<string> {
    return this.hot.ownerPackagesRevision(ownerId, type);
  }

  /** Every file of the owner's public versions of the type (of the named packages only, when given). */
  async listFiles(ownerId: number, type: string, lowerNames?: readonly string[]): Promise<OwnerIndexedFile[]> {
    if (lowerNames?.length === 0) return [];
    const rows = await this.client.$queryRaw<FileRow[]>`
      SELECT p."name" AS "packageName", v."id" AS "versionId", v."version" AS "version",
             v."metadataJson" AS "metadataJson", f."name" AS "fileName", f."compositeKey" AS "compositeKey",
             b."size" AS "size", b."hashMd5" AS "md5", b."hashSha256" AS "sha256"
      FROM "Package" p
      JOIN "PackageVersion" v ON v."packageId" = p."id"
      JOIN "PackageFile" f ON f."versionId" = v."id"
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      WHERE p."ownerId" = ${ownerId} AND p."type" = ${type} AND p."isInternal" = ${false}
        AND v."isInternal" = ${false}
        ${lowerNames === undefined ? PrismaSql.empty : PrismaSql.sql`AND p."lowerName" IN (${PrismaSql.join(lowerNames)})`}
      ORDER BY p."lowerName", v."createdAt", v."id", f."id"`;
    return rows.map((row) => ({ ...row, versionId: Number(row.versionId), size: Number(row.size) }));
  }
}
