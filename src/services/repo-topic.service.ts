// A repository's topics (Forgejo: routers/api/v1/repo/topic.go), kept on the repository row as a JSON list.
import type { RepoWithOwner } from '../db/repository-details.ts';
import { InvalidTopicsError, NotFoundError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { isValidTopic, MAX_TOPICS, normaliseTopic, sanitiseTopics } from '../domain/topic.ts';
import type { ServiceDeps } from './service-deps.ts';

function topicsOf(repo: RepoWithOwner): string[] {
  try {
    const topics: unknown = JSON.parse(repo.topics);
    return Array.isArray(topics) ? topics.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

function validOrFail(raw: string): string {
  const topic = normaliseTopic(raw);
  if (!isValidTopic(topic)) throw new InvalidTopicsError('Topic names are invalid', [topic]);
  return topic;
}

export class RepoTopicService {
  constructor(private readonly deps: ServiceDeps) {}

  list(repo: RepoWithOwner, page: ListOptions): Page<string> {
    const topics = topicsOf(repo);
    return { items: topics.slice(page.skip, page.skip + page.limit), total: topics.length };
  }

  /** GET /topics/search: topic names containing the keyword, with how many repositories carry each. */
  search(keyword: string, page: ListOptions) {
    return this.deps.repos.topics.search(normaliseTopic(keyword), page.skip, page.limit);
  }

  private async save(repo: RepoWithOwner, topics: string[]): Promise<void> {
    await this.deps.repos.topics.remember(topics);
    await this.deps.repos.repositories.update(repo.id, { topics: JSON.stringify(topics), updatedAt: new Date() });
  }

  async replace(repo: RepoWithOwner, wanted: readonly string[]): Promise<void> {
    const { valid, invalid } = sanitiseTopics(wanted);
    if (invalid.length > 0) throw new InvalidTopicsError('Invalid topics', invalid);
    if (valid.length > MAX_TOPICS) throw new InvalidTopicsError('Exceeding maximum number of topics per repo', []);
    await this.save(repo, valid);
  }

  async add(repo: RepoWithOwner, raw: string): Promise<void> {
    const topic = validOrFail(raw);
    const topics = topicsOf(repo);
    if (topics.includes(topic)) return;
    if (topics.length >= MAX_TOPICS) throw new InvalidTopicsError('Exceeding maximum allowed topics per repo.', []);
    await this.save(repo, [...topics, topic]);
  }

  async remove(repo: RepoWithOwner, raw: string): Promise<void> {
    const topic = validOrFail(raw);
    const topics = topicsOf(repo);
    if (!topics.includes(topic)) throw new NotFoundError();
    await this.save(
      repo,
      topics.filter((t) => t !== topic),
    );
  }
}
