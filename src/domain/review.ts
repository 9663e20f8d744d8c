// Review states of pull requests (Forgejo: models/issues/review.go ReviewType, modules/structs ReviewStateType).

export const ReviewType = { pending: 0, approve: 1, comment: 2, reject: 3, request: 4 } as const;

const STATES: Record<number, string> = {
  0: 'PENDING',
  1: 'APPROVED',
  2: 'COMMENT',
  3: 'REQUEST_CHANGES',
  4: 'REQUEST_REVIEW',
};

export function reviewState(type: number): string {
  return STATES[type] ?? '';
}

/** The review type an event of the API submits; empty means a comment, as in Forgejo. */
export function reviewTypeOf(event: string | undefined): number | null {
  switch ((event ?? '').toUpperCase()) {
    case 'APPROVED':
      return ReviewType.approve;
    case 'REQUEST_CHANGES':
      return ReviewType.reject;
    case '':
    case 'COMMENT':
      return ReviewType.comment;
    default:
      return null;
  }
}
