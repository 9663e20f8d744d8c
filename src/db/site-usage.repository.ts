// Counts for nodeinfo's usage section.
import type { DbClient } from './prisma.ts';

export interface SiteUsage {
  users: number;
  activeMonth: number;
  activeHalfyear: number;
  issues: number;
  comments: number;
}

/** What nodeinfo tells about the site. */
export interface NodeInfoFacts {
  /** null when usage statistics are not shared. */
  usage: SiteUsage | null;
  openRegistrations: boolean;
}

export class SiteUsageRepository {
  constructor(private readonly client: DbClient) {}

  /** Individual users, those who signed in since each date, issues and comments. */
  async count(monthAgo: Date, halfYearAgo: Date): Promise<SiteUsage> {
    const [users, activeMonth, activeHalfyear, issues, comments] = await Promise.all([
      this.client.user.count({ where: { type: 0 } }),
      this.client.user.count({ where: { type: 0, lastLoginAt: { gte: monthAgo } } }),
      this.client.user.count({ where: { type: 0, lastLoginAt: { gte: halfYearAgo } } }),
      this.client.issue.count(),
      this.client.comment.count(),
    ]);
    return { users, activeMonth, activeHalfyear, issues, comments };
  }
}
