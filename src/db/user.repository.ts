// Accounts (individual users and organizations share the User table) and the redirects left by renames.
import { translated } from '../infra/database/errors.ts';
import type { UserChangesRow } from './entities.ts';
import type { HotQueries, UserListQuery } from './hot-queries.ts';
import type { Viewer } from '../domain/access/owner-visibility.ts';
import { visibleOwnersWhere } from './access-filters.ts';
import type { DbClient, Prisma, User } from './prisma.ts';

export class UserRepository {
  /** `hot` serves the lookups nearly every request makes, as prepared statements outside any transaction. */
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /** A user or an organization by id. */
  byId(id: number): Promise<User | null> {
    return this.hot.userById(id);
  }

  /** A user or an organization by lower-case name. */
  byLowerName(lowerName: string): Promise<User | null> {
    return this.hot.userByLowerName(lowerName);
  }

  /** One page of individual users and the total, for the admin user list. */
  listIndividuals(query: UserListQuery): Promise<{ users: User[]; total: number }> {
    return this.hot.listIndividualUsers(query);
  }

  /** Creates an account together with its primary, activated e-mail address. */
  createWithPrimaryEmail(account: Omit<Prisma.UserCreateInput, 'emails'>): Promise<User> {
    const email = account.email ?? '';
    return translated({ taken: 'user name or e-mail address' }, () =>
      this.client.user.create({
        data: {
          ...account,
          emails: { create: { email, lowerEmail: email.toLowerCase(), isPrimary: true, isActivated: true } },
        },
      }),
    );
  }

  async existsWithLowerName(lowerName: string): Promise<boolean> {
    return (await this.client.user.findUnique({ where: { lowerName }, select: { id: true } })) !== null;
  }

  update(id: number, data: UserChangesRow): Promise<User> {
    return translated({ gone: 'user' }, () => this.client.user.update({ where: { id }, data }));
  }

  rename(id: number, name: string): Promise<User> {
    return translated({ taken: 'user name', gone: 'user' }, () =>
      this.client.user.update({ where: { id }, data: { name, lowerName: name.toLowerCase(), updatedAt: new Date() } }),
    );
  }

  /** Users and organizations. */
  countAll(): Promise<number> {
    return this.client.user.count();
  }

  /** Individual administrators other than this user. */
  countAdminsExcept(userId: number): Promise<number> {
    return this.client.user.count({ where: { type: 0, isAdmin: true, id: { not: userId } } });
  }

  /** Deletes the accounts; their emails, tokens, keys, settings, teams and memberships cascade. */
  async deleteByIds(ids: readonly number[]): Promise<void> {
    await this.client.user.deleteMany({ where: { id: { in: [...ids] } } });
  }

  /** The id of the account a former name now redirects to. */
  async findRedirectTarget(lowerName: string): Promise<number | null> {
    const redirect = await this.client.userRedirect.findUnique({ where: { lowerName } });
    return redirect?.redirectUserId ?? null;
  }

  /** Points a former name at an account, replacing any older redirect from that name. */
  async redirect(lowerName: string, userId: number): Promise<void> {
    await this.client.userRedirect.upsert({
      where: { lowerName },
      create: { lowerName, redirectUserId: userId },
      update: { redirectUserId: userId },
    });
  }

  async deleteRedirectFrom(lowerName: string): Promise<void> {
    await this.client.userRedirect.deleteMany({ where: { lowerName } });
  }

  async deleteRedirectsTo(userIds: readonly number[]): Promise<void> {
    await this.client.userRedirect.deleteMany({ where: { redirectUserId: { in: [...userIds] } } });
  }

  /** Accounts (users and organizations) with any of these lower-cased names. */
  /** The users with these ids (any order; missing ids are left out). */
  listByIds(ids: readonly number[]): Promise<User[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.client.user.findMany({ where: { id: { in: [...ids] } } });
  }

  listByLowerNames(lowerNames: readonly string[]): Promise<User[]> {
    return this.client.user.findMany({ where: { lowerName: { in: [...lowerNames] } } });
  }

  /**
   * One page of the individual users the viewer may see, by name: `keyword` matches the name or full name, `id`
   * picks one user (Forgejo: routers/api/v1/user/user.go Search).
   */
  async searchVisible(
    viewer: Viewer | null,
    keyword: string,
    id: number,
    skip: number,
    take: number,
  ): Promise<{ users: User[]; total: number }> {
    const where: Prisma.UserWhereInput = { AND: [{ type: 0 }, visibleOwnersWhere(viewer)] };
    const words: Prisma.UserWhereInput[] = [];
    if (id > 0) words.push({ id });
    const lower = keyword.trim().toLowerCase();
    if (lower !== '')
      words.push({ OR: [{ lowerName: { contains: lower } }, { fullName: { contains: keyword.trim() } }] });
    (where.AND as Prisma.UserWhereInput[]).push(...words);
    const [users, total] = await Promise.all([
      this.client.user.findMany({ where, orderBy: [{ lowerName: 'asc' }, { id: 'asc' }], skip, take }),
      this.client.user.count({ where }),
    ]);
    return { users, total };
  }
}
