// Notification statuses and sources as stored (Forgejo: models/activities/notification.go), and the query words
// of the notification API (routers/api/v1/notify).
export const NotificationStatus = { unread: 1, read: 2, pinned: 3 } as const;
export const NotificationSource = { issue: 1, pull: 2, commit: 3, repository: 4 } as const;

const STATUS_WORDS: Record<string, number> = NotificationStatus;
const SOURCE_WORDS: Record<string, number> = NotificationSource;

/** The table entry a word names, in any case and padding; 0 for anything else (`constructor` included). */
function wordValue(table: Readonly<Record<string, number>>, word: string | undefined): number {
  const key = (word ?? '').trim().toLowerCase();
  return Object.hasOwn(table, key) ? table[key] : 0;
}

/** `unread`/`read`/`pinned` in any case and padding; anything else is 0 (no status). */
export function statusOfWord(word: string | undefined): number {
  return wordValue(STATUS_WORDS, word);
}

/** The statuses a repeatable `status-types` names, the defaults when none is given; unknown words are dropped. */
export function statusesOfWords(words: readonly string[] | undefined, defaults: readonly string[]): number[] {
  const given = words && words.length > 0 ? words : defaults;
  return given.map(statusOfWord).filter((status) => status > 0);
}

export function sourcesOfWords(words: readonly string[] | undefined): number[] {
  return (words ?? []).map((word) => wordValue(SOURCE_WORDS, word)).filter((source) => source > 0);
}

/** Go's strconv.ParseBool, as Forgejo's FormBool reads a flag; anything else is false. */
export function formBool(value: string | boolean | undefined): boolean {
  if (typeof value === 'boolean') return value;
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value ?? '');
}
