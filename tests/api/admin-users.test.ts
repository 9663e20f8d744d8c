import fs from 'node:fs';
import path from 'node:path';
import type { components } from '../../generated/api.d.ts';
import { createTestOrg, createTestUser, uniqueName, type TestUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type CreateUserOption = components['schemas']['CreateUserOption'];

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await createTestUser(t, { admin: true });
});
afterAll(() => t.close());

/** Runs `body` with some settings changed, then puts them back. */
async function withSettings<S extends keyof TestApp['context']['settings']>(
  section: S,
  values: Partial<TestApp['context']['settings'][S]>,
  body: () => Promise<void>,
): Promise<void> {
  const target = t.context.settings[section] as Record<string, unknown>;
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, target[key]]));
  Object.assign(target, values);
  try {
    await body();
  } finally {
    Object.assign(target, saved);
  }
}

function newUserBody(overrides: Partial<CreateUserOption> = {}): CreateUserOption {
  const username = uniqueName('new');
  return { username, email: `${username}@example.com`, password: 'a-long-password', ...overrides };
}

const createUser = (body: object, auth = admin.auth) =>
  t.request().post('/api/v1/admin/users').set('Authorization', auth).send(body);
const editUser = (name: string, body: object) =>
  t.request().patch(`/api/v1/admin/users/${name}`).set('Authorization', admin.auth).send(body);

describe('access', () => {
  it('needs a signed-in site administrator', async () => {
    const alice = await createTestUser(t);
    await t.request().get('/api/v1/admin/users').expect(401);
    await t.request().get('/api/v1/admin/users').set('Authorization', alice.auth).expect(403);
    await createUser(newUserBody(), alice.auth).expect(403);
  });
});

