// Webhook events: one function per kind of event. Each finds the active hooks the event reaches (the
// repository's own hooks — default hooks copied into it among them —, its owner's, the system hooks), keeps those
// whose events and branch filter want it, and writes one delivery (a HookTask and its Job) per hook with the
// repositories it is given — the caller's transaction, so the deliveries commit or roll back with the change
// they report (Forgejo: services/webhook/notifier.go, webhook.go PrepareWebhooks).
//
// Callers pass records the API converters already made (issue, comment, pull request, package), the entities
// involved, and `repos` from `deps.transactions.run`:
//   await this.deps.transactions.run(async (repos) => { …the change…; await hookEvents.issues(repos, {...}); });
import { randomUUID } from 'node:crypto';
import type { User } from '../db/prisma.ts';
import type { Repositories } from '../db/repositories.ts';
import { AccessMode } from '../domain/access.ts';
import { branchOfRef, type HookEventType, hookWantsEvent, TAG_PREFIX } from '../domain/hook-event.ts';
import type { RepoPermission } from '../domain/repo-permission.ts';
import {
  type ApiComment, type ApiIssue, type ApiPackage, type ApiPullRequest, type ChangesPayload, type HookPayload, type IssueAction,
  type PayloadCommit, payloadText, type PushPayload,
} from '../convert/hook-payload.ts';
import { type ApiRepository, toRepository } from '../convert/repository.ts';
import { type ApiUser, toUser, type UserView } from '../convert/user.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

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
  commits: PayloadCommit[];
  totalCommits: number;
  headCommit: PayloadCommit | null;
  /** `owner/repo/compare/a...b`, or empty; the payload prefixes ROOT_URL as Forgejo does. */
  comparePath: string;
}

export interface EventSource {
  ownerId: number;
  repoId: number | null;
}

export class HookEventsService {
  constructor(private readonly deps: ServiceDeps) {}

  private get view(): UserView {
    return { rootUrl: this.deps.settings.server.ROOT_URL, noReplyAddress: this.deps.settings.service.NO_REPLY_ADDRESS, viewer: null };
  }

  /** Users as Forgejo's webhooks show them: as an anonymous viewer would. */
  user(user: User): ApiUser {
    return toUser(user, this.view);
  }

  /** The repository record of a payload, with owner permissions unless Forgejo shows it without (create events). */
  repository(repo: RepoWithOwner, mode: number = AccessMode.owner): ApiRepository {
    const permission: RepoPermission = { mode, unitModes: null, units: repo.units.map((unit) => unit.type) };
    return toRepository({ repo, permission }, this.view);
  }

  /** Writes one delivery per wanting hook; the number written. */
  async prepare(repos: Repositories, source: EventSource, type: HookEventType, payload: HookPayload, branch: string | null = null): Promise<number> {
    if (this.deps.settings.security.DISABLE_WEBHOOKS) return 0;
    const hooks = await repos.webhooks.listActiveFor(source);
    let text: string | null = null;
    let written = 0;
    for (const hook of hooks) {
      if (!hookWantsEvent(hook, type, branch)) continue;
      if (type === 'push' && !INTEGRATION_TYPES.has(hook.type) && (payload as PushPayload).commits.length === 0) continue;
      text ??= payloadText(type, payload);
      const task = await repos.hookTasks.create({ hookId: hook.id, uuid: randomUUID(), eventType: type, payload: text });
      await repos.jobs.enqueue(HOOK_DELIVERY_JOB, { hookTaskId: task.id });
      written++;
    }
    return written;
  }

  private static source(repo: RepoWithOwner): EventSource {
    return { ownerId: repo.ownerId, repoId: repo.id };
  }

  /** A repository was created (also by migration or adoption): the default hooks are copied into it first. */
  async repositoryCreated(repos: Repositories, repo: RepoWithOwner, doer: User): Promise<void> {
    await repos.webhooks.copyDefaultHooksTo(repo.id);
    await this.prepare(repos, HookEventsService.source(repo), 'repository', {
      action: 'created', repository: this.repository(repo), organization: this.user(repo.owner), sender: this.user(doer),
    });
  }

  /** Before the repository's rows go: its own hooks are deleted with it, so only owner and system hooks hear this. */
  async repositoryDeleted(repos: Repositories, repo: RepoWithOwner, doer: User): Promise<void> {
    await this.prepare(repos, { ownerId: repo.ownerId, repoId: null }, 'repository', {
      action: 'deleted', repository: this.repository(repo), organization: this.user(repo.owner), sender: this.user(doer),
    });
  }

