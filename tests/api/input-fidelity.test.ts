// Input read as Forgejo reads it, decided once for every route (issue 25): a `null` or empty JSON body is an empty
// object, integers are what a JSON number holds exactly, date-times are what Go's RFC 3339 parser accepts,
// since/before compare whole seconds inclusively, `subject-type` is case-insensitive and no query value that names
// an object prototype key selects a table entry.
import fs from 'node:fs';
import path from 'node:path';
import { OPERATIONS } from '../../generated/operations.ts';
import { createTestUser, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: TestUser;
let owner: TestUser;
let author: TestUser;

const ERROR_BODY = { message: expect.any(String), url: 'http://localhost:3000/api/swagger' };
const repoPath = () => `/api/v1/repos/${owner.user.name}/proj`;

beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
  [owner, author] = await Promise.all([createTestUser(t), createTestUser(t)]);
  await t.request().post('/api/v1/user/repos').set('Authorization', owner.auth).send({ name: 'proj' }).expect(201);
});
afterAll(() => t.close());

type Schema = { $ref?: string; type?: string; properties?: object };
const contract = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../generated/openapi.json'), 'utf8'));
const resolve = (node: Schema | undefined): Schema | undefined =>
  node?.$ref
    ? resolve(
        node.$ref
          .slice(2)
          .split('/')
          .reduce((n: any, key: string) => n?.[key], contract),
      )
    : node;

/** Operations whose JSON body the contract types as an object, with a path whose parameters are filled in. */
function objectBodyOperations(methods: readonly string[]): [string, string, string][] {
  return Object.entries(OPERATIONS)
    .filter(([, op]) => op.body === 'json' && methods.includes(op.method) && op.path.startsWith('/api/v1/'))
    .filter(([, op]) => {
      const body = resolve(contract.paths[op.path][op.method].requestBody);
      const schema = resolve((body as any)?.content?.['application/json']?.schema);
      return schema?.type === 'object' || schema?.properties !== undefined;
    })
    .map(([id, op]) => [id, op.method, op.path.replace(/\{[^}]+\}/g, (p) => (/id|index/.test(p) ? '9999' : 'x'))]);
}

function send(method: string, url: string, body: string | undefined, as: TestUser = admin) {
  const request = (t.request() as any)
    [method](url)
    .set('Authorization', as.auth)
    .set('Content-Type', 'application/json');
  return body === undefined ? request : request.send(body);
}

const get = (url: string, as: TestUser = admin) => send('get', url, undefined, as);
const newRule = (name: string, limit: number, subjects: string[] = []) =>
  send('post', '/api/v1/admin/quota/rules', JSON.stringify({ name, limit, subjects })).expect(201);
/** An admin-created user's body, as raw JSON so that number literals reach the server as written. */
const userBody = (username: string, extra = '') =>
  `{"username":"${username}","email":"${username}@example.com","password":"password-123456"${extra}}`;

describe('a null or empty JSON body is an empty object', () => {
  it('PATCH of a quota rule with `null` is an edit that changes nothing (200)', async () => {
    const name = uniqueName('rule');
    const created = await newRule(name, 4096, ['size:all']);
    const res = await send('patch', `/api/v1/admin/quota/rules/${name}`, 'null').expect(200);
    expect(res.body).toEqual(created.body);
  });

  it('an empty body with a JSON type is {}: quota rule edit unchanged, org edit 200, quota group 422', async () => {
    const name = uniqueName('rule');
    const rule = (await newRule(name, 1, ['size:all'])).body;
    expect((await send('patch', `/api/v1/admin/quota/rules/${name}`, undefined).expect(200)).body).toEqual(rule);
    const org = (await send('post', '/api/v1/orgs', JSON.stringify({ username: uniqueName('org') })).expect(201)).body;
    expect((await send('patch', `/api/v1/orgs/${org.name}`, undefined).expect(200)).body.name).toBe(org.name);
    const refused = await send('post', '/api/v1/admin/quota/groups', undefined).expect(422);
    expect(refused.body).toMatchObject(ERROR_BODY);
  });

  // Validation runs before the path's resources are looked up, so a `null` that were refused would show as a 422.
  it.each(objectBodyOperations(['patch']))('%s answers `null` as it answers {}', async (_id, method, url) => {
    const asObject = await send(method, url, '{}');
    const asNull = await send(method, url, 'null');
    expect(asObject.status).toBeLessThan(500);
    expect([asNull.status, asNull.body.message]).toEqual([asObject.status, asObject.body.message]);
  });

  const writes = objectBodyOperations(['post', 'put', 'patch']);
  it.each(writes)('%s answers an empty JSON body below 500', async (_id, method, url) => {
    const res = await send(method, url, undefined);
    expect(res.status).toBeLessThan(500);
    if (res.status >= 400) expect(res.body.message).toEqual(expect.any(String));
  });
});