describe('POST /admin/users', () => {
  it('creates an active account that must change its password, showing private fields to the admin', async () => {
    const body = newUserBody({ full_name: 'New Person', login_name: 'corp-login' });
    const res = await createUser(body).expect(201);
    expect(res.body).toMatchObject({
      login: body.username,
      full_name: 'New Person',
      email: body.email,
      login_name: 'corp-login',
      source_id: 0,
      active: true,
      is_admin: false,
      restricted: false,
      visibility: 'public',
    });
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored).toMatchObject({ mustChangePassword: true, isActive: true, loginType: 1 });
    expect(await t.context.passwords.verify(stored.passwordHash, body.password!)).toBe(true);
    const emails = await t.context.db.prisma.emailAddress.findMany({ where: { userId: stored.id } });
    expect(emails).toMatchObject([{ email: body.email, isPrimary: true, isActivated: true }]);
  });

  it('takes must_change_password, restricted, visibility and created_at from the body', async () => {
    const created = '2020-02-03T04:05:06Z';
    const res = await createUser(
      newUserBody({ must_change_password: false, restricted: true, visibility: 'limited', created_at: created }),
    ).expect(201);
    expect(res.body).toMatchObject({ restricted: true, visibility: 'limited', created });
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.mustChangePassword).toBe(false);
    expect(stored.visibility).toBe(1);
    expect(stored.createdAt.toISOString()).toBe('2020-02-03T04:05:06.000Z');
    expect(stored.updatedAt.toISOString()).toBe('2020-02-03T04:05:06.000Z');
  });

  it('repeats the login as `username` wherever a user is shown, for older clients (the Gogs SDK reads only that)', async () => {
    const body = newUserBody();
    const created = await createUser(body).expect(201);
    expect(created.body).toMatchObject({ login: body.username, username: body.username });
    const listed = await t
      .request()
      .get('/api/v1/admin/users')
      .query({ login_name: body.username })
      .set('Authorization', admin.auth)
      .expect(200);
    expect(listed.body).toEqual([expect.objectContaining({ login: body.username, username: body.username })]);
    const self = await t.request().get('/api/v1/user').set('Authorization', admin.auth).expect(200);
    expect(self.body.username).toBe(admin.user.name);
    const repo = await t
      .request()
      .post('/api/v1/user/repos')
      .set('Authorization', admin.auth)
      .send({ name: uniqueName('repo') })
      .expect(201);
    expect(repo.body.owner).toMatchObject({ login: admin.user.name, username: admin.user.name });
  });

  it('stores the user name as login name when none is given', async () => {
    const body = newUserBody();
    const res = await createUser(body).expect(201);
    expect(res.body.login_name).toBe(body.username);
  });

  it('maps private visibility to 2', async () => {
    const res = await createUser(newUserBody({ visibility: 'private' })).expect(201);
    expect((await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: res.body.id } })).visibility).toBe(2);
  });

  it.each([
    ['a password shorter than the minimum', { password: 'short' }, 'PasswordIsRequired'],
    ['no password', { password: undefined }, 'PasswordIsRequired'],
  ])('answers 400 for %s', async (_what, overrides, message) => {
    const res = await createUser(newUserBody(overrides)).expect(400);
    expect(res.body.message).toBe(message);
  });

  it('checks password complexity classes when configured', async () => {
    await withSettings('security', { PASSWORD_COMPLEXITY: ['lower', 'upper', 'digit', 'spec'] }, async () => {
      const weak = await createUser(newUserBody({ password: 'alllowercase' })).expect(400);
      expect(weak.body.message).toBe('PasswordComplexity');
      await createUser(newUserBody({ password: 'Mixed-Case-9' })).expect(201);
    });
  });

  it('refuses common breached passwords only when PASSWORD_CHECK_PWN is on', async () => {
    await createUser(newUserBody({ password: 'password123' })).expect(201);
    await withSettings('security', { PASSWORD_CHECK_PWN: true }, async () => {
      const res = await createUser(newUserBody({ password: 'password123' })).expect(400);
      expect(res.body.message).toBe('PasswordPwned');
      await createUser(newUserBody({ password: 'a rare passphrase 42' })).expect(201);
    });
  });

  it.each([
    ['a reserved name', { username: 'admin' }, /reserved/],
    ['a reserved name in another case', { username: 'Explore' }, /reserved/],
    ['a reserved suffix', { username: 'someone.keys' }, /pattern/],
    ['disallowed characters', { username: 'bad name' }, /invalid/],
    ['consecutive special characters', { username: 'bad--name' }, /invalid/],
    ['a trailing special character', { username: 'badname-' }, /invalid/],
    ['a leading special character', { username: '-badname' }, /invalid/],
    ['an e-mail starting with a dash', { email: '-x@example.com' }, /e-mail invalid/],
    ['an e-mail with a line break', { email: 'invalid_email@domain.com\r\n' }, /email|e-mail/],
  ])('answers 422 for %s', async (_what, overrides, message) => {
    const res = await createUser(newUserBody(overrides)).expect(422);
    expect(res.body.message).toMatch(message);
  });

  it('answers 422 for a taken name (any case, users and organizations alike) or e-mail', async () => {
    const body = newUserBody();
    await createUser(body).expect(201);
    const sameName = await createUser(newUserBody({ username: body.username.toUpperCase() })).expect(422);
    expect(sameName.body.message).toMatch(/user already exists/);
    const sameEmail = await createUser(newUserBody({ email: body.email.toUpperCase() })).expect(422);
    expect(sameEmail.body.message).toMatch(/e-mail already in use/);
    const org = await createTestOrg(t, admin.user);
    await createUser(newUserBody({ username: org.name.toUpperCase() })).expect(422);
  });

  it('answers 422 when source_id names no login source, and skips password rules for non-plain sources', async () => {
    await createUser(newUserBody({ source_id: 99999 })).expect(422);
    const source = await t.context.db.prisma.loginSource.create({ data: { type: 2, name: uniqueName('ldap') } });
    const res = await createUser(newUserBody({ source_id: source.id, login_name: 'cn=someone', password: '' })).expect(
      201,
    );
    expect(res.body).toMatchObject({ source_id: source.id, login_name: 'cn=someone' });
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(stored.loginType).toBe(2);
  });

  it('creates users whose e-mail domain conflicts with the lists, with a warning header', async () => {
    await withSettings('service', { EMAIL_DOMAIN_ALLOWLIST: ['example.org'] }, async () => {
      const body = newUserBody({ email: `${uniqueName()}@example1.org` });
      const res = await createUser(body).expect(201);
      const warning = `the domain of user email ${body.email} conflicts with EMAIL_DOMAIN_ALLOWLIST or EMAIL_DOMAIN_BLOCKLIST`;
      expect(res.headers['x-service-warning']).toBe(warning);
      expect(res.headers['x-gitea-warning']).toBe(warning);
      const allowed = await createUser(newUserBody({ email: `${uniqueName()}@example.org` })).expect(201);
      expect(allowed.headers['x-service-warning']).toBeUndefined();
    });
    await withSettings('service', { EMAIL_DOMAIN_BLOCKLIST: ['blocked.test'] }, async () => {
      const res = await createUser(newUserBody({ email: `${uniqueName()}@blocked.test` })).expect(201);
      expect(res.headers['x-service-warning']).toMatch(/conflicts/);
    });
  });

  it('queues a registration mail with send_notify; with the mailer off it goes to the log', async () => {
    const info = jest.spyOn(t.context.log, 'info');
    try {
      const quiet = newUserBody();
      await createUser(quiet).expect(201);
      await t.context.services.mailer.idle();
      expect(info.mock.calls.some(([fields]) => JSON.stringify(fields).includes(quiet.email))).toBe(false);

      const body = newUserBody({ send_notify: true });
      await createUser(body).expect(201);
      await t.context.services.mailer.idle();
      const logged = info.mock.calls.find(([fields]) => (fields as { mail?: { to: string } }).mail?.to === body.email);
      expect(logged).toBeDefined();
      expect(JSON.stringify(logged![0])).toContain(body.username!);
    } finally {
      info.mockRestore();
    }
  });

  it('sends the registration mail through the transport when the mailer is on', async () => {
    const { mailer } = t.context.services;
    const sent: { to: string; subject: string; text: string; from: string }[] = [];
    const saved = mailer.transport;
    mailer.transport = { send: async (message) => void sent.push(message) };
    try {
      const body = newUserBody({ send_notify: true });
      await createUser(body).expect(201);
      await mailer.idle();
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ to: body.email, from: t.context.settings.mailer.FROM });
      expect(sent[0].text).toContain(body.username);
    } finally {
      mailer.transport = saved;
    }
  });

  it('creates exactly one of 50 concurrent accounts with the same name', async () => {
    const username = uniqueName('race');
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        createUser({ username, email: `${username}-${i}@example.com`, password: 'a-long-password' }),
      ),
    );
    const statuses = responses.map((res) => res.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 422)).toHaveLength(49);
    expect(await t.context.db.prisma.user.count({ where: { lowerName: username } })).toBe(1);
  });
});

