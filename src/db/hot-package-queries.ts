// The package lookups a download or an index document makes on every request, for the prepared statements of
// hot-queries.ts: SQL both databases run, and the row as either returns it.

/** A package file named by its owner, type, package, version and file name (lower case). */
export interface PackageFileKey {
  ownerId: number;
  type: string;
  lowerName: string;
  lowerVersion: string;
  lowerFileName: string;
}

/** What a download of a package file needs. */
export interface PackageFileDownload {
  versionId: number;
  name: string;
  createdAt: Date;
  size: number;
  sha256: string;
}

export const PACKAGE_REVISION_SQL = `SELECT "id", "revision" FROM "Package"
  WHERE "ownerId" = $1 AND "type" = $2 AND "lowerName" = $3`;
/** The owner's packages of a type: their count, newest id and summed revisions change with any of their versions. */
export const OWNER_PACKAGES_REVISION_SQL = `SELECT COUNT(*) AS "packages", MAX("id") AS "newest",
  SUM("revision") AS "revisions" FROM "Package" WHERE "ownerId" = $1 AND "type" = $2 AND "isInternal" = FALSE`;
/** Either database's row as one token (PostgreSQL answers the aggregates as strings). */
export function ownerPackagesRevision(row: Record<string, unknown> | undefined): string {
  return `${Number(row?.packages ?? 0)}:${Number(row?.newest ?? 0)}:${Number(row?.revisions ?? 0)}`;
}
export const PACKAGE_FILE_SQL = `SELECT f."versionId", f."name", f."createdAt", b."size", b."hashSha256" AS "sha256"
  FROM "PackageFile" f
  JOIN "PackageVersion" v ON v."id" = f."versionId"
  JOIN "Package" p ON p."id" = v."packageId"
  JOIN "PackageBlob" b ON b."id" = f."blobId"
  WHERE p."ownerId" = $1 AND p."type" = $2 AND p."lowerName" = $3 AND p."isInternal" = FALSE
    AND v."lowerVersion" = $4 AND v."isInternal" = FALSE AND f."lowerName" = $5 AND f."compositeKey" = ''`;
export const packageFileValues = (key: PackageFileKey) => [
  key.ownerId,
  key.type,
  key.lowerName,
  key.lowerVersion,
  key.lowerFileName,
];
/** Either database's row: SQLite's dates are text, PostgreSQL's BIGINT sizes strings. */
export function packageFileDownload(row: Record<string, unknown>): PackageFileDownload {
  return {
    versionId: Number(row.versionId),
    name: String(row.name),
    createdAt: row.createdAt instanceof Date ? row.createdAt : new Date(row.createdAt as string),
    size: Number(row.size),
    sha256: String(row.sha256),
  };
}
