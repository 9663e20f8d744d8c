// Blobs in an S3 bucket under <base path>ab/cd/abcd…(the SHA-256), the layout of the local store and of Forgejo's.
// The key is known only after the last byte, so the bytes go to a temporary object first (multipart past one part,
// so memory stays at a few parts whatever the size) and are copied to their key inside the store when published.
// A refused or broken upload leaves no object behind.
import { randomUUID } from 'node:crypto';
import type { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type BlobStore, type ByteRange, isBlobKey, type PutOptions, type StagedBlob } from './blob-store.ts';
import { receiveDigested } from './receive-digested.ts';
import { isMissingObject } from './s3-client.ts';

export interface S3BlobStoreOptions {
  /** Bytes per part of a multipart upload (S3's minimum is 5 MiB); at most `queueSize` parts are in memory. */
  partSize?: number;
  queueSize?: number;
  /** Largest object the store copies in one request (S3 allows 5 GiB); larger ones are streamed through again. */
  maxCopyBytes?: number;
}

const MiB = 1024 ** 2;

export class S3BlobStore implements BlobStore {
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly maxCopyBytes: number;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    /** '' or a prefix ending in '/'. */
    private readonly basePath: string,
    options: S3BlobStoreOptions = {},
  ) {
    this.partSize = options.partSize ?? 8 * MiB;
    this.queueSize = options.queueSize ?? 2;
    this.maxCopyBytes = options.maxCopyBytes ?? 5 * 1024 ** 3;
  }

  private objectKey(key: string): string {
    // Keys come from the database; anything but a SHA-256 must never become an object name.
    if (!isBlobKey(key)) throw new Error(`not a blob key: ${JSON.stringify(key)}`);
    return `${this.basePath}${key.slice(0, 2)}/${key.slice(2, 4)}/${key}`;
  }

  private upload(key: string, body: Readable): Promise<unknown> {
    return new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: key, Body: body },
      partSize: this.partSize,
      queueSize: this.queueSize,
    }).done();
  }

  async stage(source: Readable, options: PutOptions = {}): Promise<StagedBlob> {
    const temp = `${this.basePath}tmp/${randomUUID()}`;
    try {
      const digests = await receiveDigested(source, options, async (body) => {
        await this.upload(temp, body);
      });
      return {
        digests,
        publish: async () => {
          if ((await this.stat(digests.sha256))?.size === digests.size) return false;
          await this.moveInto(temp, this.objectKey(digests.sha256), digests.size);
          return true;
        },
        // A temporary object left behind is litter for the bucket's lifecycle rule, not a failed upload.
        discard: () => this.removeObject(temp).catch(() => undefined),
      };
    } catch (error) {
      // The failure is what the caller needs to hear, not a second one from the clean-up.
      await this.removeObject(temp).catch(() => undefined);
      throw error;
    }
  }

  /** Copies the complete temporary object to its key; the temporary one stays until discarded. */
  private async moveInto(temp: string, key: string, size: number): Promise<void> {
    if (size <= this.maxCopyBytes) {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.bucket,
          Key: key,
          CopySource: `${this.bucket}/${temp.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
      return;
    }
    const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: temp }));
    await this.upload(key, Body as Readable);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const { Body } = await this.client.send(
      new GetObjectCommand({
        Bucket: this.bucket,
        Key: this.objectKey(key),
        ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
      }),
    );
    return Body as Readable;
  }

  async sendTo(key: string, destination: Writable, range?: ByteRange): Promise<void> {
    await pipeline(await this.get(key, range), destination);
  }

  async stat(key: string): Promise<{ size: number } | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.removeObject(this.objectKey(key));
  }

  private async removeObject(objectKey: string): Promise<void> {
    // S3 answers a delete of a missing object with success.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: objectKey }));
  }
}