describe('PATCH /admin/users/{username}', () => {
  it('changes only the fields present', async () => {
    const bob = await createTestUser(t, { fields: { fullName: 'Bob', location: 'Here', website: 'https://bob.test' } });
    const res = await editUser(bob.user.name.toUpperCase(), { full_name: 'Robert', restricted: true }).expect(200);
    expect(res.body).toMatchObject({
      full_name: 'Robert',
      restricted: true,
      location: 'Here',
      website: 'https://bob.test',
    });
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } });
    expect(stored).toMatchObject({
      fullName: 'Robert',
      isRestricted: true,
      location: 'Here',
      email: bob.user.email,
      isAdmin: false,
    });
  });

  it('edits every editable field', async () => {
    const bob = await createTestUser(t);
    const res = await editUser(bob.user.name, {
      must_change_password: true,
      prohibit_login: true,
      full_name: 'F',
      website: 'https://w.test',
      location: 'L',
      description: 'D',
      pronouns: 'they/them',
      active: false,
      admin: true,
      visibility: 'private',
      allow_git_hook: true,
      allow_import_local: true,
      max_repo_creation: 3,
      allow_create_organization: false,
      restricted: true,
    }).expect(200);
    expect(res.body).toMatchObject({
      full_name: 'F',
      website: 'https://w.test',
      location: 'L',
      description: 'D',
      pronouns: 'they/them',
      active: false,
      is_admin: true,
      visibility: 'private',
      prohibit_login: true,
      restricted: true,
    });
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } });
    expect(stored).toMatchObject({
      mustChangePassword: true,
      allowGitHook: true,
      allowImportLocal: true,
      maxRepoCreation: 3,
      allowCreateOrganization: false,
      visibility: 2,
    });
    await editUser(bob.user.name, { visibility: 'public' }).expect(200);
    expect((await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } })).visibility).toBe(0);
  });

  it('answers 422 for an unknown visibility and 404 for an unknown user', async () => {
    const bob = await createTestUser(t);
    await editUser(bob.user.name, { visibility: 'secret' }).expect(422);
    await editUser('nobody-like-this', { full_name: 'x' }).expect(404);
  });

  it('needs source_id and login_name together', async () => {
    const bob = await createTestUser(t);
    await editUser(bob.user.name, { login_name: 'x' }).expect(422);
    await editUser(bob.user.name, { source_id: 0 }).expect(422);
    await editUser(bob.user.name, { source_id: 4242, login_name: 'x' }).expect(422);
    const source = await t.context.db.prisma.loginSource.create({ data: { type: 3, name: uniqueName('smtp') } });
    const res = await editUser(bob.user.name, { source_id: source.id, login_name: 'bob@mail' }).expect(200);
    expect(res.body).toMatchObject({ source_id: source.id, login_name: 'bob@mail' });
    const back = await editUser(bob.user.name, { source_id: 0, login_name: bob.user.name }).expect(200);
    expect(back.body).toMatchObject({ source_id: 0, login_name: bob.user.name });
  });

  it('changes the password under the password rules (400 otherwise)', async () => {
    const bob = await createTestUser(t);
    const short = await editUser(bob.user.name, { password: 'short' }).expect(400);
    expect(short.body.message).toBe('PasswordIsRequired');
    await withSettings('security', { PASSWORD_COMPLEXITY: ['digit'], PASSWORD_CHECK_PWN: true }, async () => {
      expect((await editUser(bob.user.name, { password: 'no-digits-here' }).expect(400)).body.message).toBe(
        'PasswordComplexity',
      );
      expect((await editUser(bob.user.name, { password: 'password123' }).expect(400)).body.message).toBe(
        'PasswordPwned',
      );
    });
    await editUser(bob.user.name, { password: 'a-new-long-password' }).expect(200);
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } });
    expect(await t.context.passwords.verify(stored.passwordHash, 'a-new-long-password')).toBe(true);
  });

  it('adds a new primary e-mail or promotes an existing one', async () => {
    const bob = await createTestUser(t);
    const { prisma } = t.context.db;
    const newEmail = `${uniqueName()}@example.com`;
    const res = await editUser(bob.user.name, { email: newEmail }).expect(200);
    expect(res.body.email).toBe(newEmail);
    let emails = await prisma.emailAddress.findMany({ where: { userId: bob.user.id }, orderBy: { id: 'asc' } });
    expect(emails.map((e) => [e.email, e.isPrimary])).toEqual([
      [bob.user.email, false],
      [newEmail, true],
    ]);

    await editUser(bob.user.name, { email: bob.user.email }).expect(200);
    emails = await prisma.emailAddress.findMany({ where: { userId: bob.user.id }, orderBy: { id: 'asc' } });
    expect(emails.map((e) => [e.email, e.isPrimary])).toEqual([
      [bob.user.email, true],
      [newEmail, false],
    ]);
    expect((await prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } })).email).toBe(bob.user.email);
  });

  it('answers 400 for an invalid e-mail or one another user has', async () => {
    const bob = await createTestUser(t);
    const carol = await createTestUser(t);
    const empty = await editUser(bob.user.name, { email: '' }).expect(400);
    expect(empty.body.message).toBe('e-mail invalid [email: ]');
    await editUser(bob.user.name, { email: 'not-an-address' }).expect(400);
    await editUser(bob.user.name, { email: '-dash@example.com' }).expect(400);
    const used = await editUser(bob.user.name, { email: carol.user.email.toUpperCase() }).expect(400);
    expect(used.body.message).toMatch(/already in use/);
  });

  it('warns about an e-mail domain outside the lists', async () => {
    const bob = await createTestUser(t);
    await withSettings('service', { EMAIL_DOMAIN_ALLOWLIST: ['example.org'] }, async () => {
      const email = `${uniqueName()}@example1.com`;
      const res = await editUser(bob.user.name, { email }).expect(200);
      expect(res.headers['x-service-warning']).toBe(
        `the domain of user email ${email} conflicts with EMAIL_DOMAIN_ALLOWLIST or EMAIL_DOMAIN_BLOCKLIST`,
      );
      expect(res.headers['x-gitea-warning']).toBe(res.headers['x-service-warning']);
      const noEmail = await editUser(bob.user.name, { full_name: 'x' }).expect(200);
      expect(noEmail.headers['x-service-warning']).toBeUndefined();
    });
  });

  it('refuses to remove the last administrator', async () => {
    const { prisma } = t.context.db;
    const others = await prisma.user.findMany({
      where: { isAdmin: true, id: { not: admin.user.id } },
      select: { id: true },
    });
    await prisma.user.updateMany({ where: { id: { in: others.map((u) => u.id) } }, data: { isAdmin: false } });
    try {
      const res = await editUser(admin.user.name, { admin: false }).expect(400);
      expect(res.body.message).toMatch(/last admin/);
      const second = await createTestUser(t, { admin: true });
      await editUser(second.user.name, { admin: false }).expect(200);
    } finally {
      await prisma.user.updateMany({ where: { id: { in: others.map((u) => u.id) } }, data: { isAdmin: true } });
    }
  });
});

