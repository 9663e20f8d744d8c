// Feed actions for what a push or a mirror sync changed. Changes are found by comparing `git for-each-ref`
// before and after the write. Content follows Forgejo's PushCommits JSON (modules/repository/push.go) as the
// feed stores it: at most FEED_MAX_COMMITS commits, newest first, each with its first message line; `Len` is the
// number of new commits; `CompareURL` is `owner/repo/compare/old...new` for updated branches. Tags and deletions
// carry the same shape with no commits, creations by a mirror sync carry no content.
import type { User } from '../db/entities.ts';
import { type ActivityOpType } from '../domain/activity.ts';
import { diffRefs, isBranchRef, isTagRef, mirrorSyncOpType, pushOpType, type RefChange } from '../domain/push.ts';
import { pushedCommits, readCommit } from '../infra/git/push-commits.ts';
import { type CommitSummary, newCommits, readRefs } from '../infra/git/repository.ts';
import type { ActivityService } from './activity.service.ts';
import type { HookEventsService, PushedRef } from './hook-events.service.ts';
import type { ServiceDeps } from './service-deps.ts';
import type { Repositories } from '../db/repositories.ts';
import type { RepoWithOwner } from '../db/repository-details.ts';
import type { RepositoryEditService } from './repository-edit.service.ts';

/** Forgejo's [ui] FEED_MAX_COMMIT_NUM default. */
const FEED_MAX_COMMITS = 5;

export interface PushedRepo {
  id: number;
  ownerId: number;
  ownerName: string;
  name: string;
  isPrivate: boolean;
}

/** A write in progress: `finish()` once git has written, to bring the database and the feeds up to date. */
export interface PendingPush {
  finish(): Promise<void>;
}

interface PushCommitJson {
  Sha1: string;
  Message: string;
  AuthorEmail: string;
  AuthorName: string;
  CommitterEmail: string;
  CommitterName: string;
  Timestamp: string;
}

function toPushCommit(commit: CommitSummary): PushCommitJson {
  return {
    Sha1: commit.sha,
    Message: commit.subject,
    AuthorEmail: commit.authorEmail,
    AuthorName: commit.authorName,
    CommitterEmail: commit.committerEmail,
    CommitterName: commit.committerName,
    Timestamp: commit.timestamp,
  };
}

const NO_COMMITS = JSON.stringify({ Commits: [], HeadCommit: null, CompareURL: '', Len: 0 });

/** Hears what a push changed, in the transaction of its webhook deliveries (pull requests updated by it). */
export type PushListener = (
  repos: Repositories,
  repo: RepoWithOwner,
  pusher: User,
  changes: RefChange[],
) => Promise<void>;

export class PushService {
  private readonly branchListeners: PushListener[] = [];

  /** Adds a listener (pull requests whose head moved attach here). */
  listen(listener: PushListener): void {
    this.branchListeners.push(listener);
  }

  constructor(
    private readonly deps: ServiceDeps,
    private readonly activity: ActivityService,
    private readonly repoEdits: RepositoryEditService,
    private readonly hookEvents: HookEventsService,
  ) {}

  /** Before a smart-HTTP receive-pack by `pusher`: remembers the refs; `finish()` refreshes the row and records the feed. */
  async beginPush(pusher: User, repo: PushedRepo, dir: string): Promise<PendingPush> {
    // Left behind when a stop cuts the write off before the row is refreshed: the next start refreshes it.
    const inFlight = await this.deps.repos.pushesInFlight.begin(repo.id);
    const before = await readRefs(dir);
    return {
      finish: async () => {
        try {
          await this.repoEdits.refreshFromDisk(repo.id);
          await this.deps.repos.pushesInFlight.end([inFlight]);
          const changes = await this.recordChanges(repo, dir, before, pusher.id, pushOpType);
          await this.reportToHooks(repo, dir, before, changes, pusher);
        } catch (error) {
          this.deps.log.error({ err: error, repoId: repo.id }, 'updating after a push failed');
          throw error;
        }
      },
    };
  }

  /** Before a mirror fetch: the same, with mirror_sync_* actions by the repository owner (as Forgejo does). */
  async beginMirrorSync(repo: PushedRepo, dir: string): Promise<PendingPush> {
    const before = await readRefs(dir);
    return {
      finish: async () => {
        await this.recordChanges(repo, dir, before, repo.ownerId, mirrorSyncOpType);
      },
    };
  }

