// What a push or a mirror sync changed, and the feed action Forgejo records for each change
// (services/feed/action.go: PushCommits, SyncPushCommits, SyncCreateRef, SyncDeleteRef).
import type { ActivityOpType } from './activity.ts';

export interface RefChange {
  /** Full ref name, e.g. refs/heads/main; Forgejo stores it as the action's ref_name. */
  ref: string;
  /** null when the ref was created. */
  oldSha: string | null;
  /** null when the ref was deleted. */
  newSha: string | null;
}

/** Refs that appeared, moved or disappeared between two `for-each-ref` snapshots, sorted by name. */
export function diffRefs(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): RefChange[] {
  const changes: RefChange[] = [];
  for (const [ref, sha] of after) {
    const old = before.get(ref) ?? null;
    if (old !== sha) changes.push({ ref, oldSha: old, newSha: sha });
  }
  for (const [ref, sha] of before) if (!after.has(ref)) changes.push({ ref, oldSha: sha, newSha: null });
  return changes.sort((a, b) => (a.ref < b.ref ? -1 : a.ref > b.ref ? 1 : 0));
}

export const isTagRef = (ref: string) => ref.startsWith('refs/tags/');
export const isBranchRef = (ref: string) => ref.startsWith('refs/heads/');

/** The action of a change pushed by a user; null for refs that are neither branches nor tags. */
export function pushOpType(change: RefChange): ActivityOpType | null {
  if (isTagRef(change.ref)) return change.newSha === null ? 'delete_tag' : 'push_tag';
  if (isBranchRef(change.ref)) return change.newSha === null ? 'delete_branch' : 'commit_repo';
  return null;
}

/** The action of a change a mirror sync fetched. */
export function mirrorSyncOpType(change: RefChange): ActivityOpType | null {
  if (!isTagRef(change.ref) && !isBranchRef(change.ref)) return null;
  if (change.oldSha === null) return 'mirror_sync_create';
  if (change.newSha === null) return 'mirror_sync_delete';
  return 'mirror_sync_push';
}
