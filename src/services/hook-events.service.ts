// Webhook events: one function per kind of event. Each finds the active hooks the event reaches (the
// repository's own hooks — default hooks copied into it among them —, its owner's, the system hooks), keeps those
// whose events and branch filter want it, and writes one delivery (a HookTask and its Job) per hook with the
// repositories it is given — the caller's transaction, so the deliveries commit or roll back with the change
// they report (Forgejo: services/webhook/notifier.go, webhook.go PrepareWebhooks). The payload text comes from
// deps.hookPayloads (the converter src/convert/hook-payload.ts): this service hands it the event's rows.
//
// Callers pass the entities involved (issue, comment, pull request and package records as the API shows them)
// and `repos` from `deps.transactions.run`:
//   await this.deps.transactions.run(async (repos) => { …the change…; await hookEvents.issues(repos, {...}); });
import { randomUUID } from 'node:crypto';
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import { branchOfRef, hookWantsEvent, TAG_PREFIX } from '../domain/hook-event.ts';
import type { PushedCommit } from '../infra/git/push-commits.ts';
import type { HookEvent } from '../webhook/events.ts';
import type { CommentRow, IssueDetails } from '../db/issue.repository.ts';
import type { PackageView } from '../db/package.repository.ts';
import type { ChangesPayload, IssueAction } from '../webhook/payload.ts';
import type { PullRequestEvent, PullRequestReviewEventType, ReleaseEvent, StatusEvent } from '../webhook/events.ts';
import { ReviewType } from '../domain/review.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** The hook event of each kind of submitted review (Forgejo: webhookNotifier.PullRequestReview). */
const REVIEW_EVENTS: Record<number, PullRequestReviewEventType> = {
  [ReviewType.approve]: 'pull_request_review_approved',
  [ReviewType.reject]: 'pull_request_review_rejected',
  [ReviewType.comment]: 'pull_request_review_comment',
};

/** The Job kind of a webhook delivery; its payload is `{ hookTaskId }`. */
export const HOOK_DELIVERY_JOB = 'webhook_delivery';

/** Hook types that get a push even when it carries no commits (the chat types would post "0 new commits"). */
const INTEGRATION_TYPES = new Set(['forgejo', 'gitea', 'gogs']);

/** One ref a push changed, with what its payload lists; git's side is read by the caller before the transaction. */
export interface PushedRef {
  ref: string;
  /** null when the ref was created. */
  oldSha: string | null;
  /** null when the ref was deleted. */
  newSha: string | null;
  /** Newest first, at most [webhook] PAYLOAD_COMMIT_LIMIT. */
  commits: PushedCommit[];
  totalCommits: number;
  headCommit: PushedCommit | null;
  /** `owner/repo/compare/a...b`, or empty; the payload prefixes ROOT_URL as Forgejo does. */
  comparePath: string;
}

export interface EventSource {
  ownerId: number;
  repoId: number | null;
}

