import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { Jimp } from 'jimp';
import { decodeImage, sniffImageType } from '../../src/lib/image.ts';
import type supertest from 'supertest';
import { addTestOrgMember, createTestOrg, createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
});
afterAll(() => t.close());

async function imageBase64(mime: 'image/png' | 'image/jpeg', width: number, height: number): Promise<string> {
  const image = new Jimp({ width, height, color: 0x3366ccff });
  return (await image.getBuffer(mime)).toString('base64');
}

/** supertest buffers binary bodies only when told to. */
function binary(res: supertest.Response, callback: (error: Error | null, body: Buffer) => void): void {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
}

const pathOf = (url: string) => new URL(url).pathname;

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG of a few tens of KB declaring width×height RGBA pixels, all of them zero: the classic decompression bomb. */
function pngBomb(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const pixels = zlib.deflateSync(Buffer.alloc(32 << 20), { level: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', pixels),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** An interlaced 1×1 PNG followed, inside its pixel data, by megabytes of zeros. */
function interlacedPngWithExcess(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header.set([8, 6, 0, 0, 1], 8);
  const pixels = Buffer.concat([Buffer.from([0, 0x33, 0x66, 0xcc, 0xff]), Buffer.alloc(64 << 20)]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(pixels, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A JPEG header (JFIF, then a baseline frame header) declaring width×height. */
function jpegHeader(width: number, height: number): Buffer {
  const jfif = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ];
  const frame = [
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ];
  return Buffer.from([0xff, 0xd8, ...jfif, ...frame, 0xff, 0xd9]);
}

/** A GIF whose logical screen is screen×screen and whose first frame is frame×frame pixels. */
function gif(screen: number, frame: number): Buffer {
  const u16 = (n: number) => [n & 0xff, n >> 8];
  return Buffer.from([
    ...Buffer.from('GIF89a', 'latin1'),
    ...u16(screen),
    ...u16(screen),
    0x80,
    0,
    0,
    0,
    0,
    0,
    0xff,
    0xff,
    0xff,
    0x2c,
    ...u16(0),
    ...u16(0),
    ...u16(frame),
    ...u16(frame),
    0,
    0x02,
    0x02,
    0x4c,
    0x01,
    0x00,
    0x3b,
  ]);
}

const picture = () =>
  t.context.settings.picture as { AVATAR_MAX_WIDTH: number; AVATAR_MAX_HEIGHT: number; AVATAR_MAX_FILE_SIZE: number };

describe('POST /orgs/{org}/avatar', () => {
  it.each([
    ['image/png', 400, 200],
    ['image/jpeg', 120, 300],
  ] as const)('stores a %s as a 290×290 PNG that avatar_url serves', async (mime, w, h) => {
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/avatar`)
      .set('Authorization', owner.auth)
      .send({ image: await imageBase64(mime, w, h) })
      .expect(204);
    const { body } = await t.request().get(`/api/v1/orgs/${org.name}`).expect(200);
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } });
    expect(body.avatar_url).toBe(`http://localhost:3000/avatars/${stored.avatar}`);
    expect(fs.existsSync(path.join(t.dataDir, 'avatars', stored.avatar))).toBe(true);

    const served = await t.request().get(pathOf(body.avatar_url)).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers.etag).toBe(`"${stored.avatar}"`);
    await t.request().get(pathOf(body.avatar_url)).set('If-None-Match', `"${stored.avatar}"`).expect(304);
    expect(sniffImageType(served.body as Buffer)).toBe('image/png');
    const image = await decodeImage(served.body as Buffer);
    expect([image.width, image.height]).toEqual([290, 290]);
  });

  it('answers 400 for data that is not base64 or not an image', async () => {
    const org = await createTestOrg(t, owner.user);
    for (const image of ['not base64 at all!', 'abc', Buffer.from('just some text').toString('base64')]) {
      await t
        .request()
        .post(`/api/v1/orgs/${org.name}/avatar`)
        .set('Authorization', owner.auth)
        .send({ image })
        .expect(400);
    }
    expect((await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } })).avatar).toBe('');
  });

  it('refuses images declaring too many pixels from their headers, without decoding them, while the server keeps answering', async () => {
    const org = await createTestOrg(t, owner.user);
    const bomb = pngBomb(16000, 16000);
    expect(bomb.length).toBeLessThan(64 * 1024);
    for (const image of [bomb, jpegHeader(16000, 16000), gif(16000, 16), pngBomb(4097, 1), pngBomb(1, 4097)]) {
      // Decoding 16000×16000 pixels would take a gigabyte: the peak memory of this process (the worker threads that
      // decode images run in it) shows whether the refusal came from the header.
      const peakBefore = process.resourceUsage().maxRSS;
      const [upload, health] = await Promise.all([
        t
          .request()
          .post(`/api/v1/orgs/${org.name}/avatar`)
          .set('Authorization', owner.auth)
          .send({ image: image.toString('base64') }),
        t.request().get('/api/healthz'),
      ]);
      expect(process.resourceUsage().maxRSS - peakBefore).toBeLessThan(256 * 1024);
      expect(upload.status).toBe(400);
      expect(upload.body.message).toMatch(/^image is too large: \d+×\d+, at most 4096×4096$/);
      expect(health.status).toBe(200);
    }
    expect((await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } })).avatar).toBe('');
  });

  it('refuses a GIF whose first frame is larger than its screen, an interlaced PNG holding more data than its size, and TIFF (many pages)', async () => {
    const org = await createTestOrg(t, owner.user);
    const tiff = Buffer.from([0x49, 0x49, 0x2a, 0x00, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00]);
    const upload = (image: Buffer) =>
      t
        .request()
        .post(`/api/v1/orgs/${org.name}/avatar`)
        .set('Authorization', owner.auth)
        .send({ image: image.toString('base64') })
        .expect(400);
    expect((await upload(gif(16, 60000))).body.message).toBe('image is too large: 60000×60000, at most 16×16');
    expect((await upload(tiff)).body.message).toMatch(/not an image of a supported type/);
    expect((await upload(interlacedPngWithExcess())).body.message).toBe(
      'the image holds more data than its size allows',
    );
  });

  it('follows [picture] AVATAR_MAX_WIDTH, AVATAR_MAX_HEIGHT and AVATAR_MAX_FILE_SIZE', async () => {
    const org = await createTestOrg(t, owner.user);
    const upload = async (image: string) =>
      t.request().post(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', owner.auth).send({ image });
    const image = await imageBase64('image/jpeg', 120, 300);
    try {
      picture().AVATAR_MAX_WIDTH = 100;
      expect((await upload(image)).body.message).toBe('image is too large: 120×300, at most 100×4096');
      picture().AVATAR_MAX_WIDTH = 4096;
      picture().AVATAR_MAX_HEIGHT = 299;
      expect((await upload(image)).status).toBe(400);
      picture().AVATAR_MAX_HEIGHT = 4096;
      picture().AVATAR_MAX_FILE_SIZE = 100;
      expect((await upload(image)).body.message).toMatch(/^image is too large: \d+ bytes, at most 100$/);
    } finally {
      Object.assign(picture(), { AVATAR_MAX_WIDTH: 4096, AVATAR_MAX_HEIGHT: 4096, AVATAR_MAX_FILE_SIZE: 1048576 });
    }
    await upload(image).then((res) => expect(res.status).toBe(204));
  });

  it('is for owners only', async () => {
    const org = await createTestOrg(t, owner.user);
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    const image = await imageBase64('image/png', 10, 10);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/avatar`)
      .set('Authorization', member.auth)
      .send({ image })
      .expect(403);
    await t.request().delete(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', member.auth).expect(403);
    await t.request().post(`/api/v1/orgs/${org.name}/avatar`).send({ image }).expect(401);
  });
});

describe('DELETE /orgs/{org}/avatar', () => {
  it('removes the file and falls back to the generated avatar', async () => {
    const org = await createTestOrg(t, owner.user);
    await t
      .request()
      .post(`/api/v1/orgs/${org.name}/avatar`)
      .set('Authorization', owner.auth)
      .send({ image: await imageBase64('image/png', 50, 50) })
      .expect(204);
    const { avatar } = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } });
    await t.request().delete(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', owner.auth).expect(204);
    expect(fs.existsSync(path.join(t.dataDir, 'avatars', avatar))).toBe(false);
    const { body } = await t.request().get(`/api/v1/orgs/${org.name}`).expect(200);
    expect(body.avatar_url).toBe(`http://localhost:3000/avatars/default/${org.id}`);
    await t.request().get(`/avatars/${avatar}`).expect(404);
    await t.request().delete(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', owner.auth).expect(204);
  });
});

