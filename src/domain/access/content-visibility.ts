// Who may see a piece of a repository's content: an issue, a pull request, a feed entry, a notification thread.
// Each kind belongs to a unit (issues to repo.issues, pulls to repo.pulls, pushes and releases to repo.code) and
// shows only to a reader of that unit; what is about the repository itself shows to whoever sees the repository
// (Forgejo: models/activities/action.go NotifyWatchers, models/repo AccessibleRepositoryCondition with a unit).
// Issue search, the activity feeds and the notification threads all use this one rule; its SQL twin is
// src/db/content-access-filters.ts, and tests/api/content-access-agreement.test.ts proves they agree.
import { UnitType } from './modes.ts';
import { type ActivityOpType, opTypeName } from '../activity.ts';
import { NotificationSource } from '../notification.ts';
import { canReadUnit, canWriteUnit, hasAccess, isRepoAdmin, type RepoPermission } from './repo-permission.ts';
import { tokenReachesOwner, tokenReachesRepo } from './token-reach.ts';

/** The unit a piece of content belongs to; `repository` is the repository itself (no unit). */
export type ContentUnit = number | 'repository';

export function unitOfIssue(isPull: boolean): number {
  return isPull ? UnitType.pulls : UnitType.issues;
}

const CODE_OPS: readonly ActivityOpType[] = [
  'commit_repo',
  'push_tag',
  'delete_tag',
  'delete_branch',
  'publish_release',
  'mirror_sync_push',
  'mirror_sync_create',
  'mirror_sync_delete',
];
const ISSUE_OPS: readonly ActivityOpType[] = ['create_issue', 'comment_issue', 'close_issue', 'reopen_issue'];
const PULL_OPS: readonly ActivityOpType[] = [
  'create_pull_request',
  'comment_pull',
  'merge_pull_request',
  'close_pull_request',
  'reopen_pull_request',
  'approve_pull_request',
  'reject_pull_request',
  'pull_review_dismissed',
  'pull_request_ready_for_review',
  'auto_merge_pull_request',
];

/** The feed entries of each unit; every other op type (create, rename, star, watch, transfer) is the repository's. */
export const ACTIVITY_OPS_BY_UNIT: ReadonlyMap<number, readonly ActivityOpType[]> = new Map([
  [UnitType.code, CODE_OPS],
  [UnitType.issues, ISSUE_OPS],
  [UnitType.pulls, PULL_OPS],
]);

export function unitOfActivity(opType: number): ContentUnit {
  const name = opTypeName(opType);
  for (const [unit, ops] of ACTIVITY_OPS_BY_UNIT) if (ops.includes(name)) return unit;
  return 'repository';
}

/** The notification sources of each unit; a thread about the repository itself needs no unit. */
export const NOTIFICATION_SOURCES_BY_UNIT: ReadonlyMap<number, readonly number[]> = new Map([
  [UnitType.issues, [NotificationSource.issue]],
  [UnitType.pulls, [NotificationSource.pull]],
  [UnitType.code, [NotificationSource.commit]],
]);

export function unitOfNotificationSource(source: number): ContentUnit {
  for (const [unit, sources] of NOTIFICATION_SOURCES_BY_UNIT) if (sources.includes(source)) return unit;
  return 'repository';
}

export function canSeeContent(permission: RepoPermission, unit: ContentUnit): boolean {
  return unit === 'repository' ? hasAccess(permission) : canReadUnit(permission, unit);
}

/** Whether a reader sees content of `unit` in `repo`; a public-only token reaches public repositories of public owners. */
export function readerSeesContent(
  publicOnly: boolean,
  repo: { readonly isPrivate: boolean; readonly owner: { readonly visibility: number } },
  permission: RepoPermission,
  unit: ContentUnit,
): boolean {
  return (
    tokenReachesOwner(publicOnly, repo.owner) && tokenReachesRepo(publicOnly, repo) && canSeeContent(permission, unit)
  );
}

/** Reads an issue or a pull request: a reader of its unit, or a site admin whatever the units. */
export function canReadIssue(permission: RepoPermission, isPull: boolean, viewerIsAdmin: boolean): boolean {
  return viewerIsAdmin || canReadUnit(permission, unitOfIssue(isPull));
}

/** Changes anyone's issue or pull request: a site admin, a repository admin, or a writer of its unit. */
export function canWriteIssue(permission: RepoPermission, isPull: boolean, viewerIsAdmin: boolean): boolean {
  return viewerIsAdmin || isRepoAdmin(permission) || canWriteUnit(permission, unitOfIssue(isPull));
}
