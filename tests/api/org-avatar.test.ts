import fs from 'node:fs';
import path from 'node:path';
import { Jimp } from 'jimp';
import { decodeImage, sniffImageType } from '../../src/domain/image.ts';
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

describe('POST /orgs/{org}/avatar', () => {
  it.each([['image/png', 400, 200], ['image/jpeg', 120, 300]] as const)('stores a %s as a 290×290 PNG that avatar_url serves', async (mime, w, h) => {
    const org = await createTestOrg(t, owner.user);
    await t.request().post(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', owner.auth).send({ image: await imageBase64(mime, w, h) }).expect(204);
    const { body } = await t.request().get(`/api/v1/orgs/${org.name}`).expect(200);
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } });
    expect(body.avatar_url).toBe(`http://localhost:3000/avatars/${stored.avatar}`);
    expect(fs.existsSync(path.join(t.dataDir, 'avatars', stored.avatar))).toBe(true);

    const served = await t.request().get(pathOf(body.avatar_url)).buffer(true).parse(binary).expect(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(sniffImageType(served.body as Buffer)).toBe('image/png');
    const image = await decodeImage(served.body as Buffer);
    expect([image.width, image.height]).toEqual([290, 290]);
  });

  it('answers 400 for data that is not base64 or not an image', async () => {
    const org = await createTestOrg(t, owner.user);
    for (const image of ['not base64 at all!', 'abc', Buffer.from('just some text').toString('base64')]) {
      await t.request().post(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', owner.auth).send({ image }).expect(400);
    }
    expect((await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: org.id } })).avatar).toBe('');
  });

  it('is for owners only', async () => {
    const org = await createTestOrg(t, owner.user);
    const member = await createTestUser(t);
    await addTestOrgMember(t, org, member.user, { accessMode: 3 });
    const image = await imageBase64('image/png', 10, 10);
    await t.request().post(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', member.auth).send({ image }).expect(403);
    await t.request().delete(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', member.auth).expect(403);
    await t.request().post(`/api/v1/orgs/${org.name}/avatar`).send({ image }).expect(401);
  });
});

describe('DELETE /orgs/{org}/avatar', () => {
  it('removes the file and falls back to the generated avatar', async () => {
    const org = await createTestOrg(t, owner.user);
    await t.request().post(`/api/v1/orgs/${org.name}/avatar`).set('Authorization', owner.auth).send({ image: await imageBase64('image/png', 50, 50) }).expect(204);
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

  it('answers 404 for an unknown id and for a malformed stored name', async () => {
    await t.request().get('/avatars/default/99999999').expect(404);
    await t.request().get('/avatars/default/abc').expect(404);
    await t.request().get('/avatars/..%2Fanvil.db').expect(404);
    await t.request().get(`/avatars/${'0'.repeat(64)}`).expect(404);
  });
});
