// The package part of an owner's quota: blob bytes of the package versions the owner owns directly or through
// an owned repository (Forgejo: models/quota/used.go, "packages"). Until the package registry stores versions,
// the owner has none.
// TODO(packages): sum PackageBlob.size over PackageFile → PackageVersion → Package where the package's ownerId
// is the owner (or its repoId is one of the owner's repositories); list versions largest first.
import type { ListOptions, Page } from '../domain/page.ts';
import type { DbClient } from './prisma.ts';

export interface UsedPackage {
  name: string;
  type: string;
  version: string;
  size: number;
  /** Path of the version's page below the root URL: `{owner}/-/packages/{type}/{name}/{version}`. */
  htmlPath: string;
}

export class PackageUsageRepository {
  // The client the real queries will use; unused until packages are stored.
  constructor(protected readonly client: DbClient) {}

  async totalBytes(_ownerId: number): Promise<number> {
    return 0;
  }

  async list(_ownerId: number, _page: ListOptions): Promise<Page<UsedPackage>> {
    return { items: [], total: 0 };
  }
}
