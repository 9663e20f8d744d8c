// Memberships of users in organizations (OrgUser rows).
import type { DbClient } from './prisma.ts';

export class OrgMembershipRepository {
  constructor(private readonly client: DbClient) {}

  async exists(orgId: number, userId: number): Promise<boolean> {
    const membership = await this.client.orgUser.findUnique({ where: { userId_orgId: { userId, orgId } }, select: { id: true } });
    return membership !== null;
  }

  /** How many organizations the user belongs to. */
  countByUser(userId: number): Promise<number> {
    return this.client.orgUser.count({ where: { userId } });
  }
}
