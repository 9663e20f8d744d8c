// The blob store the settings name: a local directory (the default) or an S3 bucket, its transfers counted.
import type { StorageSettings } from '../../config/storage.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalBlobStore } from './local-blob-store.ts';
import { TransferCountingBlobStore } from './transfer-activity.ts';
import type * as S3BlobStoreModule from './s3-blob-store.ts';
import type * as S3ClientModule from './s3-client.ts';

export function createBlobStore(settings: StorageSettings): BlobStore {
  return new TransferCountingBlobStore(storeOf(settings));
}

function storeOf(settings: StorageSettings): BlobStore {
  switch (settings.type) {
    case 'local':
      return new LocalBlobStore(settings.path);
    case 'minio': {
      // The S3 client is loaded only by instances that use object storage.
      const { S3BlobStore } = require('./s3-blob-store.ts') as typeof S3BlobStoreModule;
      const { createS3Client } = require('./s3-client.ts') as typeof S3ClientModule;
      return new S3BlobStore(createS3Client(settings), settings.bucket, settings.basePath);
    }
  }
}
