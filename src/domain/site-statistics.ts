// Forgejo's site statistics (models/activities/statistic.go), named as its gitea_* metrics name them.
export const SITE_STATISTICS = [
  'users',
  'organizations',
  'repositories',
  'teams',
  'issues',
  'issues_open',
  'issues_closed',
  'comments',
  'labels',
  'milestones',
  'releases',
  'mirrors',
  'stars',
  'follows',
  'watches',
  'accesses',
  'publickeys',
  'webhooks',
  'hooktasks',
  'attachments',
] as const;

export type SiteStatistics = Record<(typeof SITE_STATISTICS)[number], number>;
