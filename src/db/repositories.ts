// Every repository, bound to one database client: built once from the pool for a process, and again from a
// transaction's client inside `Transactions.run`, so a service uses the same names in and out of a transaction.
import type { AtRestCipher } from '../crypto/at-rest-cipher.ts';
import { AccessTokenRepository } from './access-token.repository.ts';
import { ActionSecretRepository } from './action-secret.repository.ts';
import { ActionVariableRepository } from './action-variable.repository.ts';
import { ActivityRepository } from './activity.repository.ts';
import { CargoRepository } from './cargo.repository.ts';
import { ConanRepository } from './conan.repository.ts';
import type { CommittedJobs } from '../infra/queue/committed-jobs.ts';
import { CommitStatusRepository } from './commit-status.repository.ts';
import { CollaborationRepository } from './collaboration.repository.ts';
import { CommentRepository } from './comment.repository.ts';
import { CronTaskRepository } from './cron-task.repository.ts';
import { DatabaseHealthRepository } from './database-health.repository.ts';
import { EmailAddressRepository } from './email-address.repository.ts';
import { FeedActionRepository } from './feed-action.repository.ts';
import { HookTaskRepository } from './hook-task.repository.ts';
import { PushInFlightRepository } from './push-in-flight.repository.ts';
import type { HotQueries } from './hot-queries.ts';
import type { ClearedOnWrite } from './cleared-on-write.ts';
import { JobRepository } from './job.repository.ts';
import { IssueAudienceRepository } from './issue-audience.repository.ts';
import { IssueRepository } from './issue.repository.ts';
import { LabelRepository } from './label.repository.ts';
import { LoginSourceRepository } from './login-source.repository.ts';
import { MilestoneRepository } from './milestone.repository.ts';
import { MirrorRepository } from './mirror.repository.ts';
import { NpmRepository } from './npm.repository.ts';
import { NotificationRepository } from './notification.repository.ts';
import { OrgBlockRepository } from './org-block.repository.ts';
import { OrgFeedRepository } from './org-feed.repository.ts';
import { OrgMemberRepository } from './org-member.repository.ts';
import { OrgRepository } from './org.repository.ts';
import { OwnerPurgeRepository } from './owner-purge.repository.ts';
import { ContainerRepository } from './container.repository.ts';
import { PackageBlobRepository } from './package-blob.repository.ts';
import { PackageUsageRepository } from './package-usage.repository.ts';
import { PackageRepository } from './package.repository.ts';
import { PackageIndexRepository } from './package-index.repository.ts';
import { OwnerPackageIndexRepository } from './owner-package-index.repository.ts';
import { RepositoryIndexRepository } from './repository-index.repository.ts';
import { ScopedFileRepository } from './scoped-file.repository.ts';
import type { DbClient, PrismaClient } from './prisma.ts';
import { ProtectedBranchRepository } from './protected-branch.repository.ts';
import { PublicKeyRepository } from './public-key.repository.ts';
import { DeployKeyRepository } from './deploy-key.repository.ts';
import { ProtectedTagRepository } from './protected-tag.repository.ts';
import { TopicRepository } from './topic.repository.ts';
import { QuotaReservationRepository } from './quota-reservation.repository.ts';
import { QuotaUsageRepository } from './quota-usage.repository.ts';
import { QuotaRepository } from './quota.repository.ts';
import { PullAutoMergeRepository } from './pull-auto-merge.repository.ts';
import { PullRequestRepository } from './pull-request.repository.ts';
import { ReactionRepository } from './reaction.repository.ts';
import { ReleaseRepository } from './release.repository.ts';
import { ReviewRepository } from './review.repository.ts';
import { RepoAccessRepository } from './repo-access.repository.ts';
import { RepoWatchRepository } from './repo-watch.repository.ts';
import { RepositoryRowsRepository } from './repository-rows.repository.ts';
import { RunnerTokenRepository } from './runner-token.repository.ts';
import { SiteStatisticsRepository, SiteUsageRepository } from './site-usage.repository.ts';
import { FollowRepository } from './follow.repository.ts';
import { UserSettingRepository } from './user-setting.repository.ts';
import { StarRepository } from './star.repository.ts';
import type { DatabaseTarget } from '../infra/database/target.ts';
import { PackagePropertyRepository } from './package-property.repository.ts';
import { PackageScopeFilesRepository } from './package-scope-files.repository.ts';
import { PackageSigningKeyRepository } from './package-signing-key.repository.ts';
import { TeamRepository } from './team.repository.ts';
import { UserKeyPairRepository } from './user-key-pair.repository.ts';
import { UserRepository } from './user.repository.ts';
import { WebhookRepository } from './webhook.repository.ts';

/**
 * `cipher` encrypts the stored credentials (Actions secrets, webhook secrets and authorization headers);
 * `hot` runs the lookups nearly every request makes as prepared statements, on the pool's connections (also for a
 * transaction's set: they read committed rows); `jobsWritten` is told when a job row is written.
 */
