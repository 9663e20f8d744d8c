// Whether the caller watches a repository (Forgejo: routers/api/v1/repo/subscriber.go IsWatching).
import type { User } from '../db/entities.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** Watch mode 2 is an explicit "don't watch". */
const DONT_WATCH = 2;

export class RepoSubscriptionService {
  constructor(private readonly deps: ServiceDeps) {}

  /** When the caller started watching; 404 when they do not watch. */
  async watchedSince(viewer: User, repo: RepoWithOwner): Promise<Date> {
    const watch = await this.deps.repos.repoWatches.find(viewer.id, repo.id);
    if (!watch || watch.mode === DONT_WATCH) throw new NotFoundError();
    return watch.createdAt;
  }
}
