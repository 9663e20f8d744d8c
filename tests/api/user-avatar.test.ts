// The caller's own avatar: an upload is stored and served at the user's avatar URL; deleting it returns to the
// generated default; bad input is 400/422 and changes nothing.
import { Jimp } from 'jimp';
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let user: TestUser;

const avatarOf = async () => (await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: user.user.id } })).avatar;

beforeAll(async () => {
  t = await startTestApp();
  user = await createTestUser(t);
});
afterAll(() => t.close());

it('uploads, replaces and deletes the caller’s avatar', async () => {
  const image = (await new Jimp({ width: 64, height: 64, color: 0x3366ccff }).getBuffer('image/png')).toString(
    'base64',
  );
  await t.request().post('/api/v1/user/avatar').set('Authorization', user.auth).send({ image }).expect(204);
  const stored = await avatarOf();
  expect(stored).toMatch(/^[0-9a-f]{64}$/);
  const me = await t.request().get('/api/v1/user').set('Authorization', user.auth).expect(200);
  expect(me.body.avatar_url).toContain(stored);
  await t.request().post('/api/v1/user/avatar').set('Authorization', user.auth).send({ image: '%%%' }).expect(400);
  expect(await avatarOf()).toBe(stored);
  await t.request().delete('/api/v1/user/avatar').set('Authorization', user.auth).expect(204);
  expect(await avatarOf()).toBe('');
  await t.request().delete('/api/v1/user/avatar').set('Authorization', user.auth).expect(204);
});

it('needs a signed-in caller', async () => {
  await t.request().post('/api/v1/user/avatar').send({ image: '' }).expect(401);
  await t.request().delete('/api/v1/user/avatar').expect(401);
});
