// The files a system-package index lists: every file of an owner's packages of one type whose file property (a
// Debian distribution, an Alpine branch and repository…) has a value, with its stored digests and all its
// properties, in two queries whatever their number.
import { PROPERTY_OF } from './package-property.repository.ts';
import type { PackageFileRow, PackageVersionRow } from './package.repository.ts';
import type { DbClient } from './prisma.ts';

export interface ScopedFile {
  fileId: number;
  fileName: string;
  packageName: string;
  version: string;
  versionId: number;
  createdAt: Date;
  size: number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
  properties: Record<string, string>;
}

interface FileRow {
  fileId: number;
  fileName: string;
  packageName: string;
  version: string;
  versionId: number;
  createdAt: unknown;
  size: bigint | number;
  md5: string;
  sha1: string;
  sha256: string;
  sha512: string;
}

function toDate(value: unknown): Date {
  if (value instanceof Date) return value;
  if (typeof value === 'number' || typeof value === 'bigint') return new Date(Number(value));
  const text = String(value);
  return new Date(/^\d+$/.test(text) ? Number(text) : text.includes('T') ? text : `${text.replace(' ', 'T')}Z`);
}

export class ScopedFileRepository {
  constructor(private readonly client: DbClient) {}

  /** The files of the owner's public packages of the type whose property `name` is `value`, by package name. */
  async filesWhere(ownerId: number, type: string, name: string, value: string): Promise<ScopedFile[]> {
    const rows = await this.client.$queryRaw<FileRow[]>`
      SELECT f."id" AS "fileId", f."name" AS "fileName", p."name" AS "packageName", v."version" AS "version",
             v."id" AS "versionId", f."createdAt" AS "createdAt", b."size" AS "size", b."hashMd5" AS "md5",
             b."hashSha1" AS "sha1", b."hashSha256" AS "sha256", b."hashSha512" AS "sha512"
      FROM "PackageProperty" pp
      JOIN "PackageFile" f ON f."id" = pp."refId"
      JOIN "PackageVersion" v ON v."id" = f."versionId"
      JOIN "Package" p ON p."id" = v."packageId"
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      WHERE pp."refType" = ${PROPERTY_OF.file} AND pp."name" = ${name} AND pp."value" = ${value}
        AND p."ownerId" = ${ownerId} AND p."type" = ${type}
        AND p."isInternal" = ${false} AND v."isInternal" = ${false}
      ORDER BY p."lowerName", v."id", f."id"`;
    const properties = await this.propertiesOf(ownerId, type, name, value);
    return rows.map((row) => ({
      fileId: Number(row.fileId),
      fileName: row.fileName,
      packageName: row.packageName,
      version: row.version,
      versionId: Number(row.versionId),
      createdAt: toDate(row.createdAt),
      size: Number(row.size),
      md5: row.md5,
      sha1: row.sha1,
      sha256: row.sha256,
      sha512: row.sha512,
      properties: properties.get(Number(row.fileId)) ?? {},
    }));
  }

  /** The owner's file of the type with this name and composite key, in a public version, with its version. */
  async fileNamed(
    ownerId: number,
    type: string,
    fileName: string,
    compositeKey: string,
  ): Promise<{ file: PackageFileRow; version: PackageVersionRow } | null> {
    const found = await this.client.packageFile.findFirst({
      where: {
        lowerName: fileName.toLowerCase(),
        compositeKey,
        version: { isInternal: false, package: { ownerId, type, isInternal: false } },
      },
      include: { blob: true, version: { include: { package: true } } },
    });
    if (!found) return null;
    const { version, ...file } = found;
    return { file, version };
  }

  /** The values of property `name` over the version's files (the scopes the version is in). */
  async valuesForVersion(versionId: number, name: string): Promise<string[]> {
    const files = await this.client.packageFile.findMany({ where: { versionId }, select: { id: true } });
    if (files.length === 0) return [];
    const rows = await this.client.packageProperty.findMany({
      where: { refType: PROPERTY_OF.file, refId: { in: files.map((file) => file.id) }, name },
      select: { value: true },
    });
    return [...new Set(rows.map((row) => row.value))];
  }

  /** Every property of the files filesWhere() selects, by file: one join, whatever their number. */
  private async propertiesOf(
    ownerId: number,
    type: string,
    name: string,
    value: string,
  ): Promise<Map<number, Record<string, string>>> {
    const rows = await this.client.$queryRaw<Array<{ refId: number; name: string; value: string }>>`
      SELECT q."refId" AS "refId", q."name" AS "name", q."value" AS "value"
      FROM "PackageProperty" pp
      JOIN "PackageProperty" q ON q."refType" = ${PROPERTY_OF.file} AND q."refId" = pp."refId"
      JOIN "PackageFile" f ON f."id" = pp."refId"
      JOIN "PackageVersion" v ON v."id" = f."versionId"
      JOIN "Package" p ON p."id" = v."packageId"
      WHERE pp."refType" = ${PROPERTY_OF.file} AND pp."name" = ${name} AND pp."value" = ${value}
        AND p."ownerId" = ${ownerId} AND p."type" = ${type}
        AND p."isInternal" = ${false} AND v."isInternal" = ${false}
      ORDER BY q."id"`;
    const byFile = new Map<number, Record<string, string>>();
    for (const row of rows) {
      const refId = Number(row.refId);
      let properties = byFile.get(refId);
      if (!properties) byFile.set(refId, (properties = {}));
      properties[row.name] = row.value;
    }
    return byFile;
  }
}
