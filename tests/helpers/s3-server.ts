// An S3-compatible server on loopback for tests (the npm package s3rver: the S3 protocol over a temporary directory),
// started on a free port with one empty bucket. Its keys are s3rver's built-in account.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';

export interface S3TestServer {
  /** host:port, as MINIO_ENDPOINT takes it (plain HTTP: MINIO_USE_SSL = false). */
  readonly endpoint: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  /** Settings that put every subsystem in the bucket, as ANVIL__section__KEY variables. */
  env(basePath?: string): Record<string, string>;
  /** Keys of the objects in the bucket, under a prefix. */
  keys(prefix?: string): Promise<string[]>;
  /** A client of the server, for tests that look into the bucket. */
  readonly client: S3Client;
  stop(): Promise<void>;
}

interface S3rverInstance {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

// s3rver's built-in account; it checks request signatures against it.
const ACCESS_KEY = 'S3RVER';
const SECRET_KEY = 'S3RVER';

function loadS3rver(): S3rverClass | string {
  try {
    return require('s3rver') as S3rverClass;
  } catch (error) {
    return `s3rver cannot be loaded (${(error as Error).message.split('\n')[0]}); npm install`;
  }
}

/** Why no S3 server can be started here, or null when one can. */
export function s3ServerUnavailable(): string | null {
  const loaded = loadS3rver();
  return typeof loaded === 'string' ? loaded : null;
}

export async function startS3Server(bucket = 'anvil-test'): Promise<S3TestServer> {
  const S3rver = loadS3rver();
  if (typeof S3rver === 'string') throw new Error(S3rver);
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'anvil-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint: `http://${endpoint}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: ACCESS_KEY, secretAccessKey: SECRET_KEY },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    accessKey: ACCESS_KEY,
    secretKey: SECRET_KEY,
    bucket,
    client,
    env: (basePath) => ({
      ANVIL__storage__STORAGE_TYPE: 'minio',
      ANVIL__storage__MINIO_ENDPOINT: endpoint,
      ANVIL__storage__MINIO_ACCESS_KEY_ID: ACCESS_KEY,
      ANVIL__storage__MINIO_SECRET_ACCESS_KEY: SECRET_KEY,
      ANVIL__storage__MINIO_BUCKET: bucket,
      ANVIL__storage__MINIO_USE_SSL: 'false',
      ...(basePath === undefined ? {} : { ANVIL__storage__MINIO_BASE_PATH: basePath }),
    }),
    async keys(prefix = '') {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(page.Contents ?? []).map((object) => object.Key!));
        token = page.NextContinuationToken;
      } while (token);
      return keys.sort();
    },
    async stop() {
      client.destroy();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
