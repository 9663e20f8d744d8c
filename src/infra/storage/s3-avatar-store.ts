// Avatars as objects <base path><name> in an S3 bucket ([storage.avatars]; Forgejo's avatars/ folder).
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { type AvatarStore, checkAvatarName } from './avatar-store.ts';
import { isMissingObject } from './s3-client.ts';

export class S3AvatarStore implements AvatarStore {
  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    /** '' or a prefix ending in '/'. */
    private readonly basePath: string,
  ) {}

  private objectKey(name: string): string {
    checkAvatarName(name);
    return `${this.basePath}${name}`;
  }

  async save(name: string, png: Buffer): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: this.objectKey(name), Body: png, ContentType: 'image/png' }),
    );
  }

  async read(name: string): Promise<Buffer | null> {
    try {
      const { Body } = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(name) }));
      return Body ? Buffer.from(await Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (error) {
      if (isMissingObject(error)) return null;
      throw error;
    }
  }

  async remove(name: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(name) }));
  }
}
