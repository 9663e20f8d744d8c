// Repository topics (Forgejo: models/repo/topic.go ValidateTopic, SanitizeAndValidateTopics).

/** At most this many topics per repository. */
export const MAX_TOPICS = 25;

const TOPIC = /^[a-z0-9][-.a-z0-9]*$/;

/** A topic as stored: trimmed and lower-cased. */
export function normaliseTopic(topic: string): string {
  return topic.trim().toLowerCase();
}

export function isValidTopic(topic: string): boolean {
  return topic.length <= 35 && TOPIC.test(topic);
}

/** The topics to keep (normalised, once each, empty ones dropped) and those that are invalid. */
export function sanitiseTopics(topics: readonly string[]): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  for (const raw of topics) {
    const topic = normaliseTopic(raw);
    if (topic === '' || valid.includes(topic)) continue;
    (isValidTopic(topic) ? valid : invalid).push(topic);
  }
  return { valid, invalid };
}
