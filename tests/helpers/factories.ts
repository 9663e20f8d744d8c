// Small factories that make users, tokens and organizations through the services, with unique names.
import { randomBytes } from 'node:crypto';
import { InvalidScopeError, parseScope } from '../../src/auth/scopes.ts';
import type { User, UserChangesRow } from '../../src/db/entities.ts';
import type { TestApp } from './test-app.ts';

export function uniqueName(prefix = 'u'): string {
  return `${prefix}${randomBytes(4).toString('hex')}`;
}

export interface TestUser {
  user: User;
  password: string;
  /** A token with the `all` scope unless other scopes were asked for. */
  token: string;
  /** Authorization header value for the token. */
  auth: string;
}

export async function createTestUser(
  t: TestApp,
  options: {
    admin?: boolean;
    name?: string;
    scopes?: string;
    mustChangePassword?: boolean;
    fields?: UserChangesRow;
  } = {},
): Promise<TestUser> {
  const name = options.name ?? uniqueName();
  const password = 'password-' + randomBytes(4).toString('hex');
  let user = await t.context.services.users.create({
    username: name,
    email: `${name}@example.com`,
    password,
    isAdmin: options.admin ?? false,
    mustChangePassword: options.mustChangePassword ?? false,
  });
  if (options.fields) user = await t.context.repos.users.update(user.id, options.fields);
  const token = await createToken(t, user, options.scopes ?? 'all');
  return { user, password, token, auth: `token ${token}` };
}

/**
 * `scope` is a comma-separated list, as a token stores it. A scope the service refuses is written over the made
 * token's, as a row an older version left behind would hold it.
 */
export async function createToken(t: TestApp, user: User, scope = 'all'): Promise<string> {
  const valid = isValidScope(scope);
  const scopes = valid ? scope.split(',') : [];
  const { token, secret } = await t.context.services.accessTokens.create(user, uniqueName('token'), scopes);
  if (!valid) await t.context.db.prisma.accessToken.update({ where: { id: token.id }, data: { scope } });
  return secret;
}

function isValidScope(scope: string): boolean {
  try {
    parseScope(scope);
    return true;
  } catch (error) {
    if (error instanceof InvalidScopeError) return false;
    throw error;
  }
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/** An organization made by the org service: an Owners team (owner level, all repositories) holding the owner. */
export async function createTestOrg(
  t: TestApp,
  owner: User,
  options: { name?: string; visibility?: 0 | 1 | 2 } = {},
): Promise<User> {
  const name = options.name ?? uniqueName('org');
  const visibility = (['public', 'limited', 'private'] as const)[options.visibility ?? 0];
  return t.context.services.orgs.createForUser(owner, { username: name, visibility });
}

/** Adds a user to an organization through a team of the given level (made on first use per level). */
export async function addTestOrgMember(
  t: TestApp,
  org: User,
  user: User,
  options: { accessMode?: 1 | 2 | 3; canCreateOrgRepo?: boolean; isPublic?: boolean } = {},
): Promise<void> {
  const { prisma } = t.context.db;
  const accessMode = options.accessMode ?? 1;
  const canCreateOrgRepo = options.canCreateOrgRepo ?? false;
  const teamName = `level${accessMode}${canCreateOrgRepo ? 'creators' : ''}`;
  const team = await prisma.team.upsert({
    where: { orgId_lowerName: { orgId: org.id, lowerName: teamName } },
    create: { orgId: org.id, name: teamName, lowerName: teamName, accessMode, canCreateOrgRepo },
    update: {},
  });
  await prisma.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: user.id } });
  await prisma.team.update({ where: { id: team.id }, data: { numMembers: { increment: 1 } } });
  await prisma.orgUser.upsert({
    where: { userId_orgId: { userId: user.id, orgId: org.id } },
    create: { orgId: org.id, userId: user.id, isPublic: options.isPublic ?? false },
    update: {},
  });
}

/** Makes a team in the organization with the given body, puts the user in it and, when named, the repository; its id. */
export async function memberOfTeam(
  t: TestApp,
  org: User,
  owner: TestUser,
  user: User,
  body: Record<string, unknown>,
  repoName?: string,
): Promise<number> {
  const team = await t
    .request()
    .post(`/api/v1/orgs/${org.name}/teams`)
    .set('Authorization', owner.auth)
    .send({ name: uniqueName('team'), ...body })
    .expect(201);
  await t
    .request()
    .put(`/api/v1/teams/${team.body.id}/members/${user.name}`)
    .set('Authorization', owner.auth)
    .expect(204);
  if (repoName)
    await t
      .request()
      .put(`/api/v1/teams/${team.body.id}/repos/${org.name}/${repoName}`)
      .set('Authorization', owner.auth)
      .expect(204);
  return team.body.id;
}
