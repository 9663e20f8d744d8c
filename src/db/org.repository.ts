// Organization rows (users of type 1): creation with the Owners team, lists, profile changes, deletion.
import { translated } from '../infra/database/errors.ts';
import { AccessMode, UNITS } from '../domain/access/modes.ts';
import type { ListOptions } from '../domain/page.ts';
import type { HotQueries } from './hot-queries.ts';
import type { DbClient, Prisma, User } from './prisma.ts';

const ORGANIZATION = 1;

/** Which organizations a list shows; every field left out does not narrow it. */
export interface OrgListFilter {
  visibilities?: number[];
  /** Only organizations this user is a member of. */
  memberId?: number;
  /** With memberId: only where that membership is public. */
  publicMembershipOnly?: boolean;
}

/** The columns of a new organization. */
export type NewOrgRow = Pick<
  Prisma.UserCreateInput,
  'name' | 'fullName' | 'email' | 'description' | 'website' | 'location' | 'visibility' | 'repoAdminChangeTeamAccess'
>;

/** The profile columns an edit may change. */
export type OrgProfileChanges = Partial<NewOrgRow>;

export interface OwnersTeam {
  name: string;
  ownerId: number;
  ownerMembershipPublic: boolean;
}

export class OrgRepository {
  constructor(
    private readonly client: DbClient,
    private readonly hot: HotQueries,
  ) {}

  /** One page of every organization by name and the total (a prepared statement: the admin list is hot). */
  listAllByName(limit: number, offset: number): Promise<{ orgs: User[]; total: number }> {
    return this.hot.listOrganizations(limit, offset);
  }

  /** The organization row, its Owners team with every unit at owner level, and the owner in both. */
  async createWithOwnersTeam(row: NewOrgRow, owners: OwnersTeam): Promise<User> {
    const org = await translated({ taken: 'user name' }, () =>
      this.client.user.create({
        data: { ...row, type: ORGANIZATION, lowerName: row.name.toLowerCase(), maxRepoCreation: -1 },
      }),
    );
    const team = await this.client.team.create({
      data: {
        orgId: org.id,
        name: owners.name,
        lowerName: owners.name.toLowerCase(),
        accessMode: AccessMode.owner,
        includesAllRepositories: true,
        canCreateOrgRepo: true,
        numMembers: 1,
      },
    });
    await this.client.teamUnit.createMany({
      data: UNITS.map((unit) => ({ orgId: org.id, teamId: team.id, type: unit.type, accessMode: AccessMode.owner })),
    });
    await this.client.teamUser.create({ data: { orgId: org.id, teamId: team.id, userId: owners.ownerId } });
    await this.client.orgUser.create({
      data: { orgId: org.id, userId: owners.ownerId, isPublic: owners.ownerMembershipPublic },
    });
    return org;
  }

  /** One page of organizations by lower name, and how many match. */
  async list(filter: OrgListFilter, page: ListOptions): Promise<{ items: User[]; total: number }> {
    const where: Prisma.UserWhereInput = { type: ORGANIZATION };
    if (filter.visibilities) where.visibility = { in: filter.visibilities };
    if (filter.memberId !== undefined) {
      where.orgMembers = {
        some: { userId: filter.memberId, ...(filter.publicMembershipOnly ? { isPublic: true } : {}) },
      };
    }
    const [items, total] = await Promise.all([
      this.client.user.findMany({ where, orderBy: { lowerName: 'asc' }, skip: page.skip, take: page.limit }),
      this.client.user.count({ where }),
    ]);
    return { items, total };
  }

  async updateProfile(orgId: number, changes: OrgProfileChanges): Promise<User> {
    return translated({ gone: 'organization' }, () =>
      this.client.user.update({ where: { id: orgId }, data: { ...changes, updatedAt: new Date() } }),
    );
  }

  async setAvatar(orgId: number, avatar: string): Promise<void> {
    await translated({ gone: 'organization' }, () =>
      this.client.user.update({ where: { id: orgId }, data: { avatar } }),
    );
  }

  /**
   * The organization row and the rows that name it without a foreign key: its labels, hooks, feed, blocks,
   * follows, secrets, variables, runner tokens, redirects and quota groups. Teams, their units and members,
   * and memberships cascade with the row.
   */
  async deleteWithOwnRows(orgId: number): Promise<void> {
    const orgLevel = { ownerId: orgId, repoId: 0 };
    await Promise.all([
      this.client.label.deleteMany({ where: { orgId } }),
      this.client.webhook.deleteMany({ where: orgLevel }),
      this.client.action.deleteMany({ where: { userId: orgId } }),
      this.client.userBlocking.deleteMany({ where: { OR: [{ blockerId: orgId }, { blockeeId: orgId }] } }),
      this.client.follow.deleteMany({ where: { OR: [{ userId: orgId }, { followId: orgId }] } }),
      this.client.secret.deleteMany({ where: orgLevel }),
      this.client.actionVariable.deleteMany({ where: orgLevel }),
      this.client.actionRunnerToken.deleteMany({ where: orgLevel }),
      this.client.userRedirect.deleteMany({ where: { redirectUserId: orgId } }),
      this.client.quotaGroupUser.deleteMany({ where: { userId: orgId } }),
    ]);
    await translated({ gone: 'organization' }, () => this.client.user.delete({ where: { id: orgId } }));
  }
}
