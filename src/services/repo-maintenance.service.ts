// Work the cron tasks do over every repository (Forgejo: services/mirror/mirror.go Update,
// services/repository/check.go GitFsckRepos/GitGcRepos/ReinitMissingRepositories/DeleteMissingRepositories,
// services/repository/repository.go CheckRepoStats). A repository that fails is logged and the walk goes on.
import type { FeedActionRepository } from '../db/feed-action.repository.ts';
import type { PackageBlobRepository } from '../db/package-blob.repository.ts';
import type { MaintenanceBatchFilter, RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { removeUnreferencedBlobs } from '../packages/core/remove-blobs.ts';
import { isBlobKey } from '../infra/storage/blob-store.ts';
import { checkIntegrity, collectGarbage, initBare } from '../infra/git/repository.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoMigrationService } from './repo-migration.service.ts';
import type { RepositoryEditService } from './repository-edit.service.ts';
import type { RepositoryRemovalService } from './repository-removal.service.ts';

const BATCH = 100;

type RepoRow = { id: number; ownerName: string; name: string; defaultBranch: string };

export interface MaintenanceResult {
  done: number;
  failed: number;
}

export class RepoMaintenanceService {
  private readonly repos: RepositoryRowsRepository;
  private readonly feedActions: FeedActionRepository;
  private readonly packageBlobs: PackageBlobRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly repoEdits: RepositoryEditService,
    private readonly repoRemoval: RepositoryRemovalService,
    private readonly migrations: RepoMigrationService,
  ) {
    this.repos = deps.repos.repositories;
    this.feedActions = deps.repos.feedActions;
    this.packageBlobs = deps.repos.packageBlobs;
  }

  private get store() {
    return this.deps.stores.repositories;
  }

  /** Every repository in id order, a batch at a time. */
  private async *allRepositories(filter: MaintenanceBatchFilter = {}): AsyncGenerator<RepoRow> {
    let afterId = 0;
    for (;;) {
      const batch = await this.repos.listBatchAfter(filter, afterId, BATCH);
      yield* batch;
      if (batch.length < BATCH) return;
      afterId = batch[batch.length - 1].id;
    }
  }

  private async forEach(
    task: string,
    filter: MaintenanceBatchFilter,
    work: (repo: RepoRow) => Promise<boolean>,
  ): Promise<MaintenanceResult> {
    const result: MaintenanceResult = { done: 0, failed: 0 };
    for await (const repo of this.allRepositories(filter)) {
      try {
        if (await work(repo)) result.done++;
      } catch (error) {
        result.failed++;
        this.deps.log.warn(
          { err: error, task, repo: `${repo.ownerName}/${repo.name}` },
          'repository maintenance failed',
        );
      }
    }
    return result;
  }

  private onDisk(repo: RepoRow): boolean {
    return this.store.exists(repo.ownerName, repo.name);
  }

  /** update_mirrors: fetches every pull mirror whose next update is due (an interval of 0 means manual sync only). */
  async updateDueMirrors(now = new Date()): Promise<MaintenanceResult> {
    return this.forEach('update_mirrors', { mirrorsDueAt: now }, async (repo) => {
      await this.migrations.updateMirror(repo.id);
      return true;
    });
  }

  /** check_repo_stats: sizes, emptiness and default branch read again from disk. */
  async checkStats(): Promise<MaintenanceResult> {
    return this.forEach('check_repo_stats', {}, async (repo) => {
      if (!this.onDisk(repo)) return false;
      await this.repoEdits.refreshFromDisk(repo.id);
      return true;
    });
  }

  /** git_gc_repos: git gc in every repository, then the sizes again. */
  async collectGarbage(): Promise<MaintenanceResult> {
    return this.forEach('git_gc_repos', {}, async (repo) => {
      if (!this.onDisk(repo)) return false;
      await collectGarbage(this.store.directory(repo.ownerName, repo.name));
      await this.repoEdits.refreshFromDisk(repo.id);
      return true;
    });
  }

  /** repo_health_check: git fsck in every repository; problems are logged (Forgejo writes system notices). */
  async checkHealth(): Promise<MaintenanceResult> {
    return this.forEach('repo_health_check', { nonEmptyOnly: true }, async (repo) => {
      if (!this.onDisk(repo)) throw new Error('repository directory is missing');
      const problems = await checkIntegrity(this.store.directory(repo.ownerName, repo.name));
      if (problems) throw new Error(`git fsck: ${problems}`);
      return true;
    });
  }

  /** reinit_missing_repos: an empty bare repository for every row whose directory is gone. */
  async reinitMissing(): Promise<MaintenanceResult> {
    return this.forEach('reinit_missing_repos', {}, async (repo) => {
      if (this.onDisk(repo)) return false;
      await initBare(this.store.directory(repo.ownerName, repo.name), { defaultBranch: repo.defaultBranch });
      await this.repoEdits.refreshFromDisk(repo.id);
      return true;
    });
  }

  /** delete_missing_repos: removes the rows of repositories whose directory is gone. */
  async deleteMissing(): Promise<MaintenanceResult> {
    return this.forEach('delete_missing_repos', {}, async (repo) => {
      return !this.onDisk(repo) && this.repoRemoval.removeMissing(repo.id);
    });
  }

  /** delete_old_actions: feed actions older than the cut-off. */
  async deleteOldActions(olderThanSecs: number, now = new Date()): Promise<MaintenanceResult> {
    const { count } = await this.feedActions.deleteOlderThan(new Date(now.getTime() - olderThanSecs * 1000));
    return { done: count, failed: 0 };
  }

  /** cleanup_packages: package blobs no file refers to any more, older than the cut-off, rows and files. */
  async deleteUnreferencedBlobs(olderThanSecs: number, now = new Date()): Promise<MaintenanceResult> {
    const blobs = await this.packageBlobs.listUnreferencedBefore(new Date(now.getTime() - olderThanSecs * 1000));
    const ids = blobs.map((blob) => blob.id);
    const deleted = await this.deps.transactions.run((repos) => repos.packageBlobs.deleteUnreferenced(ids));
    const { removed, failed } = await removeUnreferencedBlobs(this.deps, deleted.filter(isBlobKey));
    return { done: removed, failed };
  }
}
