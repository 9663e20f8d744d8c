// Forgejo's TopicResponse (services/convert/convert.go ToTopicResponse).
import type { components } from '../../generated/api.d.ts';
import type { TopicRow } from '../db/topic.repository.ts';

export function toTopicResponse(topic: TopicRow & { repoCount: number }): components['schemas']['TopicResponse'] {
  return {
    id: topic.id,
    topic_name: topic.name,
    repo_count: topic.repoCount,
    created: topic.createdAt.toISOString(),
    updated: topic.updatedAt.toISOString(),
  };
}
