// Package blobs: the stored files that package versions refer to. A blob's row and its bytes are shared by every
// file with the same content, whoever owns it; the hash lock below orders the uploads that add a reference with
// the removals that find none, so bytes are never removed under a file committed meanwhile.
import type { BlobDigests } from '../infra/storage/blob-store.ts';
import type { DbClient } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

/** The first key of PostgreSQL advisory locks on a blob hash (1 is organization memberships). */
const BLOB_HASH_LOCK = 2;

/**
 * Inside a transaction: waits for and holds the locks of these hashes until it ends (in one order, so two holders
 * cannot deadlock). SQLite runs one write transaction at a time anyway.
 */
type Provider = DatabaseTarget['provider'];

export async function lockBlobHashes(client: DbClient, provider: Provider, hashes: readonly string[]): Promise<void> {
  if (provider !== 'postgresql') return;
  for (const hash of [...new Set(hashes)].sort()) {
    await client.$executeRaw`SELECT pg_advisory_xact_lock(${BLOB_HASH_LOCK}::int, hashtext(${hash}))`;
  }
}

/**
 * Inside a transaction, after files were deleted: deletes the rows of those blobs no file refers to any more and
 * answers their hashes. Each is checked again once its hash is locked, after any upload that held it committed.
 */
export async function deleteOrphanBlobRows(
  client: DbClient,
  provider: Provider,
  blobIds: readonly number[],
): Promise<string[]> {
  if (blobIds.length === 0) return [];
  const ids = [...new Set(blobIds)];
  const candidates = await client.packageBlob.findMany({ where: { id: { in: ids } }, select: { hashSha256: true } });
  await lockBlobHashes(
    client,
    provider,
    candidates.map((blob) => blob.hashSha256),
  );
  const orphans = await client.packageBlob.findMany({
    where: { id: { in: ids }, files: { none: {} } },
    select: { id: true, hashSha256: true },
  });
  await client.packageBlob.deleteMany({ where: { id: { in: orphans.map((blob) => blob.id) }, files: { none: {} } } });
  return orphans.map((blob) => blob.hashSha256);
}

export class PackageBlobRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: Provider,
  ) {}

  lockHashes(hashes: readonly string[]): Promise<void> {
    return lockBlobHashes(this.client, this.provider, hashes);
  }

  async rowExists(hash: string): Promise<boolean> {
    return (await this.client.packageBlob.count({ where: { hashSha256: hash } })) > 0;
  }

  /** The hashes of blobs some digest of which is still to be computed (an upload computed only what it checks). */
  async withDigestsMissing(hashes: readonly string[]): Promise<string[]> {
    const rows = await this.client.packageBlob.findMany({
      where: { hashSha256: { in: [...hashes] }, OR: [{ hashMd5: '' }, { hashSha1: '' }, { hashSha512: '' }] },
      select: { hashSha256: true },
    });
    return rows.map((row) => row.hashSha256);
  }

  async completeDigests(digests: BlobDigests): Promise<void> {
    await this.client.packageBlob.updateMany({
      where: { hashSha256: digests.sha256 },
      data: { hashMd5: digests.md5, hashSha1: digests.sha1, hashSha512: digests.sha512 },
    });
  }

  listUnreferencedBefore(cutoff: Date) {
    return this.client.packageBlob.findMany({
      where: { files: { none: {} }, createdAt: { lt: cutoff } },
      select: { id: true, hashSha256: true },
    });
  }

  /** Deletes those of the blobs that are still unreferenced; answers their hashes. Run it in a transaction. */
  deleteUnreferenced(ids: number[]): Promise<string[]> {
    return deleteOrphanBlobRows(this.client, this.provider, ids);
  }
}
