// What a system-package repository's index is built from: every public file of an owner's packages of one type in
// one scope (the file's composite key: an RPM group, an Arch repository…) with its package, version, stored
// digests and its properties (the registry's parsed metadata…), in one query whatever their number.
import type { DbClient } from './prisma.ts';
import { PROPERTY_OF } from './package-property.repository.ts';

export interface ScopeFilesKey {
  ownerId: number;
  type: string;
  /** The files' composite key. */
  scope: string;
  /** The file property to answer with each file. */
  property: string;
}

export interface ScopeFile {
  fileId: number;
  packageName: string;
  version: string;
  fileName: string;
  fileCreatedAt: Date;
  size: number;
  md5: string;
  sha256: string;
  /** The value of the property the key named; empty when the file has none. */
  property: string;
  /** Every property of the file, by name. */
  properties: Record<string, string>;
}

interface Row {
  fileId: number | bigint;
  packageName: string;
  version: string;
  fileName: string;
  fileCreatedAt: unknown;
  size: number | bigint;
  md5: string;
  sha256: string;
  propertyName: string | null;
  propertyValue: string | null;
}

/** SQLite answers DATETIME columns of raw queries as text or epoch milliseconds, PostgreSQL as dates. */
function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  return new Date(/^\d+$/.test(text) ? Number(text) : text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

export class PackageScopeFilesRepository {
  constructor(private readonly client: DbClient) {}

  /** The scope's files, by package name, then version and file in upload order. */
  async list(key: ScopeFilesKey): Promise<ScopeFile[]> {
    // The properties are joined by file alone, one row each, and picked by name here: with the name in the join,
    // SQLite (without ANALYZE statistics) chose the (refType, name, value) index and read every property of that
    // name for each file — seconds for a thousand packages.
    const rows = await this.client.$queryRaw<Row[]>`
      SELECT f."id" AS "fileId", p."name" AS "packageName", v."version" AS "version", f."name" AS "fileName",
             f."createdAt" AS "fileCreatedAt", b."size" AS "size", b."hashMd5" AS "md5", b."hashSha256" AS "sha256",
             pp."name" AS "propertyName", pp."value" AS "propertyValue"
      FROM "Package" p
      JOIN "PackageVersion" v ON v."packageId" = p."id"
      JOIN "PackageFile" f ON f."versionId" = v."id"
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      LEFT JOIN "PackageProperty" pp ON pp."refType" = ${PROPERTY_OF.file} AND pp."refId" = f."id"
      WHERE p."ownerId" = ${key.ownerId} AND p."type" = ${key.type} AND p."isInternal" = ${false}
        AND v."isInternal" = ${false} AND f."compositeKey" = ${key.scope}
      ORDER BY p."lowerName", v."id", f."id"`;
    const files: ScopeFile[] = [];
    for (const row of rows) {
      const fileId = Number(row.fileId);
      let file = files.at(-1);
      if (file?.fileId !== fileId) {
        file = {
          fileId,
          packageName: row.packageName,
          version: row.version,
          fileName: row.fileName,
          fileCreatedAt: toDate(row.fileCreatedAt),
          size: Number(row.size),
          md5: row.md5,
          sha256: row.sha256,
          property: '',
          properties: {},
        };
        files.push(file);
      }
      if (row.propertyName === null) continue;
      file.properties[row.propertyName] = row.propertyValue ?? '';
      if (row.propertyName === key.property) file.property = row.propertyValue ?? '';
    }
    return files;
  }
}
