// Notification threads for issue events (Forgejo: models/activities/notification_list.go
// createOrUpdateIssueNotifications): issue watchers, repository watchers (not for work-in-progress pull requests),
// participants, the users the event assigns or mentions — minus the actor, explicit unwatchers, users who blocked
// the actor and users who cannot read the issue's unit. One thread per user and issue: an existing one moves to
// the top (a read one turns unread), a new one starts unread.
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import { unitOfIssue } from '../domain/access/content-visibility.ts';
import { NotificationSource, NotificationStatus } from '../domain/notification.ts';
import type { IssueEvent, IssueEventListener } from './issue-events.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';

const WIP_PREFIXES = ['wip:', '[wip]'];

export function isWorkInProgress(title: string): boolean {
  const lower = title.trimStart().toLowerCase();
  return WIP_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

export class IssueNotifier implements IssueEventListener {
  constructor(private readonly permissions: RepoPermissionService) {}

  async onIssueEvent(repos: Repositories, event: IssueEvent): Promise<void> {
    if (event.kind === 'edited' || event.kind === 'labeled' || event.kind === 'assigned') return;
    const recipients = await this.recipients(repos, event);
    if (recipients.length === 0) return;
    const { issue, actor } = event;
    const now = new Date();
    const commentId = event.comment?.id ?? 0;
    const existing = new Map((await repos.notifications.listForIssue(issue.id)).map((row) => [row.userId, row]));
    const heardAgain = recipients.flatMap((user) => existing.get(user.id) ?? []);
    const fresh = recipients.filter((user) => !existing.has(user.id)).map((user) => user.id);
    await repos.notifications.touch(heardAgain, actor.id, commentId, now);
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

  private async recipients(repos: Repositories, event: IssueEvent): Promise<User[]> {
    const { issue, repo, actor } = event;
    const watches = await repos.issues.issueWatches(issue.id);
    const ids = new Set<number>([
      ...watches.filter((watch) => watch.isWatching).map((watch) => watch.userId),
      ...(issue.isPull && isWorkInProgress(issue.title) ? [] : await repos.issues.repoWatcherIds(repo.id)),
      ...(await repos.issues.participantIds(issue)),
      ...event.assignedIds,
      ...event.mentionedIds,
    ]);
    ids.delete(actor.id);
    for (const watch of watches) if (!watch.isWatching) ids.delete(watch.userId);
    for (const id of await repos.issues.blockerIds(actor.id, [...ids])) ids.delete(id);
    const users = await repos.issues.listUsers([...ids]);
    return this.permissions.usersWhoSee(users, repo, unitOfIssue(issue.isPull), repos.repoAccess);
  }
}
