// Repository creation: plain, for an org, by an admin, and the shared core used by migration and adoption (the
// checks, the git directory built aside and moved into place, the row with its units, team access and watch).
import type { User } from '../db/entities.ts';
import type { RepoAccessRepository } from '../db/repo-access.repository.ts';
import type { RepositoryRowsRepository } from '../db/repository-rows.repository.ts';
import { AccessMode } from '../domain/access/modes.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import { isValidBranchName } from '../domain/branch-name.ts';
import { DEFAULT_UNITS } from '../domain/default-units.ts';
import { repoNameProblem } from '../domain/names.ts';
import type { RepositorySettings } from '../domain/repository-settings.ts';
import { ConflictError, ForbiddenError, NameTakenError, RecordGoneError, ValidationError } from '../domain/errors.ts';
import { commitInitialFiles, initBare, readRepositoryState } from '../infra/git/repository.ts';
import type { ActivityService } from './activity.service.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { RepoInitService } from './repo-init.service.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';

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
  /** The repository this one is a fork of. */
  forkOf?: number;
}

/** Where a new repository's git directory comes from: built by `build` in a fresh directory, or already in place. */
export type RepositoryDisk = { build: (dir: string) => Promise<void> } | { adopt: true };

const filesExist = (owner: string, name: string) =>
  new ConflictError(`The repository files already exist [${owner}/${name}]; adopt or delete them first.`);

export class RepositoryCreationService {
  private readonly repos: RepositoryRowsRepository;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly activity: ActivityService,
    private readonly init: RepoInitService,
    private readonly hookEvents: HookEventsService,
  ) {
    this.repos = deps.repos.repositories;
  }

  private get store() {
    return this.deps.stores.repositories;
  }

  private dir(ownerName: string, repoName: string): string {
    return this.store.directory(ownerName, repoName);
  }

  async createForUser(doer: User, input: NewRepository): Promise<RepoWithOwner> {
    return this.create(doer, doer, input);
  }

  /** Creates a repository with Forgejo's options: README, .gitignore and licence when auto_init is set. */
  async create(doer: User, owner: User, input: NewRepository): Promise<RepoWithOwner> {
    const { settings } = this.deps;
    const defaultBranch = input.defaultBranch?.trim() || settings.repository.DEFAULT_BRANCH;
    if (!isValidBranchName(defaultBranch)) throw new ValidationError(`invalid default branch name: ${defaultBranch}`);
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
        if (files.length > 0)
          await commitInitialFiles(dir, defaultBranch, files, {
            name: doer.fullName || doer.name,
            email: doer.email || `${doer.lowerName}@${settings.service.NO_REPLY_ADDRESS}`,
          });
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
      const limit =
        owner.maxRepoCreation <= -1 ? this.deps.settings.repository.MAX_CREATION_LIMIT : owner.maxRepoCreation;
      if (limit > -1 && owner.numRepos >= limit)
        throw new ForbiddenError(`You have already reached your limit of ${limit} repositories.`);
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
            ...(record.forkOf ? { isFork: true, forkId: record.forkOf } : {}),
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
        if (record.forkOf) await repos.changeForkCount(record.forkOf, 1);
        // The name names a real repository again: a redirect from it must not outlive this one (as in Forgejo).
        await repos.removeRedirect(owner.id, repo.lowerName);
        await tx.repoWatches.create(doer.id, repo.id, 1);
        if (isOrganization(owner)) await this.grantTeams(tx.repoAccess, owner.id, doer, repo.id);
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
      if (!(error instanceof RecordGoneError) && (await this.deps.repos.users.byId(owner.id)) === null)
        throw new RecordGoneError('repository');
      throw error;
    } finally {
      if (staging) this.store.removeStaged(staging);
    }
    await this.activity.record({
      op: 'create_repo',
      actorId: doer.id,
      repo: { id: created.id, ownerId: owner.id, isPrivate: created.isPrivate },
    });
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
}
