// The stored index documents of a system-package repository (a Debian distribution, an RPM group, an Alpine branch…):
// the files of an internal version of an internal package per owner and type, one version per scope. A rebuild
// swaps the whole set in one transaction; the set it replaces is kept as the previous generation, so a client that
// read a Release just before the swap still finds the files it names by their hashes.
import type { BlobDigests } from '../infra/storage/blob-store.ts';
import { deleteOrphanBlobRows } from './package-blob.repository.ts';
import { upsertBlobRow } from './package.repository.ts';
import type { DbClient } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

/** The internal package holding a type's indexes; `~` is in no package name any system-package format allows. */
export const INDEX_PACKAGE_NAME = '~repository-index';

const CURRENT = 'current';
const PREVIOUS = 'previous';

export interface IndexScopeKey {
  ownerId: number;
  type: string;
  /** The distribution, group, branch or repository the set serves; compared case-insensitively. */
  scope: string;
}

export type IndexHash = 'md5' | 'sha1' | 'sha256' | 'sha512';

const HASH_COLUMNS = { md5: 'hashMd5', sha1: 'hashSha1', sha256: 'hashSha256', sha512: 'hashSha512' } as const;

export interface StoredIndexFile {
  name: string;
  createdAt: Date;
  blob: { size: bigint; hashSha256: string };
}

export interface IndexFileToStore {
  name: string;
  blob: BlobDigests;
}

function parseGeneration(metadataJson: string): number {
  try {
    const parsed = JSON.parse(metadataJson) as { generation?: unknown };
    return typeof parsed.generation === 'number' ? parsed.generation : 0;
  } catch {
    return 0;
  }
}

export class RepositoryIndexRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
  ) {}

  private versionWhere(key: IndexScopeKey) {
    return {
      lowerVersion: key.scope.toLowerCase(),
      package: { ownerId: key.ownerId, type: key.type, lowerName: INDEX_PACKAGE_NAME, isInternal: true },
    };
  }

  /** The number of the set stored now (0: none yet); a swap names the one its build started from. */
  async generation(key: IndexScopeKey): Promise<number> {
    const version = await this.client.packageVersion.findFirst({
      where: this.versionWhere(key),
      select: { metadataJson: true },
    });
    return version ? parseGeneration(version.metadataJson) : 0;
  }

  /**
   * Replaces the set with `files` if the stored set is still generation `from`; the current set becomes the
   * previous one and the previous one goes. Answers false, changing nothing, when another build swapped meanwhile;
   * else the hashes of blobs no file refers to any more (their rows are gone). Run it in a transaction.
   */
  async swap(key: IndexScopeKey, from: number, files: readonly IndexFileToStore[]): Promise<string[] | false> {
    const version = await this.scopeVersion(key);
    if (parseGeneration(version.metadataJson) !== from) return false;
    const claimed = await this.client.packageVersion.updateMany({
      where: { id: version.id, metadataJson: version.metadataJson },
      data: { metadataJson: JSON.stringify({ generation: from + 1 }) },
    });
    if (claimed.count !== 1) return false;
    const dropped = await this.client.packageFile.findMany({
      where: { versionId: version.id, compositeKey: PREVIOUS },
      select: { id: true, blobId: true },
    });
    await this.client.packageFile.deleteMany({ where: { id: { in: dropped.map((file) => file.id) } } });
    await this.client.packageFile.updateMany({
      where: { versionId: version.id, compositeKey: CURRENT },
      data: { compositeKey: PREVIOUS },
    });
    for (const file of files) {
      const blob = await upsertBlobRow(this.client, file.blob);
      await this.client.packageFile.create({
        data: {
          versionId: version.id,
          blobId: blob.id,
          name: file.name,
          lowerName: file.name.toLowerCase(),
          compositeKey: CURRENT,
        },
      });
    }
    return deleteOrphanBlobRows(
      this.client,
      this.provider,
      dropped.map((file) => file.blobId),
    );
  }

  /** The scope's internal version (and its package), created when new. */
  private async scopeVersion(key: IndexScopeKey) {
    const lowerVersion = key.scope.toLowerCase();
    const pkg = await this.client.package.upsert({
      where: {
        ownerId_type_lowerName: { ownerId: key.ownerId, type: key.type, lowerName: INDEX_PACKAGE_NAME },
      },
      create: {
        ownerId: key.ownerId,
        type: key.type,
        name: INDEX_PACKAGE_NAME,
        lowerName: INDEX_PACKAGE_NAME,
        isInternal: true,
      },
      update: {},
    });
    return this.client.packageVersion.upsert({
      where: { packageId_lowerVersion: { packageId: pkg.id, lowerVersion } },
      create: {
        packageId: pkg.id,
        version: key.scope,
        lowerVersion,
        isInternal: true,
        metadataJson: JSON.stringify({ generation: 0 }),
      },
      update: {},
      select: { id: true, metadataJson: true },
    });
  }

  /** A file of the current set by name (names compare case-sensitively, as clients ask for them). */
  async currentFile(key: IndexScopeKey, name: string): Promise<StoredIndexFile | null> {
    const file = await this.client.packageFile.findFirst({
      where: { lowerName: name.toLowerCase(), compositeKey: CURRENT, version: this.versionWhere(key) },
      select: { name: true, createdAt: true, blob: { select: { size: true, hashSha256: true } } },
    });
    return file && file.name === name ? file : null;
  }

  /** A file of the current or the previous set with these bytes (apt's by-hash requests). */
  findByHash(key: IndexScopeKey, algorithm: IndexHash, hash: string): Promise<StoredIndexFile | null> {
    const column = HASH_COLUMNS[algorithm];
    return this.client.packageFile.findFirst({
      where: { version: this.versionWhere(key), blob: { [column]: hash.toLowerCase() } },
      select: { name: true, createdAt: true, blob: { select: { size: true, hashSha256: true } } },
      orderBy: { id: 'desc' },
    });
  }

  /** The names of the current set. */
  async currentNames(key: IndexScopeKey): Promise<string[]> {
    const files = await this.client.packageFile.findMany({
      where: { compositeKey: CURRENT, version: this.versionWhere(key) },
      select: { name: true },
      orderBy: { id: 'asc' },
    });
    return files.map((file) => file.name);
  }
}
