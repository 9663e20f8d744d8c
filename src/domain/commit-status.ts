// Commit status states and how several combine (Forgejo: modules/structs/commit_status.go, models/git
// CalcCommitStatus): the worst state wins, error before failure before warning before pending before success.
export const COMMIT_STATUS_STATES = ['error', 'failure', 'warning', 'pending', 'success'] as const;
export type CommitStatusState = (typeof COMMIT_STATUS_STATES)[number];

/** Orders of a status list (Forgejo's `sort` query). */
export type StatusSort = 'oldest' | 'recentupdate' | 'leastupdate' | 'leastindex' | 'highestindex';

export function isCommitStatusState(value: string): value is CommitStatusState {
  return (COMMIT_STATUS_STATES as readonly string[]).includes(value);
}

/** The combined state of the latest status per context; null when there are none. */
export function combinedState(states: readonly string[]): CommitStatusState | null {
  let worst: number | null = null;
  for (const state of states) {
    const rank = COMMIT_STATUS_STATES.indexOf(state as CommitStatusState);
    if (rank >= 0 && (worst === null || rank < worst)) worst = rank;
  }
  return worst === null ? null : COMMIT_STATUS_STATES[worst];
}
