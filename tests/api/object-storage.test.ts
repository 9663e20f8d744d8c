// Package blobs and avatars in an S3 bucket ([storage] STORAGE_TYPE = minio) on an S3 server the test starts on
// loopback: the generic registry and org avatars through HTTP, the bytes only in the bucket.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { Jimp } from 'jimp';
import type supertest from 'supertest';
import { decodeImage } from '../../src/lib/image.ts';
import { PayloadTooLargeError } from '../../src/domain/errors.ts';
import { S3BlobStore } from '../../src/infra/storage/s3-blob-store.ts';
import { createS3Client } from '../../src/infra/storage/s3-client.ts';
import { createTestOrg, createTestUser, type TestUser, uniqueName } from '../helpers/factories.ts';
import { filesUnder, genericUrl, sha256, upload } from '../helpers/packages.ts';
import { s3ServerUnavailable, startS3Server, type S3TestServer } from '../helpers/s3-server.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

const unavailable = s3ServerUnavailable();
if (unavailable) console.log(`object storage tests skipped: ${unavailable}`);
const describeWithS3 = unavailable ? describe.skip : describe;

const MiB = 1024 ** 2;

let s3: S3TestServer;
let t: TestApp;
let alice: TestUser;

beforeAll(async () => {
  if (unavailable) return;
  s3 = await startS3Server();
  // [packages] LIMIT_SIZE_GENERIC makes a [packages] section, which must not take the storage away from [storage].
  t = await startTestApp({ ...s3.env('/anvil'), ANVIL__packages__LIMIT_SIZE_GENERIC: '10m' });
  alice = await createTestUser(t);
});
afterAll(async () => {
  await t?.close();
  await s3?.stop();
});

/** supertest buffers binary bodies only when told to. */
function binary(res: supertest.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

function download(url: string, headers: Record<string, string> = {}) {
  const request = t.request().get(url).buffer(true).parse(binary);
  for (const [name, value] of Object.entries(headers)) request.set(name, value);
  return request;
}

const blobKey = (bytes: Buffer) => {
  const hash = sha256(bytes);
  return `anvil/packages/${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;
};

describeWithS3('generic packages in the bucket', () => {
  it('stores an upload under its content address in the bucket and nowhere on disk, and serves it byte-exact', async () => {
    // Larger than one part (8 MiB): a multipart upload.
    const bytes = randomBytes(9 * MiB + 123);
    const name = uniqueName('big');
    await upload(t, alice.auth, alice.user.name, name, '1.0.0', 'big.bin', bytes).expect(201);
    expect(await s3.keys('anvil/packages/')).toContain(blobKey(bytes));
    expect(await s3.keys('anvil/packages/tmp/')).toEqual([]);
    expect([...filesUnder(t.context.settings.packages.PATH).keys()]).toEqual([]);

    const res = await download(genericUrl(alice.user.name, name, '1.0.0', 'big.bin'), {
      Authorization: alice.auth,
    }).expect(200);
    expect(res.headers['content-length']).toBe(String(bytes.length));
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
  });

  it('answers a Range request with those bytes only (206)', async () => {
    const bytes = randomBytes(100 * 1024);
    const name = uniqueName('ranged');
    await upload(t, alice.auth, alice.user.name, name, '1', 'f.bin', bytes).expect(201);
    const res = await download(genericUrl(alice.user.name, name, '1', 'f.bin'), {
      Authorization: alice.auth,
      Range: 'bytes=1000-4999',
    }).expect(206);
    expect(res.headers['content-range']).toBe(`bytes 1000-4999/${bytes.length}`);
    expect(Buffer.compare(res.body as Buffer, bytes.subarray(1000, 5000))).toBe(0);
    const tail = await download(genericUrl(alice.user.name, name, '1', 'f.bin'), {
      Authorization: alice.auth,
      Range: 'bytes=-10',
    }).expect(206);
    expect(Buffer.compare(tail.body as Buffer, bytes.subarray(bytes.length - 10))).toBe(0);
  });

  it('refuses the same file name twice (409) and stores the same bytes under another name once', async () => {
    const bytes = randomBytes(4096);
    const name = uniqueName('dup');
    await upload(t, alice.auth, alice.user.name, name, '1', 'f.bin', bytes).expect(201);
    await upload(t, alice.auth, alice.user.name, name, '1', 'f.bin', bytes).expect(409);
    await upload(t, alice.auth, alice.user.name, name, '2', 'f.bin', bytes).expect(201);
    expect((await s3.keys('anvil/packages/')).filter((key) => key === blobKey(bytes))).toHaveLength(1);
    expect(await s3.keys('anvil/packages/tmp/')).toEqual([]);
    const res = await download(genericUrl(alice.user.name, name, '2', 'f.bin'), { Authorization: alice.auth }).expect(
      200,
    );
    expect(Buffer.compare(res.body as Buffer, bytes)).toBe(0);
  });

  it('removes the object from the bucket when the last file using it is deleted', async () => {
    const bytes = randomBytes(2048);
    const name = uniqueName('gone');
    await upload(t, alice.auth, alice.user.name, name, '1', 'a.bin', bytes).expect(201);
    await upload(t, alice.auth, alice.user.name, name, '2', 'a.bin', bytes).expect(201);
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '1', 'a.bin'))
      .set('Authorization', alice.auth)
      .expect(204);
    expect(await s3.keys('anvil/packages/')).toContain(blobKey(bytes));
    await t
      .request()
      .delete(genericUrl(alice.user.name, name, '2'))
      .set('Authorization', alice.auth)
      .expect(204);
    expect(await s3.keys('anvil/packages/')).not.toContain(blobKey(bytes));
    await download(genericUrl(alice.user.name, name, '2', 'a.bin'), { Authorization: alice.auth }).expect(404);
  });

  it('keeps no object of a chunked upload refused past [packages] LIMIT_SIZE_GENERIC (413), past one part, so a multipart upload had begun', async () => {
    const before = await s3.keys();
    const server = http.createServer(t.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port: (server.address() as AddressInfo).port,
            method: 'PUT',
            path: genericUrl(alice.user.name, uniqueName('huge'), '1', 'f.bin'),
            headers: {
              Authorization: alice.auth,
              'Content-Type': 'application/octet-stream',
              'Transfer-Encoding': 'chunked',
            },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode!);
          },
        );
        req.on('error', reject);
        let sent = 0;
        const pump = () => {
          while (sent < 12 * MiB) {
            sent += 64 * 1024;
            if (!req.write(randomBytes(64 * 1024))) return void req.once('drain', pump);
          }
          req.end();
        };
        pump();
      });
      expect(status).toBe(413);
    } finally {
      server.close();
    }
    expect(await s3.keys()).toEqual(before);
  });
});

describeWithS3('org avatars in the bucket', () => {
  it('stores, serves and removes an uploaded avatar as an object under avatars/', async () => {
    const org = await createTestOrg(t, alice.user);
    const image = (await new Jimp({ width: 64, height: 48, color: 0x3366ccff }).getBuffer('image/png')).toString(
      'base64',
    );
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/avatar`)
      .set('Authorization', alice.auth)
      .send({ image })
      .expect(204);
    const { avatar } = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } });
    expect(await s3.keys('anvil/avatars/')).toContain(`anvil/avatars/${avatar}`);
    expect(fs.existsSync(path.join(t.dataDir, 'avatars'))).toBe(false);

    const served = await t.request().get(`/avatars/${avatar}`).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect((await decodeImage(served.body as Buffer)).width).toBe(290);

    await t.request().delete(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', alice.auth).expect(204);
    expect(await s3.keys('anvil/avatars/')).not.toContain(`anvil/avatars/${avatar}`);
    await t.request().get(`/avatars/${avatar}`).expect(404);
  });
});

