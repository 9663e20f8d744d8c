// Repository edits: the settings and units of PATCH /repos/{owner}/{repo}, renames (of the repository, and of its
// owner's folder with the owner), and bringing the row in line with the disk after git writes.
import fs from 'node:fs';
import type { RepositoryChangesRow, User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { UnitType } from '../domain/access/modes.ts';
import { DEFAULT_ISSUES_CONFIG, DEFAULT_PULLS_CONFIG } from '../domain/default-units.ts';
import { parseGoDuration } from '../lib/go-duration.ts';
import { repoNameProblem } from '../domain/names.ts';
import { repoUnitsSettingsProblem } from '../domain/repo-units-settings.ts';
import { repositorySettings } from '../domain/repository-settings.ts';
import { isValidBranchName } from '../domain/branch-name.ts';
import { NameTakenError, ValidationError } from '../domain/errors.ts';
import { hasBranchRefs, readRepositoryState, setHeadBranch } from '../infra/git/repository.ts';
import { readBranches } from '../infra/git/ref-files.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActivityService } from './activity.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';

/** Cut-off writes read per batch by refreshCutOffFromDisk. */
const CUT_OFF_BATCH = 500;
const CUT_OFF_BATCH_REST_FACTOR = 2;
const MIN_MIRROR_INTERVAL_SECS = 600;

export interface RepositoryEdit {
  name?: string;
  description?: string;
  website?: string;
  private?: boolean;
  template?: boolean;
  archived?: boolean;
  default_branch?: string;
  has_issues?: boolean;
  has_wiki?: boolean;
  has_pull_requests?: boolean;
  has_projects?: boolean;
  has_releases?: boolean;
  has_packages?: boolean;
  has_actions?: boolean;
  internal_tracker?: {
    enable_time_tracker?: boolean;
    allow_only_contributors_to_track_time?: boolean;
    enable_issue_dependencies?: boolean;
  };
  external_tracker?: {
    external_tracker_url?: string;
    external_tracker_format?: string;
    external_tracker_style?: string;
    external_tracker_regexp_pattern?: string;
  };
  external_wiki?: { external_wiki_url?: string };
  mirror_interval?: string;
  wiki_branch?: string;
  enable_prune?: boolean;
  [pullsSetting: string]: unknown;
}

const PULLS_EDIT_KEYS = [
  'ignore_whitespace_conflicts',
  'allow_merge_commits',
  'allow_rebase',
  'allow_rebase_explicit',
  'allow_squash_merge',
  'allow_fast_forward_only_merge',
  'allow_rebase_update',
  'default_delete_branch_after_merge',
  'default_merge_style',
  'default_update_style',
  'default_allow_maintainer_edit',
] as const;

export class RepositoryEditService {
  private readonly repos: RepositoryRowsRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly activity: ActivityService,
  ) {
    this.repos = deps.repos.repositories;
  }

  private get store() {
    return this.deps.stores.repositories;
  }

  private dir(ownerName: string, repoName: string): string {
    return this.store.directory(ownerName, repoName);
  }

  async edit(viewer: User, repo: RepoWithOwner, patch: RepositoryEdit): Promise<RepoWithOwner> {
    // Checked before the rename and every other write, so a refused edit stores nothing.
    const settingsProblem = repoUnitsSettingsProblem(patch, this.deps.settings.server.ROOT_URL);
    if (settingsProblem) throw new ValidationError(settingsProblem);
    let current = repo;
    if (patch.name !== undefined && patch.name !== repo.name) current = await this.rename(viewer, current, patch.name);

    const data: RepositoryChangesRow = {};
    if (patch.description !== undefined) {
      if ([...patch.description].length > 2048) throw new ValidationError('[Description]: MaxSize');
      data.description = patch.description;
    }
    if (patch.website !== undefined) {
      if (patch.website.length > 1024) throw new ValidationError('[Website]: MaxSize');
      data.website = patch.website;
    }
    if (patch.template !== undefined) data.isTemplate = patch.template;
    if (patch.private !== undefined && patch.private !== current.isPrivate) {
      if (!patch.private && this.deps.settings.repository.FORCE_PRIVATE && !viewer.isAdmin)
        throw new ValidationError('cannot make private repository public');
      data.isPrivate = patch.private;
    }
    if (patch.archived !== undefined && patch.archived !== current.isArchived) {
      if (current.isMirror) throw new ValidationError('repo is a mirror, cannot archive/un-archive');
      data.isArchived = patch.archived;
      data.archivedAt = patch.archived ? new Date() : null;
    }
    if (patch.default_branch !== undefined && patch.default_branch !== current.defaultBranch) {
      const dir = this.dir(current.ownerName, current.name);
      const usable = current.isEmpty
        ? isValidBranchName(patch.default_branch)
        : (await readBranches(dir)).includes(patch.default_branch);
      // Forgejo ignores a default branch that does not exist.
      if (usable) {
        await setHeadBranch(dir, patch.default_branch);
        data.defaultBranch = patch.default_branch;
      }
    }
    const settings = repositorySettings(current);
    if (patch.wiki_branch !== undefined) settings.wikiBranch = patch.wiki_branch;
    if (patch.enable_prune !== undefined) settings.enablePrune = patch.enable_prune;
    if (patch.wiki_branch !== undefined || patch.enable_prune !== undefined) data.settings = JSON.stringify(settings);

    const unitChanges = this.unitChanges(current, patch);
    let mirrorIntervalSecs: number | undefined;
    if (patch.mirror_interval !== undefined && current.isMirror) {
      const seconds = parseGoDuration(patch.mirror_interval);
      if (seconds === null || (seconds !== 0 && seconds < MIN_MIRROR_INTERVAL_SECS))
        throw new ValidationError(`invalid mirror interval: ${patch.mirror_interval}`);
      mirrorIntervalSecs = seconds;
    }
    await this.deps.transactions.run(async (tx) => {
      const repos = tx.repositories;
      if (Object.keys(data).length > 0) {
        data.updatedAt = new Date();
        await repos.update(current.id, data);
        if (data.isPrivate !== undefined) await tx.feedActions.setRepoPrivacy(current.id, data.isPrivate as boolean);
      }
      if (unitChanges.remove.length) await repos.removeUnits(current.id, unitChanges.remove);
      for (const unit of unitChanges.upsert) await repos.saveUnit(current.id, unit.type, JSON.stringify(unit.config));
      if (mirrorIntervalSecs !== undefined) {
        await tx.mirrors.setInterval(current.id, mirrorIntervalSecs, new Date(Date.now() + mirrorIntervalSecs * 1000));
      }
    });
    return (await this.repos.findById(current.id))!;
  }

  private unitChanges(
    repo: RepoWithOwner,
    patch: RepositoryEdit,
  ): { upsert: Array<{ type: number; config: object }>; remove: number[] } {
    const upsert: Array<{ type: number; config: object }> = [];
    const remove: number[] = [];
    const existing = (type: number) => {
      const unit = repo.units.find((u) => u.type === type);
      return unit ? (JSON.parse(unit.config) as Record<string, unknown>) : undefined;
    };
    if (patch.has_issues === true && patch.external_tracker) {
      upsert.push({
        type: UnitType.extIssues,
        config: { external_tracker_style: 'numeric', ...patch.external_tracker },
      });
      remove.push(UnitType.issues);
    } else if (patch.has_issues === true) {
      upsert.push({
        type: UnitType.issues,
        config: { ...DEFAULT_ISSUES_CONFIG, ...existing(UnitType.issues), ...patch.internal_tracker },
      });
      remove.push(UnitType.extIssues);
    } else if (patch.has_issues === false) {
      remove.push(UnitType.issues, UnitType.extIssues);
    }
    if (patch.has_wiki === true && patch.external_wiki) {
      upsert.push({ type: UnitType.extWiki, config: { external_wiki_url: patch.external_wiki.external_wiki_url } });
      remove.push(UnitType.wiki);
    } else if (patch.has_wiki === true) {
      upsert.push({ type: UnitType.wiki, config: existing(UnitType.wiki) ?? {} });
      remove.push(UnitType.extWiki);
    } else if (patch.has_wiki === false) {
      remove.push(UnitType.wiki, UnitType.extWiki);
    }
    const pullsConfig = existing(UnitType.pulls);
    if (patch.has_pull_requests === false) {
      remove.push(UnitType.pulls);
    } else if (patch.has_pull_requests === true || pullsConfig) {
      const changes = Object.fromEntries(
        PULLS_EDIT_KEYS.filter((key) => patch[key] !== undefined).map((key) => [key, patch[key]]),
      );
      if (patch.has_pull_requests === true || Object.keys(changes).length > 0) {
        upsert.push({ type: UnitType.pulls, config: { ...DEFAULT_PULLS_CONFIG, ...pullsConfig, ...changes } });
      }
    }
    const simple: Array<[boolean | undefined, number]> = [
      [patch.has_projects, UnitType.projects],
      [patch.has_releases, UnitType.releases],
      [patch.has_packages, UnitType.packages],
      [patch.has_actions, UnitType.actions],
    ];
    for (const [enabled, type] of simple) {
      if (enabled === true && !existing(type)) upsert.push({ type, config: {} });
      if (enabled === false) remove.push(type);
    }
    return { upsert, remove };
  }

  /**
   * Renames a repository: name rules (422), a free name (422, as Forgejo), the directory, a redirect from the old
   * name.
   */
  private async rename(doer: User, repo: RepoWithOwner, newName: string): Promise<RepoWithOwner> {
    const problem = repoNameProblem(newName);
    if (problem === 'reserved') throw new ValidationError(`repo name is reserved [name: ${newName}]`);
    if (problem) throw new ValidationError(`invalid repo name [name: ${newName}]`);
    const lower = newName.toLowerCase();
    if (lower !== repo.lowerName) {
      const taken = await this.repos.findIdByOwner(repo.ownerId, lower);
      if (taken) throw new ValidationError(`repo name is already taken [name: ${newName}]`);
    }
    let moved = false;
    try {
      await this.deps.transactions.run(async (tx) => {
        const repos = tx.repositories;
        await repos.update(repo.id, { name: newName, lowerName: lower, updatedAt: new Date() });
        await repos.removeRedirect(repo.ownerId, lower);
        if (lower !== repo.lowerName) await repos.saveRedirect(repo.ownerId, repo.lowerName, repo.id);
        // The folder moves last, inside the transaction, and back if the transaction does not commit.
        moved = this.store.rename(repo.ownerName, repo.name, newName);
      });
    } catch (error) {
      if (moved) {
        try {
          this.store.rename(repo.ownerName, newName, repo.name);
        } catch (moveError) {
          this.deps.log.error(
            { err: moveError, from: newName, to: repo.name },
            'moving a repository folder back failed',
          );
        }
      }
      if (error instanceof NameTakenError) throw new ValidationError(`repo name is already taken [name: ${newName}]`);
      throw error;
    }
    await this.activity.record({
      op: 'rename_repo',
      actorId: doer.id,
      repo: { id: repo.id, ownerId: repo.ownerId, isPrivate: repo.isPrivate },
      content: repo.name,
    });
    return (await this.repos.findById(repo.id))!;
  }

  /**
   * Keeps ownerName and the owner's folder in step when a user or organization is renamed. Call it inside the
   * transaction that renames the owner, as its last step; if that transaction does not commit, call the
   * returned function to move the folder back (Forgejo: services/user RenameUser).
   */
  async ownerRenamed(tx: Repositories, ownerId: number, oldName: string, newName: string): Promise<() => void> {
    await tx.repositories.setOwnerName(ownerId, newName);
    const moved = this.store.renameOwner(oldName, newName);
    return () => {
      if (!moved) return;
      try {
        this.store.renameOwner(newName, oldName);
      } catch (error) {
        this.deps.log.error({ err: error, from: newName, to: oldName }, 'moving an owner folder back failed');
      }
    };
  }

  // ---- after git writes ----

  /** Reads size, emptiness and default branch from disk after a push or a mirror fetch. */
  async refreshFromDisk(repoId: number): Promise<void> {
    const repo = await this.repos.findRowById(repoId);
    if (!repo) return;
    const dir = this.dir(repo.ownerName, repo.name);
    const state = await readRepositoryState(dir);
    const gitSize = BigInt(state.size);
    const data: RepositoryChangesRow = {
      size: gitSize + repo.lfsSize,
      gitSize,
      isEmpty: state.isEmpty,
      updatedAt: new Date(),
    };
    // The first push into an empty repository decides the default branch when the configured one was not pushed.
    if (state.defaultBranch && state.defaultBranch !== repo.defaultBranch) {
      const branches = await readBranches(dir);
      if (!branches.includes(repo.defaultBranch)) {
        data.defaultBranch = state.defaultBranch;
        await setHeadBranch(dir, state.defaultBranch);
      }
    }
    await this.repos.update(repoId, data);
  }

  /**
   * Rows a stop cut off: a write into git (a push, a merge, a web edit) that began and never brought its row up to
   * date. Run at start, over the writes that began before it; each repository whose disk differs from its row is
   * refreshed. Returns how many were.
   */
  async refreshCutOffFromDisk(): Promise<number> {
    const startedAt = new Date();
    const inFlight = this.deps.repos.pushesInFlight;
    let refreshed = 0;
    // In batches, resting twice as long as a batch took: an upgraded site marks every empty repository once, and
    // 100,000 of them are walked while requests are served, never taking more than a third of the loop.
    let afterId = 0;
    for (;;) {
      const started = performance.now();
      const batch = await inFlight.listBegunBefore(startedAt, afterId, CUT_OFF_BATCH);
      if (batch.length === 0) return refreshed;
      afterId = batch[batch.length - 1].id;
      const outcome = await this.refreshBatch([...new Set(batch.map((write) => write.repoId))]);
      refreshed += outcome.refreshed;
      // A repository that could not be read keeps its marks: the next start tries it again.
      await inFlight.end(batch.filter((write) => !outcome.failed.has(write.repoId)).map((write) => write.id));
      await sleep(CUT_OFF_BATCH_REST_FACTOR * (performance.now() - started));
    }
  }

  private async refreshBatch(repoIds: number[]): Promise<{ refreshed: number; failed: Set<number> }> {
    let refreshed = 0;
    const failed = new Set<number>();
    for (const repo of await this.repos.listDiskFacts(repoIds)) {
      try {
        const dir = this.dir(repo.ownerName, repo.name);
        // Most of them are empty and stayed so: the files say so without starting git.
        if (repo.isEmpty && !hasBranchRefs(dir)) continue;
        // A directory gone (a disk not mounted, say) does not make a repository that holds branches empty.
        if (!fs.existsSync(dir)) throw new Error('the git directory is missing');
        const state = await readRepositoryState(dir);
        if (state.isEmpty === repo.isEmpty && BigInt(state.size) === repo.gitSize) continue;
        await this.refreshFromDisk(repo.id);
        refreshed++;
      } catch (error) {
        this.deps.log.warn({ err: error, repoId: repo.id }, 'reading a repository from disk failed');
        failed.add(repo.id);
      }
    }
    return { refreshed, failed };
  }
}
