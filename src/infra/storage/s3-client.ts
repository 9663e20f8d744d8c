// One S3 client per store, from Forgejo's MINIO_* keys. Any S3 API will do (MinIO, Garage, Ceph RGW, AWS S3, R2):
// addressing is path style (bucket in the path, as MinIO and self-hosted servers need), and checksums are sent and
// checked only where the protocol requires them, since several of those servers refuse the newer default ones.
import { NoSuchKey, NotFound, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { MinioStorageSettings } from '../../config/storage.ts';

export function createS3Client(settings: MinioStorageSettings): S3Client {
  return new S3Client({
    endpoint: `${settings.useSsl ? 'https' : 'http'}://${settings.endpoint}`,
    region: settings.location,
    forcePathStyle: true,
    // Without keys the SDK's own chain applies (AWS_ACCESS_KEY_ID…, instance roles), as minio-go does for Forgejo.
    ...(settings.accessKeyId
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // An unreachable store fails the request soon instead of holding it.
    requestHandler: { connectionTimeout: 5000 },
  });
}

/** A missing object: GET answers NoSuchKey, HEAD a bare 404. */
export function isMissingObject(error: unknown): boolean {
  return (
    error instanceof NoSuchKey ||
    error instanceof NotFound ||
    (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404)
  );
}