describe('DELETE /admin/users/{username}', () => {
  const deleteUser = (name: string, query = '') =>
    t.request().delete(`/api/v1/admin/users/${name}${query}`).set('Authorization', admin.auth);

  async function repositoryOnDisk(owner: { id: number; name: string; lowerName: string }, name = uniqueName('repo')) {
    const repo = await t.context.db.prisma.repository.create({
      data: { ownerId: owner.id, ownerName: owner.name, name, lowerName: name.toLowerCase() },
    });
    const dir = path.join(t.context.settings.repository.ROOT, owner.lowerName, `${repo.lowerName}.git`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'HEAD'), 'ref: refs/heads/main\n');
    return { repo, dir };
  }

  it('deletes a user who owns nothing, with their e-mails, tokens and keys', async () => {
    const bob = await createTestUser(t);
    await deleteUser(bob.user.name).expect(204);
    const { prisma } = t.context.db;
    expect(await prisma.user.findUnique({ where: { id: bob.user.id } })).toBeNull();
    expect(await prisma.emailAddress.count({ where: { userId: bob.user.id } })).toBe(0);
    expect(await prisma.accessToken.count({ where: { userId: bob.user.id } })).toBe(0);
    await deleteUser(bob.user.name).expect(404);
  });

  it('answers 422 for an organization and for yourself', async () => {
    const org = await createTestOrg(t, admin.user);
    expect((await deleteUser(org.name).expect(422)).body.message).toMatch(/organization/);
    expect((await deleteUser(admin.user.name).expect(422)).body.message).toMatch(/yourself/);
  });

  it('answers 422 while the user owns repositories, belongs to organizations or owns packages', async () => {
    const { prisma } = t.context.db;
    const withRepo = await createTestUser(t);
    await repositoryOnDisk(withRepo.user);
    expect((await deleteUser(withRepo.user.name).expect(422)).body.message).toMatch(/repositories/);

    const member = await createTestUser(t);
    await createTestOrg(t, member.user);
    expect((await deleteUser(member.user.name).expect(422)).body.message).toMatch(/organizations/);

    const packager = await createTestUser(t);
    await prisma.package.create({
      data: { ownerId: packager.user.id, type: 'generic', name: 'tool', lowerName: 'tool' },
    });
    expect((await deleteUser(packager.user.name).expect(422)).body.message).toMatch(/packages/);
  });

  it('purges a user with everything they own, repositories on disk and avatars included', async () => {
    const { prisma } = t.context.db;
    const bob = await createTestUser(t);
    const first = await repositoryOnDisk(bob.user);
    const second = await repositoryOnDisk(bob.user);
    const soleOwned = await createTestOrg(t, bob.user);
    const orgRepo = await repositoryOnDisk(soleOwned);
    const orgAvatar = path.join(t.dataDir, 'avatars', 'f'.repeat(64));
    fs.mkdirSync(path.dirname(orgAvatar), { recursive: true });
    fs.writeFileSync(orgAvatar, 'png');
    await prisma.user.update({ where: { id: soleOwned.id }, data: { avatar: 'f'.repeat(64) } });
    const shared = await createTestOrg(t, admin.user);
    await prisma.orgUser.create({ data: { orgId: shared.id, userId: bob.user.id } });
    await prisma.package.create({ data: { ownerId: bob.user.id, type: 'generic', name: 'tool', lowerName: 'tool' } });
    const carol = await createTestUser(t);
    await prisma.star.create({ data: { userId: carol.user.id, repoId: first.repo.id } });
    await prisma.follow.create({ data: { userId: carol.user.id, followId: bob.user.id } });
    await prisma.user.update({ where: { id: carol.user.id }, data: { numFollowing: 1, numStars: 1 } });

    await deleteUser(bob.user.name, '?purge=true').expect(204);

    for (const { dir } of [first, second, orgRepo]) expect(fs.existsSync(dir)).toBe(false);
    expect(fs.existsSync(orgAvatar)).toBe(false);
    expect(fs.existsSync(path.join(t.context.settings.repository.ROOT, bob.user.lowerName))).toBe(false);
    expect(
      await prisma.repository.count({ where: { id: { in: [first.repo.id, second.repo.id, orgRepo.repo.id] } } }),
    ).toBe(0);
    expect(await prisma.user.findUnique({ where: { id: bob.user.id } })).toBeNull();
    expect(await prisma.user.findUnique({ where: { id: soleOwned.id } })).toBeNull();
    expect(await prisma.user.findUnique({ where: { id: shared.id } })).not.toBeNull();
    expect(await prisma.orgUser.count({ where: { userId: bob.user.id } })).toBe(0);
    expect(await prisma.package.count({ where: { ownerId: bob.user.id } })).toBe(0);
    expect(await prisma.star.count({ where: { repoId: first.repo.id } })).toBe(0);
    expect(await prisma.user.findUniqueOrThrow({ where: { id: carol.user.id } })).toMatchObject({
      numFollowing: 0,
      numStars: 0,
    });
  });
});