export class HookEventsService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Writes one delivery per wanting hook; the number written. */
  async prepare(
    repos: Repositories,
    source: EventSource,
    event: HookEvent,
    branch: string | null = null,
  ): Promise<number> {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) return 0;
    const hooks = await repos.webhooks.listActiveFor(source);
    let text: string | null = null;
    let written = 0;
    for (const hook of hooks) {
      if (!hookWantsEvent(hook, event.type, branch)) continue;
      if (event.type === 'push' && !INTEGRATION_TYPES.has(hook.type) && event.commits.length === 0) continue;
      text ??= this.deps.hookPayloads(event);
      const task = await repos.hookTasks.create({
        hookId: hook.id,
        uuid: randomUUID(),
        eventType: event.type,
        payload: text,
      });
      await repos.jobs.enqueue(HOOK_DELIVERY_JOB, { hookTaskId: task.id });
      written++;
    }
    return written;
  }

  /**
   * A test delivery to one hook, whatever its events and whether it is active (Forgejo: TestHook,
   * PrepareTestWebhook): a push of `commit` to `branch`.
   */
  async testPush(
    repos: Repositories,
    hookId: number,
    repo: RepoWithOwner,
    pusher: User,
    branch: string,
    commit: PushedCommit | null,
  ): Promise<void> {
    const sha = commit?.sha ?? '0'.repeat(40);
    const event: HookEvent = {
      type: 'push',
      repo,
      pusher,
      ref: `refs/heads/${branch}`,
      before: sha,
      after: sha,
      commits: commit ? [commit] : [],
      totalCommits: commit ? 1 : 0,
      headCommit: commit,
      comparePath: '',
    };
    const task = await repos.hookTasks.create({
      hookId,
      uuid: randomUUID(),
      eventType: 'push',
      payload: this.deps.hookPayloads(event),
    });
    await repos.jobs.enqueue(HOOK_DELIVERY_JOB, { hookTaskId: task.id });
  }

  /** Whether any active hook reaches the repository's events: when none does, no payload need be built. */
  async anyHookFor(repos: Repositories, repo: RepoWithOwner): Promise<boolean> {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) return false;
    return repos.webhooks.anyActiveFor(HookEventsService.source(repo));
  }

  private static source(repo: RepoWithOwner): EventSource {
    return { ownerId: repo.ownerId, repoId: repo.id };
  }

  /** A repository was created (also by migration or adoption): the default hooks are copied into it first. */
  async repositoryCreated(repos: Repositories, repo: RepoWithOwner, doer: User): Promise<void> {
    await repos.webhooks.copyDefaultHooksTo(repo.id);
    await this.prepare(repos, HookEventsService.source(repo), {
      type: 'repository',
      action: 'created',
      repo,
      sender: doer,
    });
  }

  /** Before the repository's rows go: its own hooks are deleted with it, so only owner and system hooks hear this. */
  async repositoryDeleted(repos: Repositories, repo: RepoWithOwner, doer: User): Promise<void> {
    await this.prepare(
      repos,
      { ownerId: repo.ownerId, repoId: null },
      { type: 'repository', action: 'deleted', repo, sender: doer },
    );
  }

  /** What a push changed, in Forgejo's order (services/repository/push.go): push, create and delete events. */
  async pushed(repos: Repositories, repo: RepoWithOwner, pusher: User, refs: readonly PushedRef[]): Promise<void> {
    const source = HookEventsService.source(repo);
    for (const change of refs) {
      const zero = '0'.repeat((change.oldSha ?? change.newSha ?? '').length || 40);
      const refType = change.ref.startsWith(TAG_PREFIX) ? 'tag' : 'branch';
      const branch = branchOfRef(change.ref);
      if (refType === 'branch' && branch === null) continue;
      const push = (before: string, after: string, commits: PushedRef): Promise<number> =>
        this.prepare(
          repos,
          source,
          {
            type: 'push',
            repo,
            pusher,
            ref: change.ref,
            before,
            after,
            commits: commits.commits,
            totalCommits: commits.totalCommits,
            headCommit: commits.headCommit,
            comparePath: commits.comparePath,
          },
          branch,
        );
      const create = (sha: string) =>
        this.prepare(repos, source, { type: 'create', repo, sender: pusher, ref: change.ref, refType, sha }, branch);
      const remove = () =>
        this.prepare(repos, source, { type: 'delete', repo, sender: pusher, ref: change.ref, refType }, branch);
      if (change.newSha === null) {
        if (refType === 'tag')
          await push(change.oldSha ?? zero, zero, {
            ...change,
            commits: [],
            totalCommits: 0,
            headCommit: null,
            comparePath: '',
          });
        await remove();
      } else if (refType === 'tag') {
        await push(zero, change.newSha, { ...change, commits: [], totalCommits: 0 });
        await create(change.newSha);
      } else {
        if (change.oldSha === null) await create(change.newSha);
        await push(change.oldSha ?? zero, change.newSha, change);
      }
    }
  }

  /** issues: opened, closed, reopened, edited (with `changes` for edits); issue_label: label_updated; issue_assign. */
  async issues(
    repos: Repositories,
    event: {
      type?: 'issues' | 'issue_label' | 'issue_assign';
      repo: RepoWithOwner;
      sender: User;
      action: IssueAction;
      issue: IssueDetails;
      changes?: ChangesPayload;
      commitId?: string;
    },
  ): Promise<void> {
    await this.prepare(repos, HookEventsService.source(event.repo), { ...event, type: event.type ?? 'issues' });
  }

  /** issue_comment (created), or pull_request_comment when the issue is a pull request (give its `baseSha`). */
  async issueComment(
    repos: Repositories,
    event: {
      repo: RepoWithOwner;
      sender: User;
      issue: IssueDetails;
      comment: { row: CommentRow; poster: User | null };
      baseSha?: string;
      action?: 'created' | 'edited' | 'deleted';
      changes?: ChangesPayload;
    },
  ): Promise<void> {
    const type = event.issue.pull ? 'pull_request_comment' : 'issue_comment';
    await this.prepare(repos, HookEventsService.source(event.repo), {
      ...event,
      type,
      action: event.action ?? 'created',
    });
  }

  /** pull_request: opened (and closed, reopened, edited). `pullRequest` is the pull request's issue with its pull row. */
  async pullRequest(
    repos: Repositories,
    event: Omit<PullRequestEvent, 'type'> & { type?: 'pull_request' | 'pull_request_label' | 'pull_request_assign' },
  ): Promise<void> {
    await this.prepare(repos, HookEventsService.source(event.repo), { ...event, type: event.type ?? 'pull_request' });
  }

  /** A review was submitted: pull_request_review_approved, _rejected or _comment, action `reviewed`. */
  async pullRequestReview(
    repos: Repositories,
    event: {
      repo: RepoWithOwner;
      reviewer: User;
      pullRequest: IssueDetails;
      baseSha: string;
      reviewType: number;
      content: string;
    },
  ): Promise<void> {
    const type = REVIEW_EVENTS[event.reviewType];
    if (!type) return;
    await this.prepare(repos, HookEventsService.source(event.repo), {
      type,
      repo: event.repo,
      sender: event.reviewer,
      requestedReviewer: event.reviewer,
      action: 'reviewed',
      number: event.pullRequest.issue.index,
      pullRequest: event.pullRequest,
      baseSha: event.baseSha,
      review: { content: event.content },
    });
  }

  /** release: published (created, or a draft published), updated, deleted. */
  async release(repos: Repositories, event: Omit<ReleaseEvent, 'type'>): Promise<void> {
    await this.prepare(repos, HookEventsService.source(event.repo), { type: 'release', ...event });
  }

  /** status: a commit status was reported. */
  async status(repos: Repositories, event: Omit<StatusEvent, 'type'>): Promise<void> {
    await this.prepare(repos, HookEventsService.source(event.repo), { type: 'status', ...event });
  }

  /** package: created or deleted, heard by the owner's hooks, the linked repository's and the system hooks. */
  async package(
    repos: Repositories,
    event: {
      owner: User;
      repo?: RepoWithOwner | null;
      sender: User;
      action: 'created' | 'deleted';
      package: PackageView;
    },
  ): Promise<void> {
    await this.prepare(
      repos,
      { ownerId: event.owner.id, repoId: event.repo?.id ?? null },
      {
        type: 'package',
        sender: event.sender,
        action: event.action,
        package: event.package,
      },
    );
  }
}
