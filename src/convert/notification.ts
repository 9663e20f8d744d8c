// Forgejo's NotificationThread record (services/convert/notification.go).
import type { components } from '../../generated/api.d.ts';
import type { ThreadDetails } from '../db/notification.repository.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { NotificationSource, NotificationStatus } from '../domain/notification.ts';
import { commentApiUrl, commentHtmlUrl, issueApiUrl, issueHtmlUrl } from './issue.ts';
import { toRepository } from './repository.ts';
import { isoTime } from './time.ts';
import type { UserView } from './user.ts';

export type ApiThread = components['schemas']['NotificationThread'];

const SUBJECT_TYPES: Record<number, string> = {
  [NotificationSource.issue]: 'Issue',
  [NotificationSource.pull]: 'Pull',
  [NotificationSource.commit]: 'Commit',
  [NotificationSource.repository]: 'Repository',
};

export function threadApiUrl(rootUrl: string, id: number): string {
  return `${rootUrl}api/v1/notifications/threads/${id}`;
}

/** A thread only exists for readers; its repository is shown at read access and without permissions. */
function threadRepository(repo: ThreadDetails['repo'], view: UserView): ApiThread['repository'] {
  const repository = toRepository(
    { repo, permission: { mode: AccessMode.read, unitModes: null, units: repo.units.map((u) => u.type) } },
    view,
  );
  delete (repository as { permissions?: unknown }).permissions;
  return repository;
}

/** Many threads; each repository is shaped once however many threads it has. */
export function toNotificationThreads(threads: readonly ThreadDetails[], view: UserView): ApiThread[] {
  const repositories = new Map<number, ApiThread['repository']>();
  return threads.map((details) => {
    let repository = repositories.get(details.repo.id);
    if (!repository) repositories.set(details.repo.id, (repository = threadRepository(details.repo, view)));
    return toNotificationThread(details, view, repository);
  });
}

export function toNotificationThread(
  details: ThreadDetails,
  view: UserView,
  repository = threadRepository(details.repo, view),
): ApiThread {
  const { thread, repo, issue, pull, lastComment } = details;
  const { rootUrl } = view;
  const subject: components['schemas']['NotificationSubject'] = { type: SUBJECT_TYPES[thread.source] ?? '' };
  if (thread.source === NotificationSource.repository) {
    Object.assign(subject, {
      title: `${repo.ownerName}/${repo.name}`,
      url: `/${repo.ownerName}/${repo.name}`,
      html_url: `${rootUrl}${repo.ownerName}/${repo.name}`,
    });
  } else if (issue) {
    subject.title = issue.title;
    subject.url = issueApiUrl(rootUrl, repo, issue);
    subject.html_url = issueHtmlUrl(rootUrl, repo, issue);
    subject.state = issue.isClosed || pull?.hasMerged ? 'closed' : 'open';
    subject.latest_comment_url = lastComment ? commentApiUrl(rootUrl, repo, lastComment) : '';
    subject.latest_comment_html_url = lastComment ? commentHtmlUrl(rootUrl, repo, issue, lastComment) : '';
  }
  return {
    id: thread.id,
    repository,
    subject,
    unread: thread.status === NotificationStatus.unread,
    pinned: thread.status === NotificationStatus.pinned,
    updated_at: isoTime(thread.updatedAt),
    url: threadApiUrl(rootUrl, thread.id),
  };
}
