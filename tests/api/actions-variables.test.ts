import type { User } from '../../src/db/prisma.ts';
import { addTestOrgMember, createTestOrg, createTestUser, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  member = await createTestUser(t);
  outsider = await createTestUser(t);
});
afterAll(() => t.close());

async function freshOrg(visibility: 0 | 1 | 2 = 0): Promise<User> {
  const org = await createTestOrg(t, owner.user, { visibility });
  await addTestOrgMember(t, org, member.user, { accessMode: 2 });
  return org;
}

const variablesOf = (org: User) => `/api/v1/orgs/${org.name}/actions/variables`;

function create(org: User, name: string, body: object, auth = owner.auth) {
  return t
    .request()
    .post(`${variablesOf(org)}/${name}`)
    .set('Authorization', auth)
    .send(body);
}

function update(org: User, name: string, body: object, auth = owner.auth) {
  return t
    .request()
    .put(`${variablesOf(org)}/${name}`)
    .set('Authorization', auth)
    .send(body);
}

function get(org: User, name: string, auth = owner.auth) {
  return t
    .request()
    .get(`${variablesOf(org)}/${name}`)
    .set('Authorization', auth);
}

async function storedNames(org: User): Promise<string[]> {
  const rows = await t.context.db.prisma.actionVariable.findMany({
    where: { ownerId: org.id },
    orderBy: { name: 'asc' },
  });
  return rows.map((row) => row.name);
}

describe('POST /orgs/{org}/actions/variables/{variablename}', () => {
  it('creates with 204, stores the name upper-cased and turns \\r\\n into \\n', async () => {
    const org = await freshOrg();
    const res = await create(org, 'build_target', { value: 'line one\r\nline two\rkept\n' }).expect(204);
    expect(res.text).toBe('');
    const read = await get(org, 'BUILD_TARGET').expect(200);
    expect(read.body).toEqual({
      owner_id: org.id,
      repo_id: 0,
      name: 'BUILD_TARGET',
      data: 'line one\nline two\rkept\n',
    });
    await get(org, 'build_target').expect(200);
  });

  it('answers 409 for a name that exists in any case', async () => {
    const org = await freshOrg();
    await create(org, 'REGION', { value: 'eu' }).expect(204);
    const res = await create(org, 'Region', { value: 'us' }).expect(409);
    expect(res.body).toEqual({
      message: 'variable name REGION already exists',
      url: 'http://localhost:3000/api/swagger',
    });
    expect((await get(org, 'REGION').expect(200)).body.data).toBe('eu');
  });

  it.each(['CI', 'ci', 'CI_X', 'ci_token', 'CIRCLE', 'GITEA_X', 'github_x', 'FORGEJO_X', '9LIVES', 'A-B', 'A.B'])(
    'refuses the name %p with 400',
    async (name) => {
      const org = await freshOrg();
      const res = await create(org, name, { value: 'v' }).expect(400);
      expect(res.body).toEqual({ message: 'invalid variable name', url: 'http://localhost:3000/api/swagger' });
      expect(await storedNames(org)).toEqual([]);
    },
  );

  it.each(['_X', 'X_CI', 'MY_GITEA_URL', 'C'])('accepts the name %p', async (name) => {
    const org = await freshOrg();
    await create(org, name, { value: 'v' }).expect(204);
    expect(await storedNames(org)).toEqual([name]);
  });

  it('refuses an empty value with 400, as other invalid variable input', async () => {
    const org = await freshOrg();
    const res = await create(org, 'NAME', { value: '' }).expect(400);
    expect(res.body.message).toBe('variable value must not be empty');
    expect(await storedNames(org)).toEqual([]);
  });

  it('refuses a body without a value with 422', async () => {
    const org = await freshOrg();
    const res = await create(org, 'NAME', {}).expect(422);
    expect(res.body.message).toMatch(/^\[[Vv]alue\]: /);
  });
});

