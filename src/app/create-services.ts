// The composition root of the service layer: each service built once, with what it needs. Services never see req/res.
import type { ServiceDeps } from '../services/service-deps.ts';
import { AccessTokenService } from '../services/access-token.service.ts';
import { ActionSecretService } from '../services/action-secret.service.ts';
import { ActionVariableService } from '../services/action-variable.service.ts';
import { ActivityService } from '../services/activity.service.ts';
import { ActivityPubService } from '../services/activitypub.service.ts';
import { IssueEvents } from '../services/issue-events.ts';
import { IssueHookListener } from '../services/issue-hooks.ts';
import { IssueNotifier } from '../services/issue-notifier.ts';
import { IssueCommentService } from '../services/issue-comment.service.ts';
import { IssueDeadlineService } from '../services/issue-deadline.service.ts';
import { IssueLabelService } from '../services/issue-label.service.ts';
import { ReactionService } from '../services/reaction.service.ts';
import { IssueSearchService } from '../services/issue-search.service.ts';
import { IssueService } from '../services/issue.service.ts';
import { MailerService } from '../services/mailer.service.ts';
import { NotificationService } from '../services/notification.service.ts';
import { PullMergeCheck } from '../services/pull-merge-check.ts';
import { PullMergeService } from '../services/pull-merge.service.ts';
import { PullAutoMergeService } from '../services/pull-auto-merge.service.ts';
import { PullSync } from '../services/pull-sync.ts';
import { PullReadService } from '../services/pull-read.service.ts';
import { PullRequestService } from '../services/pull-request.service.ts';
import { BranchProtectionService } from '../services/branch-protection.service.ts';
import { CommitStatusService } from '../services/commit-status.service.ts';
import { ReleaseService } from '../services/release.service.ts';
import { PullReviewService } from '../services/pull-review.service.ts';
import { MilestoneService } from '../services/milestone.service.ts';
import { RepoCollaboratorService } from '../services/repo-collaborator.service.ts';
import { RepoTopicService } from '../services/repo-topic.service.ts';
import { RepoHookService } from '../services/repo-hook.service.ts';
import { RepoForkService } from '../services/repo-fork.service.ts';
import { RepoBranchService } from '../services/repo-branch.service.ts';
import { RepoCommitService } from '../services/repo-commit.service.ts';
import { RepoContentService } from '../services/repo-content.service.ts';
import { RepoFileService } from '../services/repo-file.service.ts';
import { RepoStarService } from '../services/repo-star.service.ts';
import { RepoTeamService } from '../services/repo-team.service.ts';
import { UserFollowService } from '../services/user-follow.service.ts';
import { UserSettingsService } from '../services/user-settings.service.ts';
import { RepoCandidatesService } from '../services/repo-candidates.service.ts';
import { RepoTagService } from '../services/repo-tag.service.ts';
import { RepoSubscriptionService } from '../services/repo-subscription.service.ts';
import { MarkupService } from '../services/markup.service.ts';
import { NodeInfoService } from '../services/nodeinfo.service.ts';
import { AvatarService } from '../services/avatar.service.ts';
import { CronService } from '../services/cron.service.ts';
import { HookDeliveryService } from '../services/hook-delivery.service.ts';
import { HookEventsService } from '../services/hook-events.service.ts';
import { OrgBlockService } from '../services/org-block.service.ts';
import { OrgFeedService } from '../services/org-feed.service.ts';
import { LabelService } from '../services/label.service.ts';
import { OrgMemberService } from '../services/org-member.service.ts';
import { OrgService } from '../services/org.service.ts';
import { OwnerAccessService } from '../services/owner-access.service.ts';
import { OwnerStorageService } from '../services/owner-storage.service.ts';
import { PackageService } from '../services/package.service.ts';
import { ContainerBlobService } from '../packages/container/blob.service.ts';
import { ContainerManifestService } from '../packages/container/manifest.service.ts';
import { PackageSigningKeys } from '../packages/core/signing-keys.ts';
import { DeployKeyService } from '../services/deploy-key.service.ts';
import { TagProtectionService } from '../services/tag-protection.service.ts';
import { PackageIndexes } from '../packages/core/repository-index.ts';
import { registryServices } from '../packages/registry-services.ts';
import { INDEX_BUILDERS } from '../packages/index-builders.ts';
import { PublicKeyService } from '../services/public-key.service.ts';
import { PushService } from '../services/push.service.ts';
import { QuotaService } from '../services/quota.service.ts';
import { RepoMaintenanceService } from '../services/repo-maintenance.service.ts';
import { RepoMigrationService } from '../services/repo-migration.service.ts';
import { RepoPermissionService } from '../services/repo-permission.service.ts';
import { RepoInitService } from '../services/repo-init.service.ts';
import { RepoSearchService } from '../services/repo-search.service.ts';
import { RepositoryCreationService } from '../services/repository-creation.service.ts';
import { RepositoryEditService } from '../services/repository-edit.service.ts';
import { RepositoryLookupService } from '../services/repository-lookup.service.ts';
import { RepositoryRemovalService } from '../services/repository-removal.service.ts';
import { RunnerTokenService } from '../services/runner-token.service.ts';
import { UnadoptedService } from '../services/unadopted.service.ts';
import { SystemService } from '../services/system.service.ts';
import { TeamService } from '../services/team.service.ts';
import { TemplateService } from '../services/template.service.ts';
import { UserDirectoryService } from '../services/user-directory.service.ts';
import { UserEmailService } from '../services/user-email.service.ts';
import { UserService } from '../services/user.service.ts';
import { WebhookService } from '../services/webhook.service.ts';

