// Repository removal: DELETE /repos/{owner}/{repo} (row, then folder) and the rows of repositories whose folder
// is gone (the delete_missing_repos task).
import type { User } from '../db/entities.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { RecordGoneError } from '../domain/errors.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';

export class RepositoryRemovalService {
  private readonly repos: RepositoryRowsRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly hookEvents: HookEventsService,
  ) {
    this.repos = deps.repos.repositories;
  }

  private get store() {
    return this.deps.stores.repositories;
  }

  async delete(repo: RepoWithOwner, doer: User): Promise<void> {
    await this.deps.transactions.run(async (repos) => {
      await this.hookEvents.repositoryDeleted(repos, repo, doer);
      // A concurrent delete came first: nothing was deleted here, and the event above is rolled back.
      if ((await repos.repositories.deleteWithRelatedRows([repo.id])) === 0) throw new RecordGoneError('repository');
    });
    this.store.remove(repo.ownerName, repo.name);
  }

  /** Removes the row of a repository whose directory is gone (delete_missing_repos); false when it is there. */
  async removeMissing(repoId: number): Promise<boolean> {
    const repo = await this.repos.findById(repoId);
    if (!repo || this.store.exists(repo.ownerName, repo.name)) return false;
    await this.removeRecord(repo);
    return true;
  }

  /** Removes a repository row and everything that points at it, and fixes the counters. */
  private async removeRecord(repo: RepoWithOwner): Promise<void> {
    await this.deps.transactions.run((tx) => tx.repositories.deleteWithRelatedRows([repo.id]));
  }
}
