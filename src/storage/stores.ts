// The file stores services keep their files in, built once from the settings.
import type { Settings } from '../config.ts';
import { RepositoryStore } from '../git/repository-store.ts';
import { type AvatarStore, LocalAvatarStore } from './avatar-store.ts';
import { S3AvatarStore } from './s3-avatar-store.ts';
import { createS3Client } from './s3-client.ts';
import type { StorageSettings } from './storage-settings.ts';

export interface Stores {
  readonly avatars: AvatarStore;
  readonly repositories: RepositoryStore;
}

export function createStores(settings: Settings): Stores {
  return {
    avatars: avatarStore(settings.storage.avatars),
    repositories: new RepositoryStore(settings.repository.ROOT),
  };
}

function avatarStore(settings: StorageSettings): AvatarStore {
  switch (settings.type) {
    case 'local':
      return new LocalAvatarStore(settings.path);
    case 'minio':
      return new S3AvatarStore(createS3Client(settings), settings.bucket, settings.basePath);
  }
}
