// Reactions people may leave (Forgejo: [ui] REACTIONS, its default list).
export const ALLOWED_REACTIONS: readonly string[] = [
  '+1',
  '-1',
  'laugh',
  'hooray',
  'confused',
  'heart',
  'rocket',
  'eyes',
];

export function isAllowedReaction(content: string): boolean {
  return ALLOWED_REACTIONS.includes(content);
}
