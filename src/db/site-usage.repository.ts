// Counts for nodeinfo's usage section.
import type { DbClient } from './prisma.ts';
import type { SiteStatistics } from '../domain/site-statistics.ts';

export type { SiteStatistics };

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

export class SiteStatisticsRepository {
  constructor(private readonly client: DbClient) {}

  /** One count per table (each an index or table scan); callers cache the result. */
  async count(): Promise<SiteStatistics> {
    const c = this.client;
    const [users, organizations, repositories, teams, issuesClosed, issuesOpen, comments, labels] = await Promise.all([
      c.user.count({ where: { type: 0 } }),
      c.user.count({ where: { type: 1 } }),
      c.repository.count(),
      c.team.count(),
      c.issue.count({ where: { isClosed: true } }),
      c.issue.count({ where: { isClosed: false } }),
      c.comment.count(),
      c.label.count(),
    ]);
    const [milestones, releases, mirrors, stars, follows, watches, accesses, publickeys] = await Promise.all([
      c.milestone.count(),
      c.release.count(),
      c.repository.count({ where: { isMirror: true } }),
      c.star.count(),
      c.follow.count(),
      c.watch.count(),
      c.collaboration.count(),
      c.publicKey.count(),
    ]);
    const [webhooks, hooktasks, attachments] = await Promise.all([
      c.webhook.count(),
      c.hookTask.count(),
      c.attachment.count(),
    ]);
    return {
      users,
      organizations,
      repositories,
      teams,
      issues: issuesOpen + issuesClosed,
      issues_open: issuesOpen,
      issues_closed: issuesClosed,
      comments,
      labels,
      milestones,
      releases,
      mirrors,
      stars,
      follows,
      watches,
      accesses,
      publickeys,
      webhooks,
      hooktasks,
      attachments,
    };
  }
}
