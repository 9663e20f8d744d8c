// The composition root of the service layer: each service built once, with what it needs. Services never see req/res.
import type { ServiceDeps } from './service-deps.ts';
import { AccessTokenService } from './access-token.service.ts';
import { ActionSecretService } from './action-secret.service.ts';
import { ActionVariableService } from './action-variable.service.ts';
import { ActivityService } from './activity.service.ts';
import { ActivityPubService } from './activitypub.service.ts';
import { IssueEvents } from './issue-events.ts';
import { IssueHookListener } from './issue-hooks.ts';
import { IssueNotifier } from './issue-notifier.ts';
import { IssueSearchService } from './issue-search.service.ts';
import { IssueService } from './issue.service.ts';
import { MailerService } from './mailer.service.ts';
import { NotificationService } from './notification.service.ts';
import { PullRequestService } from './pull-request.service.ts';
import { RepoSubscriptionService } from './repo-subscription.service.ts';
import { MarkupService } from './markup.service.ts';
import { NodeInfoService } from './nodeinfo.service.ts';
import { AvatarService } from './avatar.service.ts';
import { CronService } from './cron.service.ts';
import { HookDeliveryService } from './hook-delivery.service.ts';
import { HookEventsService } from './hook-events.service.ts';
import { OrgBlockService } from './org-block.service.ts';
import { OrgFeedService } from './org-feed.service.ts';
import { OrgLabelService } from './org-label.service.ts';
import { OrgMemberService } from './org-member.service.ts';
import { OrgService } from './org.service.ts';
import { OwnerAccessService } from './owner-access.service.ts';
import { OwnerStorageService } from './owner-storage.service.ts';
import { PackageService } from './package.service.ts';
import { PublicKeyService } from './public-key.service.ts';
import { PushService } from './push.service.ts';
import { QuotaService } from './quota.service.ts';
import { RepoMaintenanceService } from './repo-maintenance.service.ts';
import { RepoMigrationService } from './repo-migration.service.ts';
import { RepoPermissionService } from './repo-permission.service.ts';
import { RepoInitService } from './repo-init.service.ts';
import { RepoSearchService } from './repo-search.service.ts';
import { RepositoryService } from './repository.service.ts';
import { RunnerTokenService } from './runner-token.service.ts';
import { UnadoptedService } from './unadopted.service.ts';
import { SystemService } from './system.service.ts';
import { TeamService } from './team.service.ts';
import { TemplateService } from './template.service.ts';
import { UserEmailService } from './user-email.service.ts';
import { UserService } from './user.service.ts';
import { WebhookService } from './webhook.service.ts';

export type { ServiceDeps } from './service-deps.ts';

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
  const repositories = new RepositoryService(deps, activity, repoPermissions, new RepoInitService(deps, templates), hookEvents);
  const orgFeeds = new OrgFeedService(deps, ownerAccess, repositories);
  const pushes = new PushService(deps, activity, repositories, hookEvents);
  const quota = new QuotaService(deps);
  const repoMigrations = new RepoMigrationService(deps, repositories, pushes, quota, orgs);
  const maintenance = new RepoMaintenanceService(deps, repositories, repoMigrations);
  const issueEvents = new IssueEvents(new IssueNotifier(repoPermissions), activity);
  const issues = new IssueService(deps, repoPermissions, issueEvents);
  issueEvents.listen(new IssueHookListener(deps, hookEvents, issues));
  return {
    system: new SystemService(deps),
    accessTokens: new AccessTokenService(deps),
    actionSecrets: new ActionSecretService(deps),
    actionVariables: new ActionVariableService(deps),
    runnerTokens: new RunnerTokenService(deps),
    activity,
    users: new UserService(deps, repositories, ownerStorage, mailer),
    ownerAccess,
    mailer,
    publicKeys: new PublicKeyService(deps),
    userEmails: new UserEmailService(deps),
    orgs,
    orgMembers,
    orgLabels: new OrgLabelService(deps),
    orgBlocks: new OrgBlockService(deps, orgMembers),
    orgFeeds,
    teams: new TeamService(deps, orgs, repoPermissions, repositories, orgFeeds),
    webhooks: new WebhookService(deps),
    hookEvents,
    hookDeliveries,
    avatars: new AvatarService(deps),
    repoPermissions,
    repositories,
    templates,
    repoSearch: new RepoSearchService(deps, repoPermissions),
    pushes,
    quota,
    repoMigrations,
    maintenance,
    cron: new CronService(deps, { maintenance, hookDeliveries, log: deps.log }),
    unadopted: new UnadoptedService(deps, repositories),
    markup: new MarkupService(deps, ownerAccess, repositories, repoPermissions),
    nodeInfo: new NodeInfoService(deps),
    activityPub: new ActivityPubService(deps),
    packages: new PackageService(deps, ownerAccess, repositories, quota, hookEvents),
    issueEvents,
    issues,
    pulls: new PullRequestService(deps, issues, hookEvents),
    issueSearch: new IssueSearchService(deps),
    notifications: new NotificationService(deps),
    repoSubscriptions: new RepoSubscriptionService(deps),
  };
}

export type Services = ReturnType<typeof createServices>;