  /** What a push changed, in Forgejo's order (services/repository/push.go): push, create and delete events. */
  async pushed(repos: Repositories, repo: RepoWithOwner, pusher: User, refs: readonly PushedRef[]): Promise<void> {
    const source = HookEventsService.source(repo);
    const repository = this.repository(repo);
    const sender = this.user(pusher);
    const rootUrl = this.deps.settings.server.ROOT_URL;
    for (const change of refs) {
      const zero = '0'.repeat((change.oldSha ?? change.newSha ?? '').length || 40);
      const refType = change.ref.startsWith(TAG_PREFIX) ? 'tag' : 'branch';
      const branch = branchOfRef(change.ref);
      if (refType === 'branch' && branch === null) continue;
      const push = (before: string, after: string, commits: PushedRef): Promise<number> =>
        this.prepare(repos, source, 'push', {
          ref: change.ref, before, after, compare_url: rootUrl + commits.comparePath, commits: commits.commits,
          total_commits: commits.totalCommits, head_commit: commits.headCommit, repository, pusher: sender, sender,
        }, branch);
      const create = (sha: string) =>
        this.prepare(repos, source, 'create', { sha, ref: change.ref, ref_type: refType, repository: this.repository(repo, AccessMode.none), sender }, branch);
      const remove = () => this.prepare(repos, source, 'delete', { ref: change.ref, ref_type: refType, pusher_type: 'user', repository, sender }, branch);
      if (change.newSha === null) {
        if (refType === 'tag') await push(change.oldSha ?? zero, zero, { ...change, commits: [], totalCommits: 0, headCommit: null, comparePath: '' });
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

  /** issues: opened, closed, reopened, edited (with `changes` for edits). */
  async issues(
    repos: Repositories,
    event: { repo: RepoWithOwner; sender: User; action: IssueAction; issue: ApiIssue; changes?: ChangesPayload; commitId?: string },
  ): Promise<void> {
    await this.prepare(repos, HookEventsService.source(event.repo), 'issues', {
      action: event.action, number: event.issue.number ?? 0, ...(event.changes ? { changes: event.changes } : {}), issue: event.issue,
      repository: this.repository(event.repo), sender: this.user(event.sender), commit_id: event.commitId ?? '',
    });
  }

  /** issue_comment (created), or pull_request_comment when the issue is a pull request (give `pullRequest`). */
  async issueComment(
    repos: Repositories,
    event: { repo: RepoWithOwner; sender: User; issue: ApiIssue; comment: ApiComment; pullRequest?: ApiPullRequest; action?: 'created' | 'edited' | 'deleted'; changes?: ChangesPayload },
  ): Promise<void> {
    const isPull = event.pullRequest !== undefined;
    await this.prepare(repos, HookEventsService.source(event.repo), isPull ? 'pull_request_comment' : 'issue_comment', {
      action: event.action ?? 'created', issue: event.issue, ...(isPull ? { pull_request: event.pullRequest } : {}), comment: event.comment,
      ...(event.changes ? { changes: event.changes } : {}), repository: this.repository(event.repo), sender: this.user(event.sender), is_pull: isPull,
    });
  }

  /** pull_request: opened (and closed, reopened, edited). `pullRequest` is Forgejo's PullRequest record. */
  async pullRequest(
    repos: Repositories,
    event: { repo: RepoWithOwner; sender: User; action: IssueAction; number: number; pullRequest: ApiPullRequest; changes?: ChangesPayload; commitId?: string },
  ): Promise<void> {
    await this.prepare(repos, HookEventsService.source(event.repo), 'pull_request', {
      action: event.action, number: event.number, ...(event.changes ? { changes: event.changes } : {}), pull_request: event.pullRequest,
      requested_reviewer: null, repository: this.repository(event.repo), sender: this.user(event.sender), commit_id: event.commitId ?? '', review: null,
    });
  }

  /**
   * package: created or deleted, heard by the owner's hooks, the linked repository's and the system hooks.
   * Forgejo leaves `repository` and `organization` empty in this payload (notifier.go notifyPackage).
   */
  async package(
    repos: Repositories,
    event: { owner: User; repo?: RepoWithOwner | null; sender: User; action: 'created' | 'deleted'; package: ApiPackage },
  ): Promise<void> {
    await this.prepare(repos, { ownerId: event.owner.id, repoId: event.repo?.id ?? null }, 'package', {
      action: event.action, repository: null, package: event.package, organization: null, sender: this.user(event.sender),
    });
  }
}
