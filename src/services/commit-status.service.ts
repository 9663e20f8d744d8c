// Commit statuses (Forgejo: routers/api/v1/repo/status.go, services/repository/commitstatus): a CI reports a state
// per context for a commit; the combined state is the worst of the newest status of each context.
import type { User } from '../db/entities.ts';
import type { CommitStatusRow } from '../db/commit-status.repository.ts';
import type { StatusSort } from '../domain/commit-status.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import { combinedState, isCommitStatusState } from '../domain/commit-status.ts';
import { BadRequestError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions } from '../domain/page.ts';
import { readCommit } from '../infra/git/push-commits.ts';
import { resolveRevision } from '../infra/git/revision.ts';
import { isFullObjectId } from '../infra/git/immutable-answers.ts';
import { resolveCommit } from '../infra/git/refs.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { PullAutoMergeService } from './pull-auto-merge.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface NewStatus {
  state?: string;
  targetUrl?: string;
  description?: string;
  context?: string;
}

export interface StatusesWithCreators {
  rows: CommitStatusRow[];
  creators: Map<number, User>;
  total: number;
}

export class CommitStatusService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly hookEvents: HookEventsService,
    private readonly autoMerges: PullAutoMergeService,
  ) {}

  private dir(repo: RepoWithOwner): string {
    return this.deps.stores.repositories.directory(repo.ownerName, repo.name);
  }

  /** The commit a sha or ref names; a name that names nothing stays as given (its lists are empty, as in Forgejo). */
  private async commitOf(repo: RepoWithOwner, ref: string): Promise<string> {
    if (!ref) throw new BadRequestError('ref/sha not given');
    return (await resolveRevision(this.dir(repo), ref))?.sha ?? ref;
  }

  private async withCreators(rows: CommitStatusRow[], total: number): Promise<StatusesWithCreators> {
    const users = await this.deps.repos.users.listByIds([...new Set(rows.map((row) => row.creatorId))]);
    return { rows, total, creators: new Map(users.map((user) => [user.id, user])) };
  }

  async create(doer: User, repo: RepoWithOwner, sha: string, input: NewStatus) {
    if (!sha) throw new BadRequestError('sha not given');
    const state = input.state ?? '';
    if (!isCommitStatusState(state)) throw new ValidationError(`invalid state: ${state}`);
    const commit = await this.statusCommit(repo, sha);
    if (!commit) throw new NotFoundError(`commit does not exist [sha: ${sha}]`);
    // Read before the transaction, from committed rows: a hook made meanwhile hears the next status.
    const hooked = await this.hookEvents.anyHookFor(this.deps.repos, repo);
    const pushed = hooked ? await readCommit(this.dir(repo), commit.sha) : null;
    const status = {
      repoId: repo.id,
      sha: commit.sha,
      state,
      targetUrl: input.targetUrl ?? '',
      description: input.description ?? '',
      context: input.context || 'default',
      creatorId: doer.id,
    };
    // Without hooks the status is all there is to write: no transaction of its own on SQLite.
    const row = hooked
      ? await this.deps.transactions.run(async (repos) => {
          const recorded = await repos.commitStatuses.record(status);
          await this.hookEvents.status(repos, { repo, sender: doer, status: recorded, commit: pushed });
          return recorded;
        })
      : await this.deps.repos.commitStatuses.record(status);
    // The status is recorded whatever becomes of the merges waiting for it.
    await this.autoMerges.onStatus(repo, commit.sha).catch((error: unknown) => {
      this.deps.log.warn({ err: error, repo: repo.id, sha: commit.sha }, 'scheduled merge failed');
    });
    return { row, creator: doer };
  }

  /**
   * The commit a status is posted to. Forgejo (GetCommit) takes a full id as the commit it names without looking
   * for a branch or tag of that name, as git does; anything else is resolved as a ref.
   */
  private async statusCommit(repo: RepoWithOwner, sha: string): Promise<{ sha: string } | null> {
    if (!isFullObjectId(sha)) return resolveRevision(this.dir(repo), sha);
    const id = await resolveCommit(this.dir(repo), sha);
    return id ? { sha: id } : null;
  }

  async list(
    repo: RepoWithOwner,
    ref: string,
    options: { sort?: StatusSort; state?: string },
    page: ListOptions,
  ): Promise<StatusesWithCreators> {
    const sha = await this.commitOf(repo, ref);
    const { rows, total } = await this.deps.repos.commitStatuses.list(repo.id, sha, {
      ...options,
      skip: page.skip,
      take: page.limit,
    });
    return this.withCreators(rows, total);
  }

  /** The newest status per context and their combined state (null when the commit has none). */
  async combined(repo: RepoWithOwner, ref: string, page: ListOptions) {
    const sha = await this.commitOf(repo, ref);
    const latest = await this.deps.repos.commitStatuses.latestPerContext(repo.id, sha);
    const state = combinedState(latest.map((row) => row.state));
    const { rows, creators } = await this.withCreators(latest.slice(page.skip, page.skip + page.limit), latest.length);
    return { sha, state, rows, creators, total: latest.length };
  }
}