describe('integers are what a JSON number holds exactly', () => {
  const tooLarge = [
    '9223372036854775807',
    '9223372036854775808',
    '99999999999999999999999',
    '1e308',
    '-1e308',
    '9007199254740992',
  ];

  it.each(tooLarge)('a quota rule limit of %s is 422 naming the field, and nothing is stored', async (limit) => {
    const name = uniqueName('rule');
    const body = `{"name":"${name}","limit":${limit},"subjects":[]}`;
    const res = await send('post', '/api/v1/admin/quota/rules', body).expect(422);
    const message = `[limit]: out of range (at most ${Number.MAX_SAFE_INTEGER} either way)`;
    expect(res.body).toEqual({ ...ERROR_BODY, message });
    await get(`/api/v1/admin/quota/rules/${name}`).expect(404);
  });

  it('an edit with such a limit changes nothing; a fraction is 422; -0 is 0, as Go reads it', async () => {
    const name = uniqueName('rule');
    const rule = (await newRule(name, 10)).body;
    for (const limit of ['1e308', '9223372036854775807', '1.5']) {
      const res = await send('patch', `/api/v1/admin/quota/rules/${name}`, `{"limit":${limit}}`).expect(422);
      expect(res.body.message).toMatch(/^\[limit\]: /);
    }
    expect((await get(`/api/v1/admin/quota/rules/${name}`).expect(200)).body).toEqual(rule);
    expect((await send('patch', `/api/v1/admin/quota/rules/${name}`, '{"limit":-0}').expect(200)).body.limit).toBe(0);
  });

  it('inside nested bodies: a quota group rule limit, and an admin-created user source_id', async () => {
    const group = uniqueName('group');
    const rules = `[{"name":"${uniqueName('r')}","limit":1e308,"subjects":[]}]`;
    const res = await send('post', '/api/v1/admin/quota/groups', `{"name":"${group}","rules":${rules}}`).expect(422);
    expect(res.body.message).toMatch(/^\[rules\.0\.limit\]: out of range/);
    await get(`/api/v1/admin/quota/groups/${group}`).expect(404);
    const username = uniqueName('user');
    const user = await send(
      'post',
      '/api/v1/admin/users',
      userBody(username, ',"source_id":9223372036854775808'),
    ).expect(422);
    expect(user.body.message).toMatch(/^\[source_id\]: out of range/);
    await get(`/api/v1/users/${username}`).expect(404);
  });

  it('in queries, as before: 1e308 is 422 naming the parameter', async () => {
    const res = await get('/api/v1/repos/issues/search?limit=1e308').expect(422);
    expect(res.body.message).toMatch(/^\[limit\]: out of range/);
  });
});

describe('date-times are what Go parses as RFC 3339', () => {
  it.each([
    '2024-01-01T00:00:00+25:00',
    '2024-01-01T00:00:00+23:60',
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T23:59:60Z',
    '2024-01-01t00:00:00z',
    '2024-01-01 00:00:00Z',
    '+002024-01-01T00:00:00Z',
    '275760-09-13T00:00:00Z',
  ])('%s is 422 in since/before of every list, and in a body', async (value) => {
    const q = encodeURIComponent(value);
    const urls = [
      `/api/v1/notifications?since=${q}`,
      `/api/v1/notifications?before=${q}`,
      `${repoPath()}/notifications?since=${q}`,
      `/api/v1/repos/issues/search?before=${q}`,
    ];
    for (const url of urls) {
      const res = await get(url, owner).expect(422);
      expect(res.body).toMatchObject(ERROR_BODY);
      expect(res.body.message).toMatch(/^\[(since|before)\]: /);
    }
    const username = uniqueName('user');
    await send('post', '/api/v1/admin/users', userBody(username, `,"created_at":"${value}"`)).expect(422);
  });

  const farOut = [
    '0001-01-01T00:00:00Z',
    '0000-01-01T00:00:00+23:59',
    '9999-12-31T23:59:59-23:59',
    '1970-01-01T00:00:00Z',
    '1969-12-31T23:59:59.5Z',
  ];
  it.each(farOut)('far-out and zero times (%s) apply as bounds on both databases', async (value) => {
    const q = encodeURIComponent(value);
    const urls = [
      `/api/v1/notifications?all=true&since=${q}`,
      `/api/v1/notifications?all=true&before=${q}`,
      `${repoPath()}/notifications?all=true&since=${q}&before=${q}`,
      `/api/v1/repos/issues/search?since=${q}`,
      `/api/v1/repos/issues/search?before=${q}`,
    ];
    for (const url of urls) await get(url, owner).expect(200);
  });
});

