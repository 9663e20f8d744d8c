// Watching a repository: whether the caller does, start and stop (Forgejo: routers/api/v1/repo/subscriber.go).
import type { User } from '../db/entities.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
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

  async watch(viewer: User, repo: RepoWithOwner): Promise<{ repo: RepoWithOwner; createdAt: Date }> {
    const existing = await this.deps.repos.repoWatches.find(viewer.id, repo.id);
    if (existing && existing.mode !== DONT_WATCH) return { repo, createdAt: existing.createdAt };
    const watch = await this.deps.transactions.run(async (tx) => {
      const watches = tx.repoWatches;
      const row = existing ? await watches.setMode(existing.id, 1) : await watches.create(viewer.id, repo.id, 1);
      await tx.repositories.changeWatchCount(repo.id, 1);
      return row;
    });
    return { repo, createdAt: watch.createdAt };
  }

  async unwatch(viewer: User, repo: RepoWithOwner): Promise<void> {
    const existing = await this.deps.repos.repoWatches.find(viewer.id, repo.id);
    if (!existing) return;
    await this.deps.transactions.run(async (tx) => {
      await tx.repoWatches.delete(existing.id);
      // Mode 2 ("don't watch") was not counted.
      if (existing.mode !== DONT_WATCH) await tx.repositories.changeWatchCount(repo.id, -1);
    });
  }

  /** Ids of the repositories `user` watches; the caller filters them by what the viewer may read. */
  watchedIds(user: User): Promise<number[]> {
    return this.deps.repos.repoWatches.listRepoIds(user.id);
  }

  watchers(repo: RepoWithOwner, page: ListOptions): Promise<{ users: User[]; total: number }> {
    return this.deps.repos.repoWatches.listWatchers(repo.id, page.skip, page.limit);
  }
}