describe('GET /orgs/{org}/actions/variables', () => {
  it('lists the organization’s variables by name, paged with X-Total-Count and Link', async () => {
    const org = await freshOrg();
    const other = await freshOrg();
    await create(other, 'ELSEWHERE', { value: 'x' }).expect(204);
    for (const name of ['gamma', 'alpha', 'beta']) await create(org, name, { value: `${name} value` }).expect(204);

    const all = await t.request().get(variablesOf(org)).set('Authorization', owner.auth).expect(200);
    expect(all.body).toEqual([
      { owner_id: org.id, repo_id: 0, name: 'ALPHA', data: 'alpha value' },
      { owner_id: org.id, repo_id: 0, name: 'BETA', data: 'beta value' },
      { owner_id: org.id, repo_id: 0, name: 'GAMMA', data: 'gamma value' },
    ]);
    expect(all.headers['x-total-count']).toBe('3');

    const base = `http://localhost:3000${variablesOf(org)}`;
    const page2 = await t
      .request()
      .get(`${variablesOf(org)}?page=2&limit=1`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(page2.body.map((v: { name: string }) => v.name)).toEqual(['BETA']);
    expect(page2.headers['x-total-count']).toBe('3');
    expect(page2.headers.link).toBe(
      `<${base}?page=3&limit=1>; rel="next",<${base}?page=3&limit=1>; rel="last",<${base}?page=1&limit=1>; rel="first",<${base}?page=1&limit=1>; rel="prev"`,
    );
  });
});

describe('GET /orgs/{org}/actions/variables/{variablename}', () => {
  it('answers 404 for an absent variable', async () => {
    const org = await freshOrg();
    const res = await get(org, 'ABSENT').expect(404);
    expect(res.body.message).toBe('variable not found');
  });
});

describe('PUT /orgs/{org}/actions/variables/{variablename}', () => {
  it('changes the value, keeping the name when the body has none', async () => {
    const org = await freshOrg();
    await create(org, 'KEEP', { value: 'old' }).expect(204);
    await update(org, 'keep', { value: 'new\r\nvalue' }).expect(204);
    expect((await get(org, 'KEEP').expect(200)).body).toMatchObject({ name: 'KEEP', data: 'new\nvalue' });
    await update(org, 'KEEP', { name: '', value: 'newer' }).expect(204);
    expect(await storedNames(org)).toEqual(['KEEP']);
  });

  it('renames with the body’s name, upper-cased', async () => {
    const org = await freshOrg();
    await create(org, 'BEFORE', { value: 'v' }).expect(204);
    await update(org, 'BEFORE', { name: 'after', value: 'w' }).expect(204);
    await get(org, 'BEFORE').expect(404);
    expect((await get(org, 'AFTER').expect(200)).body).toMatchObject({ name: 'AFTER', data: 'w' });
    // A different case of its own name is no rename.
    await update(org, 'AFTER', { name: 'After', value: 'x' }).expect(204);
    expect(await storedNames(org)).toEqual(['AFTER']);
  });

  it('answers 409 when renaming onto an existing name, in any case', async () => {
    const org = await freshOrg();
    await create(org, 'ONE', { value: '1' }).expect(204);
    await create(org, 'TWO', { value: '2' }).expect(204);
    const res = await update(org, 'ONE', { name: 'two', value: 'x' }).expect(409);
    expect(res.body.message).toBe('variable name TWO already exists');
    expect((await get(org, 'ONE').expect(200)).body.data).toBe('1');
    expect((await get(org, 'TWO').expect(200)).body.data).toBe('2');
  });

  it('answers 404 for an absent variable, and 400 for an invalid new name', async () => {
    const org = await freshOrg();
    await update(org, 'ABSENT', { value: 'v' }).expect(404);
    await update(org, 'ABSENT', { value: '' }).expect(400);
    await create(org, 'PRESENT', { value: 'v' }).expect(204);
    await update(org, 'PRESENT', { name: 'CI_RENAMED', value: 'v' }).expect(400);
    await update(org, 'PRESENT', { name: 'bad-name', value: 'v' }).expect(400);
    await update(org, 'PRESENT', { value: '' }).expect(400);
    expect((await get(org, 'PRESENT').expect(200)).body.data).toBe('v');
  });
});

describe('DELETE /orgs/{org}/actions/variables/{variablename}', () => {
  it('deletes with 204 in any case, then answers 404', async () => {
    const org = await freshOrg();
    await create(org, 'GONE', { value: 'v' }).expect(204);
    await t
      .request()
      .delete(`${variablesOf(org)}/gone`)
      .set('Authorization', owner.auth)
      .expect(204);
    await get(org, 'GONE').expect(404);
    await t
      .request()
      .delete(`${variablesOf(org)}/GONE`)
      .set('Authorization', owner.auth)
      .expect(404);
  });

  it('answers 400 for a name no variable can have', async () => {
    const org = await freshOrg();
    await t
      .request()
      .delete(`${variablesOf(org)}/CI`)
      .set('Authorization', owner.auth)
      .expect(400);
  });
});

describe('who may use organization variables', () => {
  it('hides a private organization’s variables from outsiders and anonymous callers (404) and refuses members (403)', async () => {
    const org = await freshOrg(2);
    await create(org, 'HIDDEN', { value: 'v' }).expect(204);
    await get(org, 'HIDDEN', outsider.auth).expect(404);
    await t
      .request()
      .get(`${variablesOf(org)}/HIDDEN`)
      .expect(404);
    await t.request().get(variablesOf(org)).expect(404);
    await create(org, 'NEW', { value: 'v' }, outsider.auth).expect(404);
    await get(org, 'HIDDEN', member.auth).expect(403);
    await t.request().get(variablesOf(org)).set('Authorization', member.auth).expect(403);
    await create(org, 'NEW', { value: 'v' }, member.auth).expect(403);
    await update(org, 'HIDDEN', { value: 'x' }, member.auth).expect(403);
    await t
      .request()
      .delete(`${variablesOf(org)}/HIDDEN`)
      .set('Authorization', member.auth)
      .expect(403);
    expect(await storedNames(org)).toEqual(['HIDDEN']);
  });

  it('answers 404 for a missing organization and 401 to anonymous callers of a public one', async () => {
    await t
      .request()
      .get(`/api/v1/orgs/${uniqueName('nope')}/actions/variables`)
      .set('Authorization', owner.auth)
      .expect(404);
    const org = await freshOrg();
    await t.request().get(variablesOf(org)).expect(401);
  });
});
