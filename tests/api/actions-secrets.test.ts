import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { User } from '../../src/db/prisma.ts';
import { ownerScope } from '../../src/domain/action-scope.ts';
import { GENERATED_KEY_FILE } from '../../src/crypto/at-rest-key.ts';
import { addTestOrgMember, createTestOrg, createTestUser, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startSecondApp } from '../helpers/second-app.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let owner: TestUser;
let member: TestUser;
let outsider: TestUser;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  owner = await createTestUser(t);
  member = await createTestUser(t);
  outsider = await createTestUser(t);
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

async function freshOrg(visibility: 0 | 1 | 2 = 0): Promise<User> {
  const org = await createTestOrg(t, owner.user, { visibility });
  await addTestOrgMember(t, org, member.user, { accessMode: 2 });
  return org;
}

const secretsOf = (org: User) => `/api/v1/orgs/${org.name}/actions/secrets`;

function put(org: User, name: string, body: object, auth = owner.auth) {
  return t
    .request()
    .put(`${secretsOf(org)}/${name}`)
    .set('Authorization', auth)
    .send(body);
}

async function storedRows(org: User) {
  return t.context.db.prisma.secret.findMany({ where: { ownerId: org.id }, orderBy: { name: 'asc' } });
}

describe('PUT /orgs/{org}/actions/secrets/{secretname}', () => {
  it('answers 201 for a new secret and 204 when it replaces one, whatever the case of the name', async () => {
    const org = await freshOrg();
    const created = await put(org, 'deploy_key', { data: 'first value' }).expect(201);
    expect(created.text).toBe('');
    await put(org, 'Deploy_Key', { data: 'second value' }).expect(204);
    await put(org, 'DEPLOY_KEY', { data: 'third value' }).expect(204);
    const rows = await storedRows(org);
    expect(rows.map((row) => row.name)).toEqual(['DEPLOY_KEY']);
    expect(await t.context.repos.actionSecrets.values(ownerScope(org))).toEqual(
      new Map([['DEPLOY_KEY', 'third value']]),
    );
  });

  it.each([
    ['ci', 'CI'],
    ['_underscore', '_UNDERSCORE'],
    ['a1_b2', 'A1_B2'],
    ['MY_GITHUB_TOKEN', 'MY_GITHUB_TOKEN'],
    ['FORGEJOX', 'FORGEJOX'],
  ])('accepts the name %p and stores it as %p', async (name, stored) => {
    const org = await freshOrg();
    await put(org, name, { data: 'v' }).expect(201);
    expect((await storedRows(org)).map((row) => row.name)).toEqual([stored]);
  });

  it.each(['1ABC', 'A-B', 'A.B', 'A%20B', 'GITEA_X', 'github_token', 'Forgejo_Token', 'ÄB'])(
    'refuses the name %p with 400',
    async (name) => {
      const org = await freshOrg();
      const res = await put(org, name, { data: 'the value' }).expect(400);
      expect(res.body).toEqual({ message: 'invalid secret name', url: 'http://localhost:3000/api/swagger' });
      expect(await storedRows(org)).toEqual([]);
    },
  );

  it('refuses empty data with 400 (interface rule 13) and stores nothing', async () => {
    const org = await freshOrg();
    const res = await put(org, 'NAME', { data: '' }).expect(400);
    expect(res.body.message).toBe('secret data must not be empty');
    expect(await storedRows(org)).toEqual([]);
  });

  it.each([
    ['no data', {}],
    ['data that is not a string', { data: 42 }],
  ])('refuses %s with 422', async (_case, body) => {
    const org = await freshOrg();
    const res = await put(org, 'NAME', body).expect(422);
    expect(res.body.message).toMatch(/^\[[Dd]ata\]: /);
    expect(await storedRows(org)).toEqual([]);
  });

  it('checks the body before the name, as Forgejo binds the body first', async () => {
    const org = await freshOrg();
    await put(org, 'GITEA_X', {}).expect(422);
  });

  it('answers 404 for a missing organization', async () => {
    await put({ name: uniqueName('nope') } as User, 'NAME', { data: 'v' }).expect(404);
  });

  it('keeps the value byte for byte, line breaks included', async () => {
    const org = await freshOrg();
    const value = 'line one\r\nline two\n  ünïcødé ✓ \t';
    await put(org, 'MULTI', { data: value }).expect(201);
    expect((await t.context.repos.actionSecrets.values(ownerScope(org))).get('MULTI')).toBe(value);
  });
});