export type { ServiceDeps } from '../services/service-deps.ts';

export function createServices(deps: ServiceDeps) {
  const activity = new ActivityService(deps);
  const ownerAccess = new OwnerAccessService(deps);
  const ownerStorage = new OwnerStorageService(deps);
  const mailer = new MailerService(deps);
  const orgs = new OrgService(deps, ownerAccess, ownerStorage);
  const orgMembers = new OrgMemberService(deps, ownerAccess);
  const repoPermissions = new RepoPermissionService(deps);
  const templates = new TemplateService(deps);
  const hookEvents = new HookEventsService(deps);
  const hookDeliveries = new HookDeliveryService(deps);
  const webhooks = new WebhookService(deps);
  const repositories = new RepositoryLookupService(deps, repoPermissions);
  const repoCreation = new RepositoryCreationService(deps, activity, new RepoInitService(deps, templates), hookEvents);
  const repoEdits = new RepositoryEditService(deps, activity);
  const repoRemoval = new RepositoryRemovalService(deps, hookEvents);
  const orgFeeds = new OrgFeedService(deps, ownerAccess, repositories);
  const pushes = new PushService(deps, activity, repoEdits, hookEvents);
  const quota = new QuotaService(deps);
  const repoMigrations = new RepoMigrationService(deps, repoCreation, repoEdits, pushes, quota, orgs);
  const maintenance = new RepoMaintenanceService(deps, repoEdits, repoRemoval, repoMigrations);
  const containerBlobs = new ContainerBlobService(deps, quota);
  const repoContents = new RepoContentService(deps);
  const branchProtections = new BranchProtectionService(deps, repoPermissions);
  const tagProtections = new TagProtectionService(deps);
  const publicKeys = new PublicKeyService(deps);
  const issueEvents = new IssueEvents(new IssueNotifier(repoPermissions), activity);
  const issues = new IssueService(deps, repoPermissions, issueEvents);
  issueEvents.listen(new IssueHookListener(deps, hookEvents, issues));
  pushes.listen(new PullSync(deps, issues, hookEvents).onPush);
  const issueLabels = new IssueLabelService(deps, issues, issueEvents);
  const pullReads = new PullReadService(deps, issues, repositories);
  const mergeCheck = new PullMergeCheck(deps, branchProtections);
  const pullMerges = new PullMergeService(deps, issues, pullReads, pushes, mergeCheck);
  const pullAutoMerges = new PullAutoMergeService(
    deps,
    pullReads,
    pullMerges,
    branchProtections,
    repoPermissions,
    mergeCheck,
  );
  const issueComments = new IssueCommentService(deps, issues, hookEvents);
  const packageSigningKeys = new PackageSigningKeys(deps);
  const packageIndexes = new PackageIndexes(deps, packageSigningKeys, INDEX_BUILDERS);
  const packages = new PackageService(deps, ownerAccess, repositories, quota, hookEvents, packageIndexes);
  const services = {
    system: new SystemService(deps),
    accessTokens: new AccessTokenService(deps),
    actionSecrets: new ActionSecretService(deps),
    actionVariables: new ActionVariableService(deps),
    runnerTokens: new RunnerTokenService(deps),
    activity,
    users: new UserService(deps, repoEdits, ownerStorage, mailer),
    ownerAccess,
    mailer,
    publicKeys,
    deployKeys: new DeployKeyService(deps, publicKeys),
    userEmails: new UserEmailService(deps),
    userDirectory: new UserDirectoryService(deps),
    repoStars: new RepoStarService(deps),
    userFollows: new UserFollowService(deps),
    userSettings: new UserSettingsService(deps),
    repoCandidates: new RepoCandidatesService(deps, repoPermissions),
    repoTeams: new RepoTeamService(deps),
    repoBranches: new RepoBranchService(deps),
    repoTags: new RepoTagService(deps, tagProtections),
    repoContents,
    repoFiles: new RepoFileService(repoContents, pushes, branchProtections),
    repoCommits: new RepoCommitService(deps),
    commitStatuses: new CommitStatusService(deps, hookEvents, pullAutoMerges),
    branchProtections,
    tagProtections,
    releases: new ReleaseService(deps, pushes, quota, hookEvents),
    orgs,
    orgMembers,
    labels: new LabelService(deps),
    milestones: new MilestoneService(deps),
    collaborators: new RepoCollaboratorService(deps, repoPermissions),
    repoTopics: new RepoTopicService(deps),
    orgBlocks: new OrgBlockService(deps, orgMembers),
    orgFeeds,
    teams: new TeamService(deps, orgs, repoPermissions, repositories, orgFeeds),
    webhooks,
    repoHooks: new RepoHookService(deps, webhooks, hookEvents),
    hookEvents,
    hookDeliveries,
    avatars: new AvatarService(deps),
    repoPermissions,
    repositories,
    repoCreation,
    repoForks: new RepoForkService(deps, repoCreation, orgs),
    repoEdits,
    repoRemoval,
    templates,
    repoSearch: new RepoSearchService(deps),
    pushes,
    quota,
    repoMigrations,
    maintenance,
    cron: new CronService(deps, { maintenance, hookDeliveries, containerBlobs, log: deps.log }),
    unadopted: new UnadoptedService(deps, repoCreation),
    markup: new MarkupService(deps, ownerAccess, repositories, repoPermissions),
    nodeInfo: new NodeInfoService(deps),
    activityPub: new ActivityPubService(deps),
    packages,
    containerBlobs,
    containerManifests: new ContainerManifestService(deps, quota),
    packageSigningKeys,
    packageIndexes,
    issueEvents,
    issues,
    pulls: new PullRequestService(deps, issues, hookEvents, issueLabels),
    pullReads,
    pullMerges,
    pullAutoMerges,
    pullReviews: new PullReviewService(deps, pullReads, repoPermissions, hookEvents),
    issueSearch: new IssueSearchService(deps),
    issueComments,
    reactions: new ReactionService(deps, issues, issueComments),
    issueLabels,
    issueDeadlines: new IssueDeadlineService(deps, issues),
    notifications: new NotificationService(deps),
    repoSubscriptions: new RepoSubscriptionService(deps),
  };
  const registries = registryServices({
    deps,
    quota,
    hookEvents,
    packages,
    packageIndexes,
    packageSigningKeys,
    repoCreation,
    pushes,
  });
  // Copied as getters, so each registry's service is still built at its first use.
  return Object.defineProperties(services, Object.getOwnPropertyDescriptors(registries)) as typeof services &
    typeof registries;
}

export type Services = ReturnType<typeof createServices>;
