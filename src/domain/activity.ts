// Activity op types: the numbers stored in Action.opType and the names the API shows (Forgejo's order).
export const ACTIVITY_OP_TYPES = [
  'create_repo',
  'rename_repo',
  'star_repo',
  'watch_repo',
  'commit_repo',
  'create_issue',
  'create_pull_request',
  'transfer_repo',
  'push_tag',
  'comment_issue',
  'merge_pull_request',
  'close_issue',
  'reopen_issue',
  'close_pull_request',
  'reopen_pull_request',
  'delete_tag',
  'delete_branch',
  'mirror_sync_push',
  'mirror_sync_create',
  'mirror_sync_delete',
  'approve_pull_request',
  'reject_pull_request',
  'comment_pull',
  'publish_release',
  'pull_review_dismissed',
  'pull_request_ready_for_review',
  'auto_merge_pull_request',
] as const;

export type ActivityOpType = (typeof ACTIVITY_OP_TYPES)[number];

/** Stored value of an op type (1-based, as in Forgejo). */
export function opTypeNumber(op: ActivityOpType): number {
  return ACTIVITY_OP_TYPES.indexOf(op) + 1;
}

export function opTypeName(value: number): ActivityOpType {
  return ACTIVITY_OP_TYPES[value - 1];
}
