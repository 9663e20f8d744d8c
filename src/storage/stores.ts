// The file stores services keep their files in, built once from the settings.
import path from 'node:path';
import type { Settings } from '../config.ts';
import { RepositoryStore } from '../git/repository-store.ts';
import { type AvatarStore, LocalAvatarStore } from './avatar-store.ts';

export interface Stores {
  readonly avatars: AvatarStore;
  readonly repositories: RepositoryStore;
}

export function createStores(settings: Settings): Stores {
  return {
    avatars: new LocalAvatarStore(path.join(settings.server.APP_DATA_PATH, 'avatars')),
    repositories: new RepositoryStore(settings.repository.ROOT),
  };
}
