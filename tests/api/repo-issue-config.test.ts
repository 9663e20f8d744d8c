// A repository's issue config, read from the default branch: the default when there is none, the file's contact
// links when valid, and the validation message (with the default config) when not.
import { createTestUser, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let base: string;

const put = (path: string, text: string) =>
  t
    .request()
    .post(`/api/v1${base}/contents/${path}`)
    .set('Authorization', owner.auth)
    .send({ content: Buffer.from(text).toString('base64') })
    .expect(201);
const get = (suffix: string) =>
  t.request().get(`/api/v1${base}/issue_config${suffix}`).set('Authorization', owner.auth).expect(200);

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name: 'r', auto_init: true });
  base = `/repos/${owner.user.name}/r`;
});
afterAll(() => t.close());

it('is the default without a config file', async () => {
  expect((await get('')).body).toEqual({ blank_issues_enabled: true, contact_links: [] });
  expect((await get('/validate')).body).toEqual({ valid: true, message: '' });
});

it('reads a valid config file', async () => {
  await put(
    '.gitea/ISSUE_TEMPLATE/config.yml',
    'blank_issues_enabled: false\ncontact_links:\n  - name: Forum\n    url: https://forum.example.com\n    about: Ask here\n',
  );
  expect((await get('')).body).toEqual({
    blank_issues_enabled: false,
    contact_links: [{ name: 'Forum', url: 'https://forum.example.com', about: 'Ask here' }],
  });
  expect((await get('/validate')).body.valid).toBe(true);
});

it('explains an invalid one, which reads as the default', async () => {
  await put('.forgejo/ISSUE_TEMPLATE/config.yaml', 'contact_links:\n  - name: Broken\n    url: not a url\n');
  expect((await get('/validate')).body).toEqual({
    valid: false,
    message: 'contact_links[0]: url must be an http(s) URL',
  });
  expect((await get('')).body).toEqual({ blank_issues_enabled: true, contact_links: [] });
  await t.request().get(`/api/v1${base}/issue_config`).expect(200);
  await t.request().get(`/api/v1/repos/${owner.user.name}/nothing/issue_config`).expect(404);
});
