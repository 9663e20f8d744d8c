// Starring repositories (Forgejo: routers/api/v1/user/star.go, routers/api/v1/repo/star.go): star, unstar, check,
// and the lists of who starred what.
import type { User } from '../db/entities.ts';
import { NotFoundError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export class RepoStarService {
  constructor(private readonly deps: ServiceDeps) {}

  /** 404 when the caller has not starred the repository. */
  async check(viewer: User, repo: RepoWithOwner): Promise<void> {
    if (!(await this.deps.repos.stars.find(viewer.id, repo.id))) throw new NotFoundError();
  }

  /** Starring twice keeps one star. */
  async star(viewer: User, repo: RepoWithOwner): Promise<void> {
    if (await this.deps.repos.stars.find(viewer.id, repo.id)) return;
    await this.deps.transactions.run((tx) => tx.stars.create(viewer.id, repo.id));
  }

  async unstar(viewer: User, repo: RepoWithOwner): Promise<void> {
    await this.deps.transactions.run((tx) => tx.stars.delete(viewer.id, repo.id));
  }

  /** Ids of the repositories `user` starred; the caller filters them by what the viewer may read. */
  starredIds(user: User): Promise<number[]> {
    return this.deps.repos.stars.listRepoIds(user.id);
  }

  stargazers(repo: RepoWithOwner, page: ListOptions): Promise<{ users: User[]; total: number }> {
    return this.deps.repos.stars.listStargazers(repo.id, page.skip, page.limit);
  }
}
