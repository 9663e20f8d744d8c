// The files an owner has: its repository folder and its uploaded avatar. Deleting an owner removes them,
// whichever service deletes it (users purge, organization delete).
import type { User } from '../db/entities.ts';
import type { ServiceDeps } from './service-deps.ts';

export type DeletedOwner = Pick<User, 'lowerName' | 'avatar'>;

export class OwnerStorageService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Removes the repository folders and avatars of deleted owners; a failure is logged, the deletion already happened. */
  async ownersDeleted(owners: readonly DeletedOwner[]): Promise<void> {
    const { repositories, avatars } = this.deps.stores;
    const failed = (what: string, owner: string) => (error: unknown) =>
      this.deps.log.error({ err: error, owner }, `removing ${what} failed`);
    await Promise.all(
      owners.flatMap((owner) => [
        repositories.removeOwner(owner.lowerName).catch(failed('an owner folder', owner.lowerName)),
        owner.avatar ? avatars.remove(owner.avatar).catch(failed('an avatar', owner.lowerName)) : Promise.resolve(),
      ]),
    );
  }
}
