// Repositories: creation (plain, for an org, by an admin, and the shared core used by migration and adoption),
// lookup with permission, edit, delete, watch, and bringing the database in line with the disk after a push.
import type { Models, RepositoryChangesRow, User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import type { RepositoryDetails, RepositoryRecordDetails } from '../db/repository-details.ts';
import type { MirrorRepository } from '../db/mirror.repository.ts';
import type { RepoAccessRepository } from '../db/repo-access.repository.ts';
import type { RepoWatchRepository } from '../db/repo-watch.repository.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { AccessMode, UnitType } from '../domain/access.ts';
import { parseGoDuration } from '../lib/go-duration.ts';
import { repoNameProblem } from '../domain/names.ts';
import { repoUnitsSettingsProblem } from '../domain/repo-units-settings.ts';
import { type RepositorySettings, repositorySettings } from '../domain/repository-settings.ts';
import { ConflictError, ForbiddenError, NameTakenError, RecordGoneError, ValidationError } from '../domain/errors.ts';
import { commitInitialFiles, hasBranchRefs, initBare, isValidBranchName, listBranches, readRepositoryState, setHeadBranch } from '../infra/git/repository.ts';
import type { ActivityService } from './activity.service.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoInitService } from './repo-init.service.ts';
import type { RepoPermission, RepoPermissionService, RepoWithOwner } from './repo-permission.service.ts';

export const DEFAULT_ISSUES_CONFIG = { enable_time_tracker: true, allow_only_contributors_to_track_time: true, enable_issue_dependencies: true };
export const DEFAULT_PULLS_CONFIG = {
  ignore_whitespace_conflicts: false,
  allow_merge_commits: true,
  allow_rebase: true,
  allow_rebase_explicit: true,
  allow_squash_merge: true,
  allow_fast_forward_only_merge: true,
  allow_rebase_update: true,
  default_delete_branch_after_merge: false,
  default_merge_style: 'merge',
  default_update_style: 'merge',
  default_allow_maintainer_edit: false,
};
export const DEFAULT_UNITS: ReadonlyArray<{ type: number; config: object }> = [
  { type: UnitType.code, config: {} },
  { type: UnitType.issues, config: DEFAULT_ISSUES_CONFIG },
  { type: UnitType.pulls, config: DEFAULT_PULLS_CONFIG },
  { type: UnitType.releases, config: {} },
  { type: UnitType.wiki, config: {} },
  { type: UnitType.projects, config: {} },
  { type: UnitType.packages, config: {} },
  { type: UnitType.actions, config: {} },
];
const MIN_MIRROR_INTERVAL_SECS = 600;
export const REPO_EXISTS_MESSAGE = 'The repository with the same name already exists.';


export interface NewRepository {
  name: string;
  description?: string;
  website?: string;
  private?: boolean;
  template?: boolean;
  autoInit?: boolean;
  gitignores?: string;
  license?: string;
  readme?: string;
  issueLabels?: string;
  defaultBranch?: string;
  objectFormat?: 'sha1' | 'sha256';
  trustModel?: string;
}

/** What the shared creation core writes; `prepareDisk` fills the directory and answers what it found there. */
export interface RepositoryRecord {
  name: string;
  description?: string;
  website?: string;
  originalUrl?: string;
  isPrivate: boolean;
  isTemplate?: boolean;
  isMirror?: boolean;
  defaultBranch: string;
  settings?: RepositorySettings;
  mirror?: { intervalSecs: number; remoteAddress: string };
}

/** Where a new repository's git directory comes from: built by `build` in a fresh directory, or already in place. */
export type RepositoryDisk = { build: (dir: string) => Promise<void> } | { adopt: true };

const filesExist = (owner: string, name: string) =>
  new ConflictError(`The repository files already exist [${owner}/${name}]; adopt or delete them first.`);

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
  internal_tracker?: { enable_time_tracker?: boolean; allow_only_contributors_to_track_time?: boolean; enable_issue_dependencies?: boolean };
  external_tracker?: { external_tracker_url?: string; external_tracker_format?: string; external_tracker_style?: string; external_tracker_regexp_pattern?: string };
  external_wiki?: { external_wiki_url?: string };
  mirror_interval?: string;
  wiki_branch?: string;
  enable_prune?: boolean;
  [pullsSetting: string]: unknown;
}