describe('GET /orgs/{org}/actions/secrets', () => {
  it('lists names and creation times only, paged with X-Total-Count and Link', async () => {
    const org = await freshOrg();
    for (const name of ['charlie', 'alpha', 'bravo']) await put(org, name, { data: `value of ${name}` }).expect(201);

    const all = await t.request().get(secretsOf(org)).set('Authorization', owner.auth).expect(200);
    expect(all.body).toEqual(
      ['ALPHA', 'BRAVO', 'CHARLIE'].map((name) => ({
        name,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      })),
    );
    expect(all.headers['x-total-count']).toBe('3');
    expect(all.text).not.toContain('value of');

    const first = await t
      .request()
      .get(`${secretsOf(org)}?limit=2`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(first.body.map((s: { name: string }) => s.name)).toEqual(['ALPHA', 'BRAVO']);
    expect(first.headers['x-total-count']).toBe('3');
    const base = `http://localhost:3000${secretsOf(org)}`;
    expect(first.headers.link).toBe(`<${base}?limit=2&page=2>; rel="next",<${base}?limit=2&page=2>; rel="last"`);

    const second = await t
      .request()
      .get(`${secretsOf(org)}?limit=2&page=2`)
      .set('Authorization', owner.auth)
      .expect(200);
    expect(second.body.map((s: { name: string }) => s.name)).toEqual(['CHARLIE']);
    expect(second.headers.link).toBe(`<${base}?limit=2&page=1>; rel="first",<${base}?limit=2&page=1>; rel="prev"`);
  });

  it('lists an organization without secrets as empty, and only that organization’s secrets', async () => {
    const org = await freshOrg();
    const other = await freshOrg();
    await put(other, 'ELSEWHERE', { data: 'v' }).expect(201);
    const res = await t.request().get(secretsOf(org)).set('Authorization', owner.auth).expect(200);
    expect(res.body).toEqual([]);
    expect(res.headers['x-total-count']).toBe('0');
  });
});

describe('DELETE /orgs/{org}/actions/secrets/{secretname}', () => {
  it('deletes by name in any case, then answers 404', async () => {
    const org = await freshOrg();
    await put(org, 'TO_GO', { data: 'v' }).expect(201);
    await put(org, 'TO_STAY', { data: 'v' }).expect(201);
    await t
      .request()
      .delete(`${secretsOf(org)}/to_go`)
      .set('Authorization', owner.auth)
      .expect(204);
    expect((await storedRows(org)).map((row) => row.name)).toEqual(['TO_STAY']);
    await t
      .request()
      .delete(`${secretsOf(org)}/TO_GO`)
      .set('Authorization', owner.auth)
      .expect(404);
  });

  it('answers 404 for a secret that never existed and 400 for a name no secret can have', async () => {
    const org = await freshOrg();
    await t
      .request()
      .delete(`${secretsOf(org)}/NEVER`)
      .set('Authorization', owner.auth)
      .expect(404);
    await t
      .request()
      .delete(`${secretsOf(org)}/GITEA_TOKEN`)
      .set('Authorization', owner.auth)
      .expect(400);
  });
});

describe('who may use organization secrets', () => {
  it('hides a private organization’s secrets from outsiders and anonymous callers (404) and refuses members (403)', async () => {
    const org = await freshOrg(2);
    await put(org, 'PRIVATE', { data: 'v' }).expect(201);
    for (const auth of [outsider.auth, undefined]) {
      const withAuth = (req: ReturnType<ReturnType<TestApp['request']>['get']>) =>
        auth ? req.set('Authorization', auth) : req;
      await withAuth(t.request().get(secretsOf(org))).expect(404);
      await withAuth(t.request().put(`${secretsOf(org)}/PRIVATE`))
        .send({ data: 'x' })
        .expect(404);
      await withAuth(t.request().delete(`${secretsOf(org)}/PRIVATE`)).expect(404);
    }
    await t.request().get(secretsOf(org)).set('Authorization', member.auth).expect(403);
    await put(org, 'PRIVATE', { data: 'x' }, member.auth).expect(403);
    await t
      .request()
      .delete(`${secretsOf(org)}/PRIVATE`)
      .set('Authorization', member.auth)
      .expect(403);
    expect(await t.context.repos.actionSecrets.values(ownerScope(org))).toEqual(new Map([['PRIVATE', 'v']]));
  });

  it('asks anonymous callers of a public organization to sign in (401) and refuses non-owners (403)', async () => {
    const org = await freshOrg();
    await t.request().get(secretsOf(org)).expect(401);
    await t
      .request()
      .put(`${secretsOf(org)}/X`)
      .send({ data: 'x' })
      .expect(401);
    await t.request().get(secretsOf(org)).set('Authorization', outsider.auth).expect(403);
    await t.request().get(secretsOf(org)).set('Authorization', member.auth).expect(403);
  });

  it('lets site admins in, and needs the organization scope at the request’s level', async () => {
    const org = await freshOrg(2);
    await put(org, 'BY_ADMIN', { data: 'v' }, admin.auth).expect(201);
    await t.request().get(secretsOf(org)).set('Authorization', admin.auth).expect(200);
    const reader = await createTestUser(t, { scopes: 'read:organization' });
    const readOnlyOrg = await createTestOrg(t, reader.user);
    await t.request().get(secretsOf(readOnlyOrg)).set('Authorization', reader.auth).expect(200);
    await put(readOnlyOrg, 'NOPE', { data: 'v' }, reader.auth).expect(403);
  });
});

describe('secret values at rest', () => {
  it('stores ciphertext, never the value, and two equal values as different ciphertexts', async () => {
    const org = await freshOrg();
    const value = 'hunter2-the-same-value';
    await put(org, 'FIRST', { data: value }).expect(201);
    await put(org, 'SECOND', { data: value }).expect(201);
    const rows = await storedRows(org);
    for (const row of rows) {
      expect(row.data).toMatch(/^enc1:[0-9a-f]{8}:[A-Za-z0-9+/]+=*$/);
      expect(row.data).not.toContain(value);
      expect(row.data).not.toContain(Buffer.from(value).toString('base64'));
    }
    expect(rows[0].data).not.toBe(rows[1].data);
    // Replacing a value with itself writes a new ciphertext too.
    await put(org, 'FIRST', { data: value }).expect(204);
    expect((await storedRows(org))[0].data).not.toBe(rows[0].data);
    expect(await t.context.repos.actionSecrets.values(ownerScope(org))).toEqual(
      new Map([
        ['FIRST', value],
        ['SECOND', value],
      ]),
    );
  });

  it('does not open a ciphertext moved to another row', async () => {
    const org = await freshOrg();
    await put(org, 'SOURCE', { data: 'moved' }).expect(201);
    await put(org, 'TARGET', { data: 'kept' }).expect(201);
    const [source, target] = await storedRows(org);
    await t.context.db.prisma.secret.update({ where: { id: target.id }, data: { data: source.data } });
    await expect(t.context.repos.actionSecrets.values(ownerScope(org))).rejects.toThrow(/does not authenticate/);
  });

  it('generates a key file readable by its owner only, and a restarted app decrypts with it', async () => {
    const keyFile = path.join(t.dataDir, GENERATED_KEY_FILE);
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const keyBefore = fs.readFileSync(keyFile, 'utf8');
    const org = await freshOrg();
    await put(org, 'SURVIVES', { data: 'across restarts' }).expect(201);

    const restarted = await startSecondApp(t);
    try {
      expect(fs.readFileSync(keyFile, 'utf8')).toBe(keyBefore);
      expect(await restarted.context.repos.actionSecrets.values(ownerScope(org))).toEqual(
        new Map([['SURVIVES', 'across restarts']]),
      );
      await restarted
        .request()
        .put(`${secretsOf(org)}/SURVIVES`)
        .set('Authorization', owner.auth)
        .send({ data: 'changed there' })
        .expect(204);
    } finally {
      await restarted.close();
    }
    expect(await t.context.repos.actionSecrets.values(ownerScope(org))).toEqual(
      new Map([['SURVIVES', 'changed there']]),
    );
  });

  it('derives the key from [security] SECRET_KEY when set, writes no key file, and names a changed key', async () => {
    const keyed = await startTestApp({ ANVIL__security__SECRET_KEY: 'a configured secret key' });
    try {
      expect(fs.existsSync(path.join(keyed.dataDir, GENERATED_KEY_FILE))).toBe(false);
      const keyedOwner = await createTestUser(keyed);
      const org = await createTestOrg(keyed, keyedOwner.user);
      await keyed
        .request()
        .put(`${secretsOf(org)}/KEYED`)
        .set('Authorization', keyedOwner.auth)
        .send({ data: 'under the setting' })
        .expect(201);

      const sameKey = await startSecondApp(keyed, { ANVIL__security__SECRET_KEY: 'a configured secret key' });
      try {
        expect(await sameKey.context.repos.actionSecrets.values(ownerScope(org))).toEqual(
          new Map([['KEYED', 'under the setting']]),
        );
      } finally {
        await sameKey.close();
      }
      const otherKey = await startSecondApp(keyed, { ANVIL__security__SECRET_KEY: 'another key' });
      try {
        await expect(otherKey.context.repos.actionSecrets.values(ownerScope(org))).rejects.toThrow(
          /encrypted under another key/,
        );
      } finally {
        await otherKey.close();
      }
    } finally {
      await keyed.close();
    }
  });

  it('writes no value into any answer or log line, even for refused requests', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const logged = await startSecondApp(t, {}, pino({ level: 'trace' }, sink));
    try {
      const org = await freshOrg();
      const value = 'never-shown-4f1c2a';
      const bodies: string[] = [];
      const send = async (req: ReturnType<ReturnType<TestApp['request']>['put']>) => bodies.push((await req).text);
      await send(
        logged
          .request()
          .put(`${secretsOf(org)}/SHOWN`)
          .set('Authorization', owner.auth)
          .send({ data: value }),
      );
      await send(
        logged
          .request()
          .put(`${secretsOf(org)}/SHOWN`)
          .set('Authorization', owner.auth)
          .send({ data: value }),
      );
      await send(
        logged
          .request()
          .put(`${secretsOf(org)}/GITHUB_X`)
          .set('Authorization', owner.auth)
          .send({ data: value }),
      );
      await send(
        logged
          .request()
          .put(`${secretsOf(org)}/SHOWN`)
          .set('Authorization', member.auth)
          .send({ data: value }),
      );
      await send(
        logged
          .request()
          .put(`${secretsOf(org)}/SHOWN`)
          .set('Authorization', owner.auth)
          .send({ data: value, extra: { deep: value } }),
      );
      await send(
        logged
          .request()
          .put(`${secretsOf(org)}/SHOWN`)
          .set('Authorization', owner.auth)
          .set('Content-Type', 'application/json')
          .send(`{"data": "${value}"`),
      );
      await send(logged.request().get(secretsOf(org)).set('Authorization', owner.auth));
      await send(
        logged
          .request()
          .delete(`${secretsOf(org)}/SHOWN`)
          .set('Authorization', owner.auth),
      );
      expect(bodies.join('\n')).not.toContain(value);
      expect(lines.join('\n')).not.toContain(value);
    } finally {
      await logged.close();
    }
  });
});
