// The package part of an owner's quota: blob bytes of the package versions the owner owns directly or through an
// owned repository (Forgejo: models/quota/used.go, "packages"). A blob shared by two files counts for each, as
// each file is what its owner stored.
import type { ListOptions, Page } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export interface UsedPackage {
  name: string;
  type: string;
  version: string;
  size: number;
  /** Path of the version's page below the root URL: `{owner}/-/packages/{type}/{name}/{version}`. */
  htmlPath: string;
}

/**
 * A file's bytes. Prisma reads files and their blobs in separate statements, so a file whose blob was removed in
 * between (its last reference deleted meanwhile) comes without one: it counts nothing.
 */
function sizeOf(file: { blob: { size: bigint } | null }): number {
  return file.blob ? Number(file.blob.size) : 0;
}

export class PackageUsageRepository {
  constructor(private readonly client: DbClient) {}

  private async ownedPackages(ownerId: number): Promise<Prisma.PackageWhereInput> {
    const repos = await this.client.repository.findMany({ where: { ownerId }, select: { id: true } });
    return { OR: [{ ownerId }, ...(repos.length > 0 ? [{ repoId: { in: repos.map((repo) => repo.id) } }] : [])] };
  }

  async totalBytes(ownerId: number): Promise<number> {
    const files = await this.client.packageFile.findMany({
      where: { version: { package: await this.ownedPackages(ownerId) } },
      select: { blob: { select: { size: true } } },
    });
    return files.reduce((sum, file) => sum + sizeOf(file), 0);
  }

  /** The owner's package versions, largest first. */
  async list(ownerId: number, page: ListOptions): Promise<Page<UsedPackage>> {
    const [owner, versions] = await Promise.all([
      this.client.user.findUnique({ where: { id: ownerId }, select: { name: true } }),
      this.client.packageVersion.findMany({
        where: { package: await this.ownedPackages(ownerId) },
        select: {
          version: true,
          package: { select: { name: true, type: true } },
          files: { select: { blob: { select: { size: true } } } },
        },
      }),
    ]);
    const sized = versions
      .map((v) => ({ v, size: v.files.reduce((sum, file) => sum + sizeOf(file), 0) }))
      .sort((a, b) => b.size - a.size || a.v.package.name.localeCompare(b.v.package.name));
    const items = sized.slice(page.skip, page.skip + page.limit).map(({ v, size }) => ({
      name: v.package.name,
      type: v.package.type,
      version: v.version,
      size,
      htmlPath: `${owner?.name ?? ''}/-/packages/${v.package.type}/${v.package.name}/${v.version}`,
    }));
    return { items, total: sized.length };
  }
}
