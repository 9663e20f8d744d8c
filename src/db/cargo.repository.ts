// What the Cargo registry reads and changes beyond the package core's rows: a crate's versions with their crate
// file's digest and yanked flag in one query for its index file, the yanked flag itself (a version property, as
// Forgejo keeps it), downloads, and the search.
import type { ListOptions, Page } from '../domain/page.ts';
import type { HotQueries, PackageFileDownload } from './hot-queries.ts';
import { PROPERTY_OF } from './package-property.repository.ts';
import { touchPackage } from './package.repository.ts';
import type { DbClient } from './prisma.ts';

const CARGO = 'cargo';
/** Forgejo's property name (modules/packages/cargo: PropertyYanked). */
export const YANKED_PROPERTY = 'cargo.yanked';

export interface CargoVersionRow {
  versionId: number;
  version: string;
  metadataJson: string;
  sha256: string;
  yanked: boolean;
}

export interface CargoCrateRows {
  packageId: number;
  name: string;
  versions: CargoVersionRow[];
}

export interface CargoSearchRow {
  name: string;
  versions: { version: string; metadataJson: string }[];
}

interface RawRow {
  packageId: number | bigint;
  name: string;
  versionId: number | bigint;
  version: string;
  metadataJson: string;
  sha256: string;
  yanked: string | null;
}

export class CargoRepository {
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /** The crate with its public versions in publish order; null when it has none. */
  async crateRows(ownerId: number, lowerName: string): Promise<CargoCrateRows | null> {
    const rows = await this.client.$queryRaw<RawRow[]>`
      SELECT p."id" AS "packageId", p."name" AS "name", v."id" AS "versionId", v."version" AS "version",
             v."metadataJson" AS "metadataJson", b."hashSha256" AS "sha256", pp."value" AS "yanked"
      FROM "Package" p
      JOIN "PackageVersion" v ON v."packageId" = p."id"
      JOIN "PackageFile" f ON f."versionId" = v."id" AND f."isLead" = ${true}
      JOIN "PackageBlob" b ON b."id" = f."blobId"
      LEFT JOIN "PackageProperty" pp ON pp."refType" = ${PROPERTY_OF.version} AND pp."refId" = v."id"
        AND pp."name" = ${YANKED_PROPERTY}
      WHERE p."ownerId" = ${ownerId} AND p."type" = ${CARGO} AND p."lowerName" = ${lowerName}
        AND p."isInternal" = ${false} AND v."isInternal" = ${false}
      ORDER BY v."id"`;
    if (rows.length === 0) return null;
    return {
      packageId: Number(rows[0].packageId),
      name: rows[0].name,
      versions: rows.map((row) => ({
        versionId: Number(row.versionId),
        version: row.version,
        metadataJson: row.metadataJson,
        sha256: row.sha256,
        yanked: row.yanked === 'true',
      })),
    };
  }

  /** The crate's id and revision, to tell whether a kept index file is current; null when there is none. */
  revisionOf(ownerId: number, lowerName: string): Promise<{ id: number; revision: number } | null> {
    return this.hot.packageRevision(ownerId, CARGO, lowerName);
  }

  /** Sets the version's yanked flag and marks the crate changed; run it in a transaction. */
  async setYanked(packageId: number, versionId: number, yanked: boolean): Promise<void> {
    const where = { refType: PROPERTY_OF.version, refId: versionId, name: YANKED_PROPERTY };
    const value = String(yanked);
    const { count } = await this.client.packageProperty.updateMany({ where, data: { value } });
    if (count === 0) await this.client.packageProperty.create({ data: { ...where, value } });
    await touchPackage(this.client, packageId);
  }

  /** A version's crate file by its names, for a download. */
  crateFile(ownerId: number, lowerName: string, lowerVersion: string): Promise<PackageFileDownload | null> {
    return this.hot.packageFile({
      ownerId,
      type: CARGO,
      lowerName,
      lowerVersion,
      lowerFileName: `${lowerName}-${lowerVersion}.crate`,
    });
  }

  /** The owner's crates whose name holds the text, by name, each with its public versions. */
  async search(ownerId: number, text: string, page: ListOptions): Promise<Page<CargoSearchRow>> {
    const where = {
      ownerId,
      type: CARGO,
      isInternal: false,
      ...(text === '' ? {} : { lowerName: { contains: text.toLowerCase() } }),
      versions: { some: { isInternal: false } },
    };
    const [items, total] = await Promise.all([
      this.client.package.findMany({
        where,
        select: {
          name: true,
          versions: { where: { isInternal: false }, select: { version: true, metadataJson: true } },
        },
        orderBy: { lowerName: 'asc' },
        skip: page.skip,
        take: page.limit,
      }),
      this.client.package.count({ where }),
    ]);
    return { items, total };
  }
}
