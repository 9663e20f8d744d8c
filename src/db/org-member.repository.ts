// Membership of organizations: OrgUser rows and the team memberships (TeamUser) inside one organization.
import { AccessMode } from '../domain/access/modes.ts';
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma, User } from './prisma.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';

/** The first key of PostgreSQL advisory locks on an organization's memberships (the second is its id). */
const MEMBERSHIP_LOCK = 1;

export class OrgMemberRepository {
  constructor(
    private readonly client: DbClient,
    private readonly provider: DatabaseTarget['provider'],
  ) {}

  /**
   * Inside a transaction: waits for and holds the organization's membership lock until the transaction ends, so
   * joins, leaves and team deletions of one organization run one after another and each sees the rows of those
   * before it (counters, "last owner", "in no team any more"). SQLite runs one write transaction at a time anyway.
   */
  async lockMemberships(orgId: number): Promise<void> {
    if (this.provider !== 'postgresql') return;
    await this.client.$executeRaw`SELECT pg_advisory_xact_lock(${MEMBERSHIP_LOCK}::int, ${orgId}::int)`;
  }

  async exists(orgId: number, userId: number): Promise<boolean> {
    const membership = await this.client.orgUser.findUnique({
      where: { userId_orgId: { userId, orgId } },
      select: { id: true },
    });
    return membership !== null;
  }

  /** How many organizations the user belongs to. */
  countByUser(userId: number): Promise<number> {
    return this.client.orgUser.count({ where: { userId } });
  }

  /** One page of the organization's members by lower name (public memberships only unless asked), and the count. */
  async listMembers(
    orgId: number,
    includeConcealed: boolean,
    page: ListOptions,
  ): Promise<{ items: User[]; total: number }> {
    const where: Prisma.UserWhereInput = {
      orgMemberships: { some: { orgId, ...(includeConcealed ? {} : { isPublic: true }) } },
    };
    const [items, total] = await Promise.all([
      this.client.user.findMany({ where, orderBy: { lowerName: 'asc' }, skip: page.skip, take: page.limit }),
      this.client.user.count({ where }),
    ]);
    return { items, total };
  }

  async findMembership(orgId: number, userId: number): Promise<{ isPublic: boolean } | null> {
    return this.client.orgUser.findUnique({ where: { userId_orgId: { userId, orgId } }, select: { isPublic: true } });
  }

  /** How many memberships changed: 0 when the user is not a member. */
  async setPublicity(orgId: number, userId: number, isPublic: boolean): Promise<number> {
    const { count } = await this.client.orgUser.updateMany({ where: { orgId, userId }, data: { isPublic } });
    return count;
  }

  /** The teams of the organization the user is in, with what each grants. */
  async teamsOf(
    orgId: number,
    userId: number,
  ): Promise<{ teamId: number; accessMode: number; includesAllRepositories: boolean }[]> {
    const rows = await this.client.teamUser.findMany({
      where: { orgId, userId },
      select: { teamId: true, team: { select: { accessMode: true, includesAllRepositories: true } } },
    });
    return rows.map((row) => ({ teamId: row.teamId, ...row.team }));
  }

  /** Whether the user is in a team that may create repositories or is at owner level. */
  async isInRepoCreatingTeam(orgId: number, userId: number): Promise<boolean> {
    const membership = await this.client.teamUser.findFirst({
      where: { orgId, userId, team: { OR: [{ canCreateOrgRepo: true }, { accessMode: { gte: AccessMode.owner } }] } },
      select: { id: true },
    });
    return membership !== null;
  }

  /** Team memberships at owner level (a user in two owner teams counts twice). */
  async countOwnerTeamMemberships(orgId: number): Promise<number> {
    return this.client.teamUser.count({ where: { orgId, team: { accessMode: { gte: AccessMode.owner } } } });
  }

  /** The user out of the given teams of the organization (their member counts follow) and out of the organization. */
  async removeMember(orgId: number, userId: number, teamIds: number[]): Promise<void> {
    if (teamIds.length > 0) {
      await this.client.teamUser.deleteMany({ where: { orgId, userId } });
      await this.client.team.updateMany({ where: { id: { in: teamIds } }, data: { numMembers: { decrement: 1 } } });
    }
    await this.client.orgUser.deleteMany({ where: { orgId, userId } });
  }
}
