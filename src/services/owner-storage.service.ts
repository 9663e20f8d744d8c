// The folders an owner has on disk. Deleting an owner removes its repository folder, whichever service
// deletes it (users purge, organization delete).
import { removeOwnerDirectory } from '../git/repository.ts';
import type { ServiceDeps } from './service-deps.ts';

export class OwnerStorageService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Removes the repository folders of deleted owners; a failure is logged, the deletion already happened. */
  async ownersDeleted(ownerNames: readonly string[]): Promise<void> {
    const root = this.deps.settings.repository.ROOT;
    await Promise.all(
      ownerNames.map((name) => removeOwnerDirectory(root, name).catch((error) => this.deps.log.error({ err: error, owner: name }, 'removing an owner folder failed'))),
    );
  }
}
