// The file stores services keep their files in, built once from the settings.
import type { Settings } from '../../config/settings.ts';
import { RepositoryStore } from '../git/repository-store.ts';
import { type AvatarStore, LocalAvatarStore } from './avatar-store.ts';
import type * as S3AvatarStoreModule from './s3-avatar-store.ts';
import type * as S3ClientModule from './s3-client.ts';
import type { StorageSettings } from '../../config/storage.ts';

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
    case 'minio': {
      // The S3 client is loaded only by instances that use object storage.
      const { S3AvatarStore } = require('./s3-avatar-store.ts') as typeof S3AvatarStoreModule;
      const { createS3Client } = require('./s3-client.ts') as typeof S3ClientModule;
      return new S3AvatarStore(createS3Client(settings), settings.bucket, settings.basePath);
    }
  }
}
