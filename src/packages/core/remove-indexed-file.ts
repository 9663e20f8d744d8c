// A file of a signed system-package repository removed: its version too when it was the last file (announced to the
// owner's hooks as a deleted package), the scope's index rebuild enqueued in the same transaction, and the bytes no
// row refers to any more removed after it.
import type { User } from '../../db/entities.ts';
import type { PackageFileRow, PackageVersionRow } from '../../db/package.repository.ts';
import type { IndexScopeKey } from '../../db/repository-index.repository.ts';
import type { HookEventsService } from '../../services/hook-events.service.ts';
import type { ServiceDeps } from '../../services/service-deps.ts';
import { removeUnreferencedBlobs } from './remove-blobs.ts';
import type { PackageIndexes } from './repository-index.ts';

export interface IndexedFileRemoval {
  doer: User;
  owner: User;
  version: PackageVersionRow;
  file: PackageFileRow;
  /** The index the file is listed in. */
  index: IndexScopeKey;
}

export async function removeIndexedFile(
  deps: ServiceDeps,
  services: { indexes: PackageIndexes; hookEvents: HookEventsService },
  { doer, owner, version, file, index }: IndexedFileRemoval,
): Promise<void> {
  const orphans = await deps.transactions.run(async (repos) => {
    await services.indexes.enqueue(repos, index);
    if ((await repos.packages.countFiles(version.id)) > 1) return repos.packages.deleteFile(file);
    await services.hookEvents.package(repos, {
      owner,
      sender: doer,
      action: 'deleted',
      package: { version, owner, creator: doer, repository: null },
    });
    return repos.packages.deleteVersion(version);
  });
  await removeUnreferencedBlobs(deps, orphans);
}
