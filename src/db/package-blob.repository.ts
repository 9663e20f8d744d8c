// Package blobs: the stored files that package versions refer to.
import type { DbClient } from './prisma.ts';

export class PackageBlobRepository {
  constructor(private readonly client: DbClient) {}

  listUnreferencedBefore(cutoff: Date) {
    return this.client.packageBlob.findMany({ where: { files: { none: {} }, createdAt: { lt: cutoff } }, select: { id: true, hashSha256: true } });
  }

  /** Deletes those of the blobs that are still unreferenced. */
  deleteUnreferenced(ids: number[]) {
    return this.client.packageBlob.deleteMany({ where: { id: { in: ids }, files: { none: {} } } });
  }
}
