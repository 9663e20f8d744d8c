// Notification threads for issue events (Forgejo: models/activities/notification_list.go
// createOrUpdateIssueNotifications): issue watchers, repository watchers (not for work-in-progress pull requests),
// participants, the users the event assigns or mentions — minus the actor, explicit unwatchers, users who blocked
// the actor and users who cannot read the issue's unit. One thread per user and issue: an existing one moves to
// the top (a read one turns unread), a new one starts unread.
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import { unitOfIssue } from '../domain/access/content-visibility.ts';
import { NotificationSource, NotificationStatus } from '../domain/notification.ts';
import type { IssueEvent, IssueEventDraft, IssueEventKind, IssueEventListener } from './issue-events.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';

const WIP_PREFIXES = ['wip:', '[wip]'];

export function isWorkInProgress(title: string): boolean {
  const lower = title.trimStart().toLowerCase();
  return WIP_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** The users an event reaches through watching and taking part, and who was looked at to find them. */
interface Audience {
  /** Watchers, repository watchers and participants who hear of the event. */
  readonly users: readonly User[];
  /** Everyone looked at, heard or not: only others (assigned, mentioned) need looking at in the transaction. */
  readonly considered: ReadonlySet<number>;
  /** Users who unwatched the issue: they hear nothing, even when mentioned. */
  readonly unwatchers: ReadonlySet<number>;
}

const SILENT_KINDS: ReadonlySet<IssueEventKind> = new Set(['edited', 'labeled', 'assigned']);

export class IssueNotifier implements IssueEventListener {
  constructor(private readonly permissions: RepoPermissionService) {}

  async plan(repos: Repositories, draft: IssueEventDraft): Promise<Audience | undefined> {
    return SILENT_KINDS.has(draft.kind) ? undefined : this.audience(repos, draft);
  }

  async onIssueEvent(repos: Repositories, event: IssueEvent, planned?: Audience): Promise<void> {
    if (SILENT_KINDS.has(event.kind)) return;
    const recipients = await this.recipients(repos, event, planned ?? (await this.audience(repos, event)));
    if (recipients.length === 0) return;
    const { issue, actor } = event;
    const now = new Date();
    const commentId = event.comment?.id ?? 0;
    const heardAgain = new Set(
      await repos.notifications.touchThreads(
        issue.id,
        recipients.map((user) => user.id),
        actor.id,
        commentId,
        now,
      ),
    );
    const fresh = recipients.filter((user) => !heardAgain.has(user.id)).map((user) => user.id);
    await repos.notifications.createMany(
      fresh.map((userId) => ({
        userId,
        repoId: issue.repoId,
        status: NotificationStatus.unread,
        source: issue.isPull ? NotificationSource.pull : NotificationSource.issue,
        issueId: issue.id,
        commentId,
        updatedBy: actor.id,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }

  private async audience(repos: Repositories, draft: IssueEventDraft): Promise<Audience> {
    const { issue } = draft;
    const { watches, repoWatcherIds, participantIds } = await repos.issueAudience.issueAudience(issue);
    const considered = new Set<number>([
      ...watches.filter((watch) => watch.isWatching).map((watch) => watch.userId),
      ...(issue.isPull && isWorkInProgress(issue.title) ? [] : repoWatcherIds),
      ...participantIds,
    ]);
    const unwatchers = new Set(watches.filter((watch) => !watch.isWatching).map((watch) => watch.userId));
    return { users: await this.hearing(repos, draft, considered, unwatchers), considered, unwatchers };
  }

  /** The audience and the users the event assigns or mentions. */
  private async recipients(repos: Repositories, event: IssueEvent, audience: Audience): Promise<readonly User[]> {
    const others = new Set([...event.assignedIds, ...event.mentionedIds].filter((id) => !audience.considered.has(id)));
    if (others.size === 0) return audience.users;
    return [...audience.users, ...(await this.hearing(repos, event, others, audience.unwatchers))];
  }

  /** Of `ids`, who hears of the event: not the actor, no unwatcher, nobody who blocks the actor, who sees the issue. */
  private async hearing(
    repos: Repositories,
    draft: IssueEventDraft,
    ids: ReadonlySet<number>,
    unwatchers: ReadonlySet<number>,
  ): Promise<User[]> {
    const { issue, repo, actor } = draft;
    const candidates = new Set([...ids].filter((id) => id !== actor.id && !unwatchers.has(id)));
    if (candidates.size === 0) return [];
    const users = await repos.issueAudience.usersNotBlocking(actor.id, [...candidates]);
    return this.permissions.usersWhoSee(users, repo, unitOfIssue(issue.isPull), repos.repoAccess);
  }
}