  private async recordChanges(
    repo: PushedRepo,
    dir: string,
    before: Map<string, string>,
    actorId: number,
    opTypeOf: (change: RefChange) => ActivityOpType | null,
  ): Promise<RefChange[]> {
    const changes = diffRefs(before, await readRefs(dir));
    for (const change of changes) {
      const op = opTypeOf(change);
      if (!op) continue;
      try {
        await this.activity.record({
          op,
          actorId,
          repo: { id: repo.id, ownerId: repo.ownerId, isPrivate: repo.isPrivate },
          refName: change.ref,
          content: await this.content(op, repo, dir, change, [...before.values()]),
        });
      } catch (error) {
        // A feed entry is not worth failing a push that git already accepted.
        this.deps.log.error({ err: error, repoId: repo.id, ref: change.ref }, 'recording push activity failed');
      }
    }
    return changes;
  }

  /**
   * Queues the push, create and delete webhook deliveries of a push. git is read first, then the deliveries are
   * written in one transaction; a failure is logged, as git has accepted the push already.
   */
  private async reportToHooks(
    repo: PushedRepo,
    dir: string,
    before: Map<string, string>,
    changes: RefChange[],
    pusher: User,
  ): Promise<void> {
    const { settings } = this.deps;
    if (settings.security.DISABLE_WEBHOOKS) return;
    try {
      const current = await this.deps.repos.repositories.getById(repo.id);
      const refs: PushedRef[] = [];
      for (const change of changes) {
        if (!isTagRef(change.ref) && !isBranchRef(change.ref)) continue;
        const ref: PushedRef = { ...change, commits: [], totalCommits: 0, headCommit: null, comparePath: '' };
        if (change.newSha !== null && isTagRef(change.ref)) {
          ref.headCommit = await readCommit(dir, change.newSha);
          ref.comparePath = `${repo.ownerName}/${repo.name}/compare/${'0'.repeat(change.newSha.length)}...${change.newSha}`;
        } else if (change.newSha !== null) {
          const exclude = change.oldSha ? [change.oldSha] : [...before.values()];
          const { commits, total } = await pushedCommits(
            dir,
            change.newSha,
            exclude,
            settings.webhook.PAYLOAD_COMMIT_LIMIT,
          );
          ref.commits = commits;
          ref.totalCommits = total;
          ref.headCommit =
            commits.find((commit) => commit.sha === change.newSha) ?? (await readCommit(dir, change.newSha));
          // Forgejo compares a new branch from its oldest new commit's parent, else from the default branch.
          let base = change.oldSha ?? commits[commits.length - 1]?.parent ?? null;
          if (!base && change.ref !== `refs/heads/${current.defaultBranch}`) base = current.defaultBranch;
          if (base) ref.comparePath = `${repo.ownerName}/${repo.name}/compare/${base}...${change.newSha}`;
        }
        refs.push(ref);
      }
      if (refs.length === 0) return;
      await this.deps.transactions.run(async (repos) => {
        const row = await repos.repositories.getById(repo.id);
        await this.hookEvents.pushed(repos, row, pusher, refs);
        for (const listener of this.branchListeners) await listener(repos, row, pusher, changes);
      });
    } catch (error) {
      this.deps.log.error({ err: error, repoId: repo.id }, 'queueing push webhooks failed');
    }
  }

  private async content(
    op: ActivityOpType,
    repo: PushedRepo,
    dir: string,
    change: RefChange,
    refsBefore: string[],
  ): Promise<string> {
    if (op === 'mirror_sync_create' || op === 'mirror_sync_delete') return '';
    if (change.newSha === null || isTagRef(change.ref)) return NO_COMMITS;
    const exclude = change.oldSha ? [change.oldSha] : refsBefore;
    const { commits, total } = await newCommits(dir, change.newSha, exclude, FEED_MAX_COMMITS);
    const pushCommits = commits.map(toPushCommit);
    return JSON.stringify({
      Commits: pushCommits,
      HeadCommit: pushCommits.find((commit) => commit.Sha1 === change.newSha) ?? null,
      CompareURL: change.oldSha ? `${repo.ownerName}/${repo.name}/compare/${change.oldSha}...${change.newSha}` : '',
      Len: total,
    });
  }
}