describe('POST /admin/users/{username}/rename', () => {
  const rename = (name: string, newName: string) =>
    t
      .request()
      .post(`/api/v1/admin/users/${name}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: newName });

  it('renames, moves the repositories, and leaves a 307 redirect from the old name for API paths', async () => {
    const { prisma } = t.context.db;
    const bob = await createTestUser(t);
    const oldName = bob.user.name;
    const newName = uniqueName('Renamed');
    const repoName = uniqueName('repo');
    const repo = await prisma.repository.create({
      data: { ownerId: bob.user.id, ownerName: oldName, name: repoName, lowerName: repoName },
    });
    const oldDir = path.join(t.context.settings.repository.ROOT, bob.user.lowerName, `${repoName}.git`);
    fs.mkdirSync(oldDir, { recursive: true });

    await rename(oldName, newName).expect(204);

    const stored = await prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } });
    expect(stored).toMatchObject({ name: newName, lowerName: newName.toLowerCase() });
    expect((await prisma.repository.findUniqueOrThrow({ where: { id: repo.id } })).ownerName).toBe(newName);
    expect(fs.existsSync(oldDir)).toBe(false);
    expect(fs.existsSync(path.join(t.context.settings.repository.ROOT, newName.toLowerCase(), `${repoName}.git`))).toBe(
      true,
    );

    const redirected = await t
      .request()
      .patch(`/api/v1/admin/users/${oldName}?x=1&y=two`)
      .set('Authorization', admin.auth)
      .send({ full_name: 'x' })
      .expect(307);
    expect(redirected.headers.location).toBe(`/api/v1/admin/users/${newName}?x=1&y=two`);
    const tokens = await t
      .request()
      .get(`/api/v1/users/${oldName.toUpperCase()}/tokens`)
      .set('Authorization', bob.auth)
      .expect(307);
    expect(tokens.headers.location).toBe(`/api/v1/users/${newName}/tokens`);
    // The new name answers normally.
    await t
      .request()
      .patch(`/api/v1/admin/users/${newName}`)
      .set('Authorization', admin.auth)
      .send({ full_name: 'x' })
      .expect(200);
    // The old name, renamed towards a taken name, is redirected before anything else (as in Forgejo's test).
    await rename(oldName, admin.user.name).expect(307);
  });

  it('redirects any operation whose username, org or owner parameter names a renamed owner', async () => {
    const org = await createTestOrg(t, admin.user);
    const oldName = uniqueName('oldorg');
    await t.context.db.prisma.userRedirect.create({
      data: { lowerName: oldName.toLowerCase(), redirectUserId: org.id },
    });
    const orgRes = await t.request().get(`/api/v1/orgs/${oldName}?page=2`).set('Authorization', admin.auth).expect(307);
    expect(orgRes.headers.location).toBe(`/api/v1/orgs/${org.name}?page=2`);
    const repoRes = await t
      .request()
      .get(`/api/v1/repos/${oldName.toUpperCase()}/some-repo`)
      .set('Authorization', admin.auth)
      .expect(307);
    expect(repoRes.headers.location).toBe(`/api/v1/repos/${org.name}/some-repo`);
    // A name that was never anyone's is simply not found.
    await t
      .request()
      .patch(`/api/v1/admin/users/${uniqueName('never')}`)
      .set('Authorization', admin.auth)
      .send({})
      .expect(404);
  });

  it('allows a case-only rename and a no-op rename without a redirect', async () => {
    const bob = await createTestUser(t);
    await rename(bob.user.name, bob.user.name).expect(204);
    await rename(bob.user.name, bob.user.name.toUpperCase()).expect(204);
    const stored = await t.context.db.prisma.user.findUniqueOrThrow({ where: { id: bob.user.id } });
    expect(stored.name).toBe(bob.user.name.toUpperCase());
    expect(await t.context.db.prisma.userRedirect.count({ where: { redirectUserId: bob.user.id } })).toBe(0);
  });

  it('answers 422 for an organization, a taken, reserved or malformed name', async () => {
    const bob = await createTestUser(t);
    const org = await createTestOrg(t, admin.user);
    await t
      .request()
      .post(`/api/v1/admin/users/${org.name}/rename`)
      .set('Authorization', admin.auth)
      .send({ new_username: uniqueName() })
      .expect(422);
    await rename(bob.user.name, admin.user.name.toUpperCase()).expect(422);
    await rename(bob.user.name, org.name).expect(422);
    await rename(bob.user.name, 'api').expect(422);
    await rename(bob.user.name, 'x.rss').expect(422);
    await rename(bob.user.name, 'bad name').expect(422);
    await rename('nobody-like-this', uniqueName()).expect(404);
  });

  it('lets a new account take a freed name, which ends the redirect; renaming back works too', async () => {
    const bob = await createTestUser(t);
    const oldName = bob.user.name;
    const newName = uniqueName();
    await rename(oldName, newName).expect(204);
    await rename(newName, oldName).expect(204);
    await t.request().patch(`/api/v1/admin/users/${oldName}`).set('Authorization', admin.auth).send({}).expect(200);
    await t.request().patch(`/api/v1/admin/users/${newName}`).set('Authorization', admin.auth).send({}).expect(307);

    const third = uniqueName();
    await rename(oldName, third).expect(204);
    await createUser(newUserBody({ username: oldName })).expect(201);
    await t.request().patch(`/api/v1/admin/users/${oldName}`).set('Authorization', admin.auth).send({}).expect(200);
  });
});

describe('GET /admin/users', () => {
  it('counts users and organizations afresh after every change, also between two identical lists', async () => {
    const totals = async () => {
      const users = await t.request().get('/api/v1/admin/users?limit=1').set('Authorization', admin.auth).expect(200);
      const orgs = await t.request().get('/api/v1/admin/orgs?limit=1').set('Authorization', admin.auth).expect(200);
      return { users: Number(users.headers['x-total-count']), orgs: Number(orgs.headers['x-total-count']) };
    };
    const before = await totals();
    expect(await totals()).toEqual(before);
    const body = newUserBody();
    await createUser(body).expect(201);
    expect(await totals()).toEqual({ users: before.users + 1, orgs: before.orgs });
    const org = await createTestOrg(t, admin.user);
    expect(await totals()).toEqual({ users: before.users + 1, orgs: before.orgs + 1 });
    await t.request().delete(`/api/v1/orgs/${org.name}`).set('Authorization', admin.auth).expect(204);
    await t.request().delete(`/api/v1/admin/users/${body.username}`).set('Authorization', admin.auth).expect(204);
    expect(await totals()).toEqual(before);
  });

  it('lists individual users only, alphabetically, paged with Link headers', async () => {
    const org = await createTestOrg(t, admin.user);
    const res = await t.request().get('/api/v1/admin/users?limit=50').set('Authorization', admin.auth).expect(200);
    const total = Number(res.headers['x-total-count']);
    expect(total).toBe(await t.context.db.prisma.user.count({ where: { type: 0 } }));
    const logins: string[] = res.body.map((u: { login: string }) => u.login);
    expect(logins).not.toContain(org.name);
    expect(logins).toEqual([...logins].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    expect(res.body.find((u: { login: string }) => u.login === admin.user.name)).toMatchObject({
      is_admin: true,
      login_name: admin.user.loginName,
    });

    const page2 = await t
      .request()
      .get('/api/v1/admin/users?limit=2&page=2')
      .set('Authorization', admin.auth)
      .expect(200);
    expect(page2.body.map((u: { login: string }) => u.login)).toEqual(logins.slice(2, 4));
    expect(page2.headers.link).toContain('rel="next"');
    expect(page2.headers.link).toContain('rel="prev"');
    expect(page2.headers.link).toContain('http://localhost:3000/api/v1/admin/users?limit=2&page=3');
  });

  it('filters by source_id and login_name', async () => {
    const source = await t.context.db.prisma.loginSource.create({ data: { type: 2, name: uniqueName('ldap') } });
    const a = await createUser(newUserBody({ source_id: source.id, login_name: 'uid=a' })).expect(201);
    const b = await createUser(newUserBody({ source_id: source.id, login_name: 'uid=b' })).expect(201);
    const bySource = await t
      .request()
      .get(`/api/v1/admin/users?source_id=${source.id}`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(bySource.body.map((u: { id: number }) => u.id).sort()).toEqual([a.body.id, b.body.id].sort());
    const byLogin = await t
      .request()
      .get(`/api/v1/admin/users?source_id=${source.id}&login_name=uid=b`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(byLogin.body.map((u: { id: number }) => u.id)).toEqual([b.body.id]);
    const plainByLogin = await t
      .request()
      .get(`/api/v1/admin/users?login_name=${admin.user.loginName}`)
      .set('Authorization', admin.auth)
      .expect(200);
    expect(plainByLogin.body.map((u: { id: number }) => u.id)).toEqual([admin.user.id]);
  });

  it('sorts as asked', async () => {
    const get = async (sort: string) =>
      (
        await t.request().get(`/api/v1/admin/users?sort=${sort}&limit=50`).set('Authorization', admin.auth).expect(200)
      ).body.map((u: { id: number }) => u.id);
    const oldest = await get('oldest');
    expect(await get('newest')).toEqual([...oldest].reverse());
    const alphabetical = await get('alphabetically');
    expect(await get('reversealphabetically')).toEqual([...alphabetical].reverse());
    await t.request().get('/api/v1/admin/users?sort=sideways').set('Authorization', admin.auth).expect(422);
  });
});
