// Named facts about a package's versions, files or the package itself (Forgejo: models/packages/package_property),
// for what a registry's index selects on: a Debian file's distribution, component and architecture, say. A
// property has no foreign key (it may name any of the three), so whoever deletes those rows deletes these with them.
import type { DbClient } from './prisma.ts';

export const PROPERTY_OF = { version: 0, file: 1, package: 2 } as const;
export type PropertyOf = keyof typeof PROPERTY_OF;

export interface PropertyOwners {
  versionIds?: number[];
  fileIds?: number[];
  packageIds?: number[];
}

export class PackagePropertyRepository {
  constructor(private readonly client: DbClient) {}

  add(of: PropertyOf, refId: number, properties: Record<string, string>): Promise<void> {
    return addProperties(this.client, of, refId, properties);
  }

  /** Every property of these rows, as name → value (the last one wins when a name repeats). */
  async of(of: PropertyOf, refIds: number[]): Promise<Map<number, Record<string, string>>> {
    const rows = await this.client.packageProperty.findMany({
      where: { refType: PROPERTY_OF[of], refId: { in: refIds } },
      orderBy: { id: 'asc' },
    });
    const byRef = new Map<number, Record<string, string>>();
    for (const row of rows) byRef.set(row.refId, { ...byRef.get(row.refId), [row.name]: row.value });
    return byRef;
  }

  /** The ids of the rows that have this property with this value. */
  async refsWith(of: PropertyOf, name: string, value: string): Promise<number[]> {
    const rows = await this.client.packageProperty.findMany({
      where: { refType: PROPERTY_OF[of], name, value },
      select: { refId: true },
    });
    return rows.map((row) => row.refId);
  }

  async deleteOf(owners: PropertyOwners): Promise<void> {
    await deletePropertiesOf(this.client, owners);
  }
}

/** Adds properties to a version, file or package. */
export async function addProperties(
  client: DbClient,
  of: PropertyOf,
  refId: number,
  properties: Record<string, string>,
): Promise<void> {
  const data = Object.entries(properties).map(([name, value]) => ({ refType: PROPERTY_OF[of], refId, name, value }));
  if (data.length > 0) await client.packageProperty.createMany({ data });
}

/** Deletes the properties of these versions, files and packages. */
export async function deletePropertiesOf(client: DbClient, owners: PropertyOwners): Promise<void> {
  const or = (
    [
      ['version', owners.versionIds],
      ['file', owners.fileIds],
      ['package', owners.packageIds],
    ] as const
  )
    .filter(([, ids]) => ids && ids.length > 0)
    .map(([of, ids]) => ({ refType: PROPERTY_OF[of], refId: { in: ids! } }));
  if (or.length > 0) await client.packageProperty.deleteMany({ where: { OR: or } });
}