const PULLS_EDIT_KEYS = [
  'ignore_whitespace_conflicts', 'allow_merge_commits', 'allow_rebase', 'allow_rebase_explicit', 'allow_squash_merge',
  'allow_fast_forward_only_merge', 'allow_rebase_update', 'default_delete_branch_after_merge', 'default_merge_style',
  'default_update_style', 'default_allow_maintainer_edit',
] as const;

export class RepositoryService {
  private readonly repos: RepositoryRowsRepository;
  private readonly watches: RepoWatchRepository;
  private readonly mirrors: MirrorRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly activity: ActivityService,
    private readonly permissions: RepoPermissionService,
    private readonly init: RepoInitService,
    private readonly hookEvents: HookEventsService,
  ) {
    this.repos = deps.repos.repositories;
    this.watches = deps.repos.repoWatches;
    this.mirrors = deps.repos.mirrors;
  }

  private get store() {
    return this.deps.stores.repositories;
  }

  private dir(ownerName: string, repoName: string): string {
    return this.store.directory(ownerName, repoName);
  }

  /** A repository by owner and name (case-insensitive), with owner and units; null when there is none. */
  async find(ownerName: string, repoName: string): Promise<RepoWithOwner | null> {
    return this.repos.findByOwnerAndName(ownerName.toLowerCase(), repoName.toLowerCase());
  }

  async findById(id: number): Promise<RepoWithOwner | null> {
    return this.repos.findById(id);
  }

  /** A repository of this owner by name (case-insensitive), with owner and units; null when there is none. */
  async findInOwner(owner: User, repoName: string): Promise<RepoWithOwner | null> {
    return this.repos.findInOwner(owner.id, repoName.toLowerCase());
  }

  /** What the Repository converter needs beyond the row: mirrors and release counts, for many repositories at once. */
  async extras(repoIds: readonly number[]): Promise<{ mirrors: Map<number, Models.MirrorModel>; releases: Map<number, number> }> {
    if (repoIds.length === 0) return { mirrors: new Map(), releases: new Map() };
    const [mirrors, releases] = await Promise.all([
      this.mirrors.listByRepoIds(repoIds),
      this.repos.countReleases(repoIds),
    ]);
    return { mirrors: new Map(mirrors.map((m) => [m.repoId, m])), releases };
  }

  /** Everything the Repository converter needs for each repository, in a fixed number of queries. */
  async details(viewer: User | null, repos: readonly RepoWithOwner[], fixedPermission?: RepoPermission): Promise<RepositoryDetails[]> {
    const [permissions, withExtras] = await Promise.all([
      fixedPermission ? null : this.permissions.forRepos(viewer, repos),
      this.withExtras(repos),
    ]);
    return withExtras.map((details) => ({ ...details, permission: fixedPermission ?? permissions!.get(details.repo.id)! }));
  }

  /** What the Repository converter needs but the permission, for answers that show none (activity feeds). */
  async withExtras(repos: readonly RepoWithOwner[]): Promise<RepositoryRecordDetails[]> {
    const { mirrors, releases } = await this.extras(repos.map((repo) => repo.id));
    return repos.map((repo) => ({ repo, mirror: mirrors.get(repo.id) ?? null, releaseCount: releases.get(repo.id) ?? 0 }));
  }

  // ---- creation ----

  async createForUser(doer: User, input: NewRepository): Promise<RepoWithOwner> {
    return this.create(doer, doer, input);
  }

  /** Creates a repository with Forgejo's options: README, .gitignore and licence when auto_init is set. */
  async create(doer: User, owner: User, input: NewRepository): Promise<RepoWithOwner> {
    const { settings } = this.deps;
    const defaultBranch = input.defaultBranch?.trim() || settings.repository.DEFAULT_BRANCH;
    if (!(await isValidBranchName(defaultBranch))) throw new ValidationError(`invalid default branch name: ${defaultBranch}`);
    const { files, labels } = this.init.prepare(owner, input);
    const record: RepositoryRecord = {
      name: input.name,
      description: input.description,
      website: input.website,
      isPrivate: (input.private ?? false) || settings.repository.FORCE_PRIVATE,
      isTemplate: input.template ?? false,
      defaultBranch,
      settings: {
        ...(input.objectFormat ? { objectFormat: input.objectFormat } : {}),
        ...(input.trustModel ? { trustModel: input.trustModel } : {}),
      },
    };
    const created = await this.insert(doer, owner, record, {
      build: async (dir) => {
        await initBare(dir, { defaultBranch, objectFormat: input.objectFormat });
        if (files.length > 0) await commitInitialFiles(dir, defaultBranch, files, { name: doer.fullName || doer.name, email: doer.email || `${doer.lowerName}@${settings.service.NO_REPLY_ADDRESS}` });
      },
    });
    await this.init.createLabels(created.id, labels);
    return created;
  }

  /** Refuses names Forgejo refuses (422) and owners at their repository limit (403). */
  async checkCreation(doer: User, owner: User, name: string): Promise<void> {
    const problem = repoNameProblem(name);
    if (problem === 'reserved') throw new ValidationError(`repo name is reserved [name: ${name}]`);
    if (problem === 'pattern') throw new ValidationError(`repo name pattern is not allowed [name: ${name}]`);
    if (problem) throw new ValidationError(`invalid repo name [name: ${name}]`);
    if (!doer.isAdmin) {
      const limit = owner.maxRepoCreation <= -1 ? this.deps.settings.repository.MAX_CREATION_LIMIT : owner.maxRepoCreation;
      if (limit > -1 && owner.numRepos >= limit) throw new ForbiddenError(`You have already reached your limit of ${limit} repositories.`);
    }
    if (await this.repos.findIdByOwner(owner.id, name.toLowerCase())) {
      throw new ConflictError(REPO_EXISTS_MESSAGE);
    }
  }

  /**
   * The creation core: checks, then the git directory, then the row with its default units, team access, the
   * creator's watch and the hooks' event. A new directory is built aside and moved into place in the row's
   * transaction, just before it commits: a crash leaves at most a directory without a row (listed as unadopted),
   * never a row without its directory. `adopt` takes the directory already in place.
   */
  async insert(doer: User, owner: User, record: RepositoryRecord, disk: RepositoryDisk): Promise<RepoWithOwner> {
    await this.checkCreation(doer, owner, record.name);
    const adopt = 'adopt' in disk;
    if (!adopt && this.store.exists(owner.name, record.name)) throw filesExist(owner.name, record.name);
    const staging = adopt ? null : this.store.createStaging();
    let placed = false;
    let created: RepoWithOwner;
    try {
      if (staging && 'build' in disk) await disk.build(staging);
      const state = await readRepositoryState(staging ?? this.dir(owner.name, record.name));
      created = await this.deps.transactions.run(async (tx) => {
        const repos = tx.repositories;
        const repo = await repos.createWithUnits(
          {
            ownerId: owner.id,
            ownerName: owner.name,
            name: record.name,
            lowerName: record.name.toLowerCase(),
            description: record.description ?? '',
            website: record.website ?? '',
            originalUrl: record.originalUrl ?? '',
            isPrivate: record.isPrivate,
            isTemplate: record.isTemplate ?? false,
            isMirror: record.isMirror ?? false,
            defaultBranch: state.defaultBranch ?? record.defaultBranch,
            settings: JSON.stringify(record.settings ?? {}),
            numWatches: 1,
            size: BigInt(state.size),
            gitSize: BigInt(state.size),
            isEmpty: state.isEmpty,
          },
          DEFAULT_UNITS.map((unit) => ({ type: unit.type, config: JSON.stringify(unit.config) })),
          record.mirror && { ...record.mirror, nextUpdateAt: new Date(Date.now() + record.mirror.intervalSecs * 1000) },
        );
        await repos.incrementOwnerRepoCount(owner.id);
        // The name names a real repository again: a redirect from it must not outlive this one (as in Forgejo).
        await repos.removeRedirect(owner.id, repo.lowerName);
        await tx.repoWatches.create(doer.id, repo.id, 1);
        if (owner.type === 1) await this.grantTeams(tx.repoAccess, owner.id, doer, repo.id);
        const ready = await repos.getById(repo.id);
        // Its webhooks (default hooks copied in) hear of it with the row.
        await this.hookEvents.repositoryCreated(tx, ready, doer);
        if (staging) {
          try {
            this.store.placeStaged(staging, owner.name, record.name);
          } catch (error) {
            const code = (error as NodeJS.ErrnoException).code;
            if (code === 'ENOTEMPTY' || code === 'EEXIST') throw filesExist(owner.name, record.name);
            throw error;
          }
          placed = true;
        }
        return ready;
      });
    } catch (error) {
      // The directory was placed but the row did not commit: it is this creation's and goes with it.
      if (placed) this.store.remove(owner.name, record.name);
      if (error instanceof NameTakenError) throw new ConflictError(REPO_EXISTS_MESSAGE);
      // Its owner deleted meanwhile, folder and all: that, not the disk or the database, is the answer.
      if (!(error instanceof RecordGoneError) && (await this.deps.repos.users.byId(owner.id)) === null) throw new RecordGoneError('repository');
      throw error;
    } finally {
      if (staging) this.store.removeStaged(staging);
    }
    await this.activity.record({ op: 'create_repo', actorId: doer.id, repo: { id: created.id, ownerId: owner.id, isPrivate: created.isPrivate } });
    return created;
  }

  /**
   * The creator's teams that may create repositories get the new one; teams that include all repositories
   * cover it through their flag, without a TeamRepo row (as TeamService keeps them). A creator without admin
   * access through a team becomes an admin collaborator (Forgejo does the same).
   */
  private async grantTeams(access: RepoAccessRepository, orgId: number, doer: User, repoId: number): Promise<void> {
    const teams = await access.listTeamsForNewRepo(orgId, doer.id);
    for (const team of teams.filter((candidate) => !candidate.includesAllRepositories)) {
      await access.addTeamRepo(orgId, team.id, repoId);
    }
    const adminThroughTeam = teams.some((team) => team.members.length > 0 && team.accessMode >= AccessMode.admin);
    if (!doer.isAdmin && !adminThroughTeam) await access.addCollaborator(repoId, doer.id, AccessMode.admin);
  }

  /** Removes a repository row and everything that points at it, and fixes the counters. */
  private async removeRecord(repo: RepoWithOwner): Promise<void> {
    await this.deps.transactions.run((tx) => tx.repositories.deleteWithRelatedRows([repo.id]));
  }

  // ---- delete ----

  async delete(repo: RepoWithOwner, doer: User): Promise<void> {
    await this.deps.transactions.run(async (repos) => {
      await this.hookEvents.repositoryDeleted(repos, repo, doer);
      // A concurrent delete came first: nothing was deleted here, and the event above is rolled back.
      if ((await repos.repositories.deleteWithRelatedRows([repo.id])) === 0) throw new RecordGoneError('repository');
    });
    this.store.remove(repo.ownerName, repo.name);
  }

  // ---- edit ----

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
      if (!patch.private && this.deps.settings.repository.FORCE_PRIVATE && !viewer.isAdmin) throw new ValidationError('cannot make private repository public');
      data.isPrivate = patch.private;
    }
    if (patch.archived !== undefined && patch.archived !== current.isArchived) {
      if (current.isMirror) throw new ValidationError('repo is a mirror, cannot archive/un-archive');
      data.isArchived = patch.archived;
      data.archivedAt = patch.archived ? new Date() : null;
    }
    if (patch.default_branch !== undefined && patch.default_branch !== current.defaultBranch) {
      const dir = this.dir(current.ownerName, current.name);
      const usable = current.isEmpty ? await isValidBranchName(patch.default_branch) : (await listBranches(dir)).includes(patch.default_branch);
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
      if (seconds === null || (seconds !== 0 && seconds < MIN_MIRROR_INTERVAL_SECS)) throw new ValidationError(`invalid mirror interval: ${patch.mirror_interval}`);
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
    return (await this.findById(current.id))!;
  }

  private unitChanges(repo: RepoWithOwner, patch: RepositoryEdit): { upsert: Array<{ type: number; config: object }>; remove: number[] } {
    const upsert: Array<{ type: number; config: object }> = [];
    const remove: number[] = [];
    const existing = (type: number) => {
      const unit = repo.units.find((u) => u.type === type);
      return unit ? (JSON.parse(unit.config) as Record<string, unknown>) : undefined;
    };
    if (patch.has_issues === true && patch.external_tracker) {
      upsert.push({ type: UnitType.extIssues, config: { external_tracker_style: 'numeric', ...patch.external_tracker } });
      remove.push(UnitType.issues);
    } else if (patch.has_issues === true) {
      upsert.push({ type: UnitType.issues, config: { ...DEFAULT_ISSUES_CONFIG, ...existing(UnitType.issues), ...patch.internal_tracker } });
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
      const changes = Object.fromEntries(PULLS_EDIT_KEYS.filter((key) => patch[key] !== undefined).map((key) => [key, patch[key]]));
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

  /** Renames a repository: name rules (422), a free name (422, as Forgejo), the directory, a redirect from the old name. */
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
          this.deps.log.error({ err: moveError, from: newName, to: repo.name }, 'moving a repository folder back failed');
        }
      }
      if (error instanceof NameTakenError) throw new ValidationError(`repo name is already taken [name: ${newName}]`);
      throw error;
    }
    await this.activity.record({ op: 'rename_repo', actorId: doer.id, repo: { id: repo.id, ownerId: repo.ownerId, isPrivate: repo.isPrivate }, content: repo.name });
    return (await this.findById(repo.id))!;
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

  /** The repository a renamed one's old name leads to (Forgejo: repo_model.LookupRedirect); null when none. */
  async renamedTo(ownerId: number, oldName: string): Promise<RepoWithOwner | null> {
    const redirect = await this.repos.findRedirect(ownerId, oldName.toLowerCase());
    if (!redirect) return null;
    return this.repos.findById(redirect.redirectRepoId);
  }

  // ---- after git writes ----

  /** Reads size, emptiness and default branch from disk after a push or a mirror fetch. */
  async refreshFromDisk(repoId: number): Promise<void> {
    const repo = await this.repos.findRowById(repoId);
    if (!repo) return;
    const dir = this.dir(repo.ownerName, repo.name);
    const state = await readRepositoryState(dir);
    const gitSize = BigInt(state.size);
    const data: RepositoryChangesRow = { size: gitSize + repo.lfsSize, gitSize, isEmpty: state.isEmpty, updatedAt: new Date() };
    // The first push into an empty repository decides the default branch when the configured one was not pushed.
    if (state.defaultBranch && state.defaultBranch !== repo.defaultBranch) {
      const branches = await listBranches(dir);
      if (!branches.includes(repo.defaultBranch)) {
        data.defaultBranch = state.defaultBranch;
        await setHeadBranch(dir, state.defaultBranch);
      }
    }
    await this.repos.update(repoId, data);
  }

  /**
   * Rows that say empty although git holds branches: a push cut off by a crash wrote its refs but never updated
   * the row. Run at start; each such row is refreshed from disk. Returns how many were.
   */
  async refreshEmptyFromDisk(): Promise<number> {
    let refreshed = 0;
    for (const repo of await this.repos.listEmpty()) {
      try {
        // Most empty repositories are empty: the files say so without starting git.
        if (!hasBranchRefs(this.dir(repo.ownerName, repo.name))) continue;
        if ((await readRepositoryState(this.dir(repo.ownerName, repo.name))).isEmpty) continue;
        await this.refreshFromDisk(repo.id);
        refreshed++;
      } catch (error) {
        this.deps.log.warn({ err: error, repoId: repo.id }, 'reading an empty repository from disk failed');
      }
    }
    return refreshed;
  }

  /** Removes the row of a repository whose directory is gone (the delete_missing_repos task); false when it is there. */
  async removeMissing(repoId: number): Promise<boolean> {
    const repo = await this.repos.findById(repoId);
    if (!repo || this.store.exists(repo.ownerName, repo.name)) return false;
    await this.removeRecord(repo);
    return true;
  }

  // ---- smart HTTP ----

  /** Where git finds the repository. */
  gitDirectory(repo: RepoWithOwner): string {
    return this.dir(repo.ownerName, repo.name);
  }

  /** Pushing into a mirror or an archived repository is refused whatever the caller's permission. */
  assertPushable(repo: RepoWithOwner): void {
    if (repo.isMirror) throw new ForbiddenError('mirror repository is read-only');
    if (repo.isArchived) throw new ForbiddenError('repo is archived');
  }

  // ---- watch ----

  async watch(viewer: User, repo: RepoWithOwner): Promise<{ repo: RepoWithOwner; createdAt: Date }> {
    const existing = await this.watches.find(viewer.id, repo.id);
    if (existing && existing.mode !== 2) return { repo, createdAt: existing.createdAt };
    const watch = await this.deps.transactions.run(async (tx) => {
      const watches = tx.repoWatches;
      const row = existing ? await watches.setMode(existing.id, 1) : await watches.create(viewer.id, repo.id, 1);
      await tx.repositories.changeWatchCount(repo.id, 1);
      return row;
    });
    return { repo, createdAt: watch.createdAt };
  }

  async unwatch(viewer: User, repo: RepoWithOwner): Promise<void> {
    const existing = await this.watches.find(viewer.id, repo.id);
    if (!existing) return;
    await this.deps.transactions.run(async (tx) => {
      await tx.repoWatches.delete(existing.id);
      // Mode 2 ("don't watch") was not counted.
      if (existing.mode !== 2) await tx.repositories.changeWatchCount(repo.id, -1);
    });
  }
}