describeWithS3('S3BlobStore', () => {
  const storeOf = (options: ConstructorParameters<typeof S3BlobStore>[3] = {}) =>
    new S3BlobStore(
      createS3Client({
        type: 'minio',
        endpoint: s3.endpoint,
        accessKeyId: s3.accessKey,
        secretAccessKey: s3.secretKey,
        bucket: s3.bucket,
        location: 'us-east-1',
        useSsl: false,
        basePath: 'direct/',
      }),
      s3.bucket,
      'direct/',
      options,
    );
  const read = async (stream: Readable) => Buffer.concat(await stream.toArray());

  /** Stages and publishes, as an upload's transaction does. */
  const put = async (store: S3BlobStore, source: Readable, maxBytes?: number) => {
    const staged = await store.stage(source, { maxBytes });
    try {
      return { digests: staged.digests, created: await staged.publish() };
    } finally {
      await staged.discard();
    }
  };

  it('stores an empty blob, and says when the bytes were there already', async () => {
    const store = storeOf();
    const first = await put(store, Readable.from([]));
    expect(first).toMatchObject({ created: true, digests: { size: 0 } });
    expect((await put(store, Readable.from([Buffer.alloc(0)]))).created).toBe(false);
    expect(await store.stat(first.digests.sha256)).toEqual({ size: 0 });
    expect((await read(await store.get(first.digests.sha256))).length).toBe(0);
  });

  it('streams a blob larger than one copy request through to its key', async () => {
    const store = storeOf({ maxCopyBytes: 1024 });
    const bytes = randomBytes(6 * MiB);
    const { digests, created } = await put(store, Readable.from([bytes.subarray(0, 3 * MiB), bytes.subarray(3 * MiB)]));
    expect(created).toBe(true);
    expect(digests.sha256).toBe(sha256(bytes));
    expect(Buffer.compare(await read(await store.get(digests.sha256)), bytes)).toBe(0);
    expect(
      Buffer.compare(await read(await store.get(digests.sha256, { start: 5, end: 9 })), bytes.subarray(5, 10)),
    ).toBe(0);
    expect(await s3.keys('direct/tmp/')).toEqual([]);
    await store.delete(digests.sha256);
    expect(await store.stat(digests.sha256)).toBeNull();
    await store.delete(digests.sha256);
  });

  it('fails a put, without hanging, when the store cannot be reached', async () => {
    const closed = http.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => closed.once('listening', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const settings = {
      type: 'minio',
      endpoint: `127.0.0.1:${port}`,
      accessKeyId: 'k',
      secretAccessKey: 's',
      bucket: 'b-none',
      location: 'us-east-1',
      useSsl: false,
      basePath: '',
    } as const;
    const store = new S3BlobStore(createS3Client(settings), settings.bucket, '');
    await expect(put(store, Readable.from([randomBytes(1024)]))).rejects.toThrow(/ECONNREFUSED/);
  });

  it('refuses a body past maxBytes with PayloadTooLargeError and keeps nothing', async () => {
    const store = storeOf({ partSize: 5 * MiB });
    const before = await s3.keys('direct/');
    const body = Readable.from([randomBytes(4 * MiB), randomBytes(4 * MiB)]);
    await expect(put(store, body, 7 * MiB)).rejects.toBeInstanceOf(PayloadTooLargeError);
    expect(await s3.keys('direct/')).toEqual(before);
  });
});
