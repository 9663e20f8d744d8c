// Small factories that make data straight through services and Prisma, with unique names.
import { randomBytes } from 'node:crypto';
import { hashAccessToken, lastEight, newAccessToken } from '../../src/auth/access-token.ts';
import type { User } from '../../src/db/prisma.ts';
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
  options: { admin?: boolean; name?: string; scopes?: string; mustChangePassword?: boolean; fields?: Partial<User> } = {},
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
  if (options.fields) user = await t.context.db.prisma.user.update({ where: { id: user.id }, data: options.fields });
  const token = await createToken(t, user, options.scopes ?? 'all');
  return { user, password, token, auth: `token ${token}` };
}

export async function createToken(t: TestApp, user: User, scope = 'all'): Promise<string> {
  const secret = newAccessToken();
  await t.context.db.prisma.accessToken.create({
    data: { userId: user.id, name: uniqueName('token'), tokenHash: hashAccessToken(secret), tokenLastEight: lastEight(secret), scope },
  });
  return secret;
}

export function basicAuth(username: string, password: string): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

/**
 * An organization as the org service makes one: an Owners team (owner level, all repositories, may create
 * repositories) holding the owner, and the owner's membership.
 */
export async function createTestOrg(
  t: TestApp,
  owner: User,
  options: { name?: string; visibility?: 0 | 1 | 2 } = {},
): Promise<User> {
  const name = options.name ?? uniqueName('org');
  const { prisma } = t.context.db;
  const org = await prisma.user.create({
    data: { type: 1, name, lowerName: name.toLowerCase(), visibility: options.visibility ?? 0, loginName: '', email: '' },
  });
  const team = await prisma.team.create({
    data: { orgId: org.id, name: 'Owners', lowerName: 'owners', accessMode: 4, includesAllRepositories: true, canCreateOrgRepo: true, numMembers: 1 },
  });
  await prisma.teamUnit.createMany({ data: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((type) => ({ orgId: org.id, teamId: team.id, type, accessMode: 4 })) });
  await prisma.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: owner.id } });
  await prisma.orgUser.create({ data: { orgId: org.id, userId: owner.id, isPublic: false } });
  return org;
}