describe('since and before compare whole seconds, both inclusive', () => {
  const at = '2030-06-01T12:00:00';
  let issueId: number;

  beforeAll(async () => {
    const issue = (await send('post', `${repoPath()}/issues`, '{"title":"timed"}', author).expect(201)).body;
    issueId = issue.id;
    const updatedAt = new Date(`${at}.700Z`);
    await t.context.db.prisma.issue.update({ where: { id: issueId }, data: { updatedAt } });
    await t.context.db.prisma.notification.updateMany({ where: { issueId }, data: { updatedAt } });
    expect(await t.context.db.prisma.notification.count({ where: { issueId, userId: owner.user.id } })).toBe(1);
  });

  const lists = () => [
    (query: string) => `/api/v1/notifications?all=true&${query}`,
    (query: string) => `${repoPath()}/notifications?all=true&${query}`,
    (query: string) => `/api/v1/repos/issues/search?${query}`,
  ];

  it.each([
    [`before=${at}Z`, true],
    [`since=${at}.900Z`, true],
    [`since=${at}Z&before=${at}Z`, true],
    [`before=${at}%2B00:00`, true],
    [`since=2030-06-01T14:00:00%2B02:00`, true],
    ['before=2030-06-01T11:59:59.999Z', false],
    ['since=2030-06-01T12:00:01Z', false],
  ])('%s includes the row updated at 12:00:00.700: %s', async (query, included) => {
    for (const list of lists()) {
      const res = await get(list(query), owner).expect(200);
      const ids = res.body.map((item: { id: number; subject?: { title: string } }) => item.subject?.title ?? item.id);
      expect([list(query), ids.includes('timed') || ids.includes(issueId)]).toEqual([list(query), included]);
    }
  });
});

describe('enum-like query words', () => {
  let threadId: number;

  beforeAll(async () => {
    await send('post', `${repoPath()}/issues`, '{"title":"words"}', author).expect(201);
    const threads = (await get('/api/v1/notifications?all=true', owner).expect(200)).body;
    threadId = threads.find((thread: { subject: { title: string } }) => thread.subject.title === 'words').id;
  });

  it('subject-type is case-insensitive, as Forgejo lower-cases it; status-types too', async () => {
    const lower = (await get('/api/v1/notifications?all=true&subject-type=issue', owner).expect(200)).body;
    expect(lower.length).toBeGreaterThan(0);
    for (const word of ['Issue', 'ISSUE']) {
      expect((await get(`/api/v1/notifications?all=true&subject-type=${word}`, owner).expect(200)).body).toEqual(lower);
      const inRepo = await get(`${repoPath()}/notifications?all=true&subject-type=${word}`, owner).expect(200);
      expect(inRepo.body).toEqual(lower);
    }
    expect((await get('/api/v1/notifications?subject-type=Pull', owner).expect(200)).body).toEqual([]);
    const unread = (await get('/api/v1/notifications?status-types=unread', owner).expect(200)).body;
    expect((await get('/api/v1/notifications?status-types=UnRead', owner).expect(200)).body).toEqual(unread);
  });

  const prototypeKeys = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];
  it.each(prototypeKeys)('%s selects no table entry', async (word) => {
    const thread = `/api/v1/notifications/threads/${threadId}`;
    const marked = await send('patch', `${thread}?to-status=${word}`, undefined, owner).expect(205);
    expect(marked.body).toMatchObject({ id: threadId, unread: false, pinned: false });
    await send('patch', `${thread}?to-status=unread`, undefined, owner).expect(205);
    const words = `to-status=${word}&status-types=${word}`;
    await send('put', `/api/v1/notifications?${words}`, undefined, owner).expect(205);
    await send('put', `${repoPath()}/notifications?${words}`, undefined, owner).expect(205);
    // An unknown word is dropped, as in Forgejo; with none left the list is not filtered by status.
    const unknown = (await get('/api/v1/notifications?status-types=bogus', owner).expect(200)).body;
    expect((await get(`/api/v1/notifications?status-types=${word}`, owner).expect(200)).body).toEqual(unknown);
    await get(`/api/v1/notifications?subject-type=${word}`, owner).expect(422);
    await get(`/api/v1/repos/search?sort=${word}`, owner).expect(422);
    const created = await send(
      'post',
      '/api/v1/admin/users',
      userBody(uniqueName('user'), `,"visibility":"${word}"`),
    ).expect(422);
    expect(created.body.message).toMatch(/visibility/);
  });
});