export function createRepositories(
  client: DbClient,
  provider: DatabaseTarget['provider'],
  cipher: AtRestCipher,
  hot: HotQueries,
  jobsWritten?: () => void,
  inTransaction = false,
) {
  // A transaction's own writes are not among the committed rows the hot statements read.
  const outsideTransaction = inTransaction ? undefined : hot;
  const repoAccess = new RepoAccessRepository(client, outsideTransaction);
  const fewRepositories = outsideTransaction && { hot: outsideTransaction, access: repoAccess };
  return {
    accessTokens: new AccessTokenRepository(client, hot),
    actionSecrets: new ActionSecretRepository(client, cipher),
    actionVariables: new ActionVariableRepository(client),
    activity: new ActivityRepository(client),
    commitStatuses: new CommitStatusRepository(client, provider),
    collaborations: new CollaborationRepository(client),
    cargo: new CargoRepository(client, hot),
    conan: new ConanRepository(client, provider, hot),
    comments: new CommentRepository(client),
    cronTasks: new CronTaskRepository(client),
    health: new DatabaseHealthRepository(hot),
    emails: new EmailAddressRepository(client, provider),
    feedActions: new FeedActionRepository(client),
    hookTasks: new HookTaskRepository(client),
    pushesInFlight: new PushInFlightRepository(client),
    jobs: new JobRepository(client, jobsWritten),
    issues: new IssueRepository(client, provider, hot.counts, outsideTransaction, fewRepositories),
    issueAudience: new IssueAudienceRepository(client, outsideTransaction),
    labels: new LabelRepository(client),
    loginSources: new LoginSourceRepository(client),
    milestones: new MilestoneRepository(client),
    mirrors: new MirrorRepository(client),
    notifications: new NotificationRepository(client, provider, hot.counts, fewRepositories, outsideTransaction),
    npm: new NpmRepository(client, hot),
    orgBlocks: new OrgBlockRepository(client),
    orgFeeds: new OrgFeedRepository(client),
    orgMembers: new OrgMemberRepository(client, provider),
    orgs: new OrgRepository(client, hot),
    ownerPurge: new OwnerPurgeRepository(client, provider),
    containers: new ContainerRepository(client, provider, hot),
    packageBlobs: new PackageBlobRepository(client, provider),
    packageUsage: new PackageUsageRepository(client),
    packages: new PackageRepository(client, provider, hot),
    packageIndex: new PackageIndexRepository(client, hot),
    ownerPackageIndex: new OwnerPackageIndexRepository(client, hot),
    repositoryIndexes: new RepositoryIndexRepository(client, provider),
    scopedFiles: new ScopedFileRepository(client),
    packageProperties: new PackagePropertyRepository(client),
    packageScopeFiles: new PackageScopeFilesRepository(client),
    packageSigningKeys: new PackageSigningKeyRepository(client, cipher),
    protectedBranches: new ProtectedBranchRepository(client),
    publicKeys: new PublicKeyRepository(client),
    deployKeys: new DeployKeyRepository(client),
    protectedTags: new ProtectedTagRepository(client),
    topics: new TopicRepository(client),
    quota: new QuotaRepository(client),
    quotaReservations: new QuotaReservationRepository(client, provider),
    quotaUsage: new QuotaUsageRepository(client),
    pullAutoMerges: new PullAutoMergeRepository(client, outsideTransaction),
    pulls: new PullRequestRepository(client),
    releases: new ReleaseRepository(client),
    repoAccess,
    reactions: new ReactionRepository(client),
    reviews: new ReviewRepository(client),
    repoWatches: new RepoWatchRepository(client),
    repositories: new RepositoryRowsRepository(client, provider, hot.counts, outsideTransaction),
    runnerTokens: new RunnerTokenRepository(client),
    siteUsage: new SiteUsageRepository(client),
    siteStatistics: new SiteStatisticsRepository(client),
    follows: new FollowRepository(client),
    userSettings: new UserSettingRepository(client),
    stars: new StarRepository(client),
    teams: new TeamRepository(client),
    userKeyPairs: new UserKeyPairRepository(client),
    users: new UserRepository(client, hot),
    webhooks: new WebhookRepository(client, cipher, outsideTransaction),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** Runs work in one database transaction with the repositories bound to it. */
export interface Transactions {
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
}

// Prisma's defaults (2 s to get a connection, 5 s to finish) answer 500 to writes that merely queue behind others
// under load (50 writes at once on PostgreSQL's pool of 10); a write waits its turn instead, as in Forgejo.
const TRANSACTION_LIMITS = { maxWait: 30_000, timeout: 30_000 };

/**
 * `committed` hears of a transaction that wrote jobs once it has committed (never of one rolled back); `lookups` are
 * emptied again after the commit of one that wrote rows they keep.
 */
export function transactions(
  prisma: PrismaClient,
  provider: DatabaseTarget['provider'],
  cipher: AtRestCipher,
  hot: HotQueries,
  committed?: CommittedJobs,
  lookups: readonly ClearedOnWrite[] = [],
): Transactions {
  return {
    async run(work) {
      let wroteJobs = false;
      const writesBefore = lookups.map((cache) => cache.writes);
      const bound = (tx: DbClient) => createRepositories(tx, provider, cipher, hot, () => (wroteJobs = true), true);
      const result = await prisma.$transaction((tx) => work(bound(tx)), TRANSACTION_LIMITS);
      if (wroteJobs) committed?.notify();
      for (const [i, cache] of lookups.entries()) if (cache.writes !== writesBefore[i]) await cache.changed();
      return result;
    },
  };
}
