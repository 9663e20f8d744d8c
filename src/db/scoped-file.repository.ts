// The files a system-package index lists: every file of an owner's packages of one type whose file property (a
// Debian distribution, an Alpine branch and repository…) has a value, with its stored digests and all its
// properties, in two queries whatever their number.
import { PROPERTY_OF } from './package-property.repository.ts';
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
    const properties = await this.propertiesOf(rows.map((row) => Number(row.fileId)));
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

  private async propertiesOf(fileIds: number[]): Promise<Map<number, Record<string, string>>> {
    const byFile = new Map<number, Record<string, string>>();
    // In slices: SQLite bounds the number of parameters of one statement.
    for (let i = 0; i < fileIds.length; i += 5000) {
      const rows = await this.client.packageProperty.findMany({
        where: { refType: PROPERTY_OF.file, refId: { in: fileIds.slice(i, i + 5000) } },
        select: { refId: true, name: true, value: true },
        orderBy: { id: 'asc' },
      });
      for (const row of rows) byFile.set(row.refId, { ...byFile.get(row.refId), [row.name]: row.value });
    }
    return byFile;
  }
}