describe('GET /avatars/default/{id}', () => {
  it('serves a generated 290×290 PNG for an existing user or organization, the same each time', async () => {
    const org = await createTestOrg(t, owner.user);
    const first = await t.request().get(`/avatars/default/${org.id}`).buffer(true).parse(binary).expect(200);
    expect(first.headers['content-type']).toBe('image/png');
    const image = await decodeImage(first.body as Buffer);
    expect([image.width, image.height]).toEqual([290, 290]);
    const second = await t.request().get(`/avatars/default/${org.id}`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(first.body as Buffer, second.body as Buffer)).toBe(0);
    const other = await t.request().get(`/avatars/default/${owner.user.id}`).buffer(true).parse(binary).expect(200);
    expect(Buffer.compare(first.body as Buffer, other.body as Buffer)).not.toBe(0);
  });

  it('renders each id once and sends cache headers; If-None-Match answers 304', async () => {
    const org = await createTestOrg(t, owner.user);
    const { avatars } = t.context.services;
    const cached = avatars.defaultAvatars.size;
    const first = await t.request().get(`/avatars/default/${org.id}`).buffer(true).parse(binary).expect(200);
    expect(first.headers['cache-control']).toBe('public, max-age=3600, no-transform');
    expect(first.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    await t
      .request()
      .get(`/avatars/default/${org.id}`)
      .set('If-None-Match', first.headers.etag)
      .expect(304)
      .expect('ETag', first.headers.etag);
    const again = await t
      .request()
      .get(`/avatars/default/${org.id}`)
      .set('If-None-Match', '"something else"')
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(Buffer.compare(first.body as Buffer, again.body as Buffer)).toBe(0);
    // One rendering, kept: the same bytes object every time.
    expect(avatars.defaultAvatars.size).toBe(cached + 1);
    expect((await avatars.generated(org.id)).png).toBe((await avatars.generated(org.id)).png);
  });

  it('answers 404 for an unknown id and for a malformed stored name', async () => {
    await t.request().get('/avatars/default/99999999').expect(404);
    await t.request().get('/avatars/default/abc').expect(404);
    await t.request().get('/avatars/..%2Fanvil.db').expect(404);
    await t
      .request()
      .get(`/avatars/${'0'.repeat(64)}`)
      .expect(404);
  });
});
