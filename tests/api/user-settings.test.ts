// The caller's own settings: profile fields land on the user (seen by GET /users/{username}), preferences are kept
// per user, absent fields stay, and another user's settings are untouched.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let ann: TestUser;
let ben: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  ann = await createTestUser(t);
  ben = await createTestUser(t);
});
afterAll(() => t.close());

it('answers the defaults, then what was changed', async () => {
  const initial = await t.request().get('/api/v1/user/settings').set('Authorization', ann.auth).expect(200);
  expect(initial.body).toMatchObject({ theme: 'forgejo-auto', hide_email: false, enable_repo_unit_hints: true });
  const changed = await t
    .request()
    .patch('/api/v1/user/settings')
    .set('Authorization', ann.auth)
    .send({
      full_name: 'Ann Example',
      location: 'Lyon',
      theme: 'forgejo-dark',
      hide_activity: true,
      enable_repo_unit_hints: false,
    })
    .expect(200);
  expect(changed.body).toMatchObject({
    full_name: 'Ann Example',
    location: 'Lyon',
    theme: 'forgejo-dark',
    hide_activity: true,
    enable_repo_unit_hints: false,
    diff_view_style: 'unified',
  });
  await t
    .request()
    .patch('/api/v1/user/settings')
    .set('Authorization', ann.auth)
    .send({ website: 'https://ann.example' })
    .expect(200);
  const again = await t.request().get('/api/v1/user/settings').set('Authorization', ann.auth).expect(200);
  expect(again.body).toMatchObject({ full_name: 'Ann Example', theme: 'forgejo-dark', website: 'https://ann.example' });
  const profile = await t.request().get(`/api/v1/users/${ann.user.name}`).expect(200);
  expect(profile.body).toMatchObject({ full_name: 'Ann Example', location: 'Lyon' });
  const other = await t.request().get('/api/v1/user/settings').set('Authorization', ben.auth).expect(200);
  expect(other.body).toMatchObject({ full_name: '', theme: 'forgejo-auto' });
});

it('refuses a wrongly typed field (422) and an anonymous caller (401)', async () => {
  await t
    .request()
    .patch('/api/v1/user/settings')
    .set('Authorization', ann.auth)
    .send({ hide_email: 'yes' })
    .expect(422);
  await t.request().get('/api/v1/user/settings').expect(401);
});
