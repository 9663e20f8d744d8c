// Removal of package bytes whose rows are gone, for every registry and for owner deletion and the cleanup task.
import type { ServiceDeps } from '../../services/service-deps.ts';

type RemovalDeps = Pick<ServiceDeps, 'transactions' | 'packageBlobs' | 'log'>;

/**
 * Removes the bytes of each blob that has no row, while its hash is locked: an upload of the same bytes either
 * committed before (its row keeps them) or publishes them again after. A removal that fails leaves bytes nothing
 * refers to, which is only wasted space. Answers how many were removed and how many failed.
 */
export async function removeUnreferencedBlobs(
  deps: RemovalDeps,
  hashes: readonly string[],
): Promise<{ removed: number; failed: number }> {
  const result = { removed: 0, failed: 0 };
  for (const hash of new Set(hashes)) {
    try {
      await deps.transactions.run(async (repos) => {
        await repos.packageBlobs.lockHashes([hash]);
        if (await repos.packageBlobs.rowExists(hash)) return;
        await deps.packageBlobs.delete(hash);
        result.removed++;
      });
    } catch (error) {
      result.failed++;
      deps.log.warn({ err: error, blob: hash }, 'removing a package blob failed');
    }
  }
  return result;
}
