// Webhook deliveries for issue events (Forgejo: services/webhook/notifier.go): `issues` and `issue_comment` for
// issues, `pull_request` and `pull_request_comment` for pull requests, queued in the event's transaction. A pull
// request's `opened` is announced by PullRequestService once its pull row exists.
import type { IssueDetails } from '../db/issue.repository.ts';
import type { Repositories } from '../db/repositories.ts';
import { branchCommit } from '../infra/git/compare.ts';
import type { IssueAction } from '../webhook/payload.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { IssueEvent, IssueEventDraft, IssueEventListener } from './issue-events.ts';
import type { IssueService } from './issue.service.ts';
import type { ServiceDeps } from './service-deps.ts';

const ACTIONS: Partial<Record<IssueEvent['kind'], IssueAction>> = {
  opened: 'opened',
  closed: 'closed',
  reopened: 'reopened',
  edited: 'edited',
  labeled: 'label_updated',
};

export class IssueHookListener implements IssueEventListener {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly hookEvents: HookEventsService,
    private readonly issues: IssueService,
  ) {}

  /** The commit a pull request's base branch points at now. */
  async baseSha(details: IssueDetails): Promise<string> {
    if (!details.pull) return '';
    const dir = this.deps.stores.repositories.directory(details.repo.ownerName, details.repo.name);
    return (await branchCommit(dir, details.pull.baseBranch)) ?? '';
  }

  /** One issue_assign / pull_request_assign delivery per user assigned or unassigned (Forgejo: IssueChangeAssignee). */
  private async assigned(repos: Repositories, event: IssueEvent, details: IssueDetails): Promise<void> {
    const changes: [IssueAction, readonly number[]][] = [
      ['unassigned', event.unassignedIds ?? []],
      ['assigned', event.assignedIds],
    ];
    const baseSha = details.pull ? await this.baseSha(details) : '';
    for (const [action, ids] of changes) {
      for (let i = 0; i < ids.length; i++) {
        const { repo, actor: sender } = event;
        if (details.pull)
          await this.hookEvents.pullRequest(repos, {
            type: 'pull_request_assign',
            repo,
            sender,
            action,
            number: details.issue.index,
            pullRequest: details,
            baseSha,
          });
        else await this.hookEvents.issues(repos, { type: 'issue_assign', repo, sender, action, issue: details });
      }
    }
  }

  /** Whether any hook may hear of the event. */
  async plan(repos: Repositories, draft: IssueEventDraft): Promise<boolean> {
    return this.hookEvents.anyHookFor(repos, draft.repo);
  }

  async onIssueEvent(repos: Repositories, event: IssueEvent, anyHook?: boolean): Promise<void> {
    const { repo, actor: sender } = event;
    if (event.kind === 'opened' && event.issue.isPull) return;
    // The issue's details (labels, assignees, users, a pull's base commit) are read only for a payload.
    if (!(anyHook ?? (await this.hookEvents.anyHookFor(repos, repo)))) return;
    const [details] = await this.issues.details([event.issue], repos);
    if (event.kind === 'commented') {
      if (!event.comment) return;
      const comment = { row: event.comment, poster: sender };
      await this.hookEvents.issueComment(repos, {
        repo,
        sender,
        issue: details,
        comment,
        baseSha: await this.baseSha(details),
      });
      return;
    }
    if (event.kind === 'assigned') return this.assigned(repos, event, details);
    const action = ACTIONS[event.kind];
    if (!action) return;
    const labeled = event.kind === 'labeled';
    if (details.pull) {
      await this.hookEvents.pullRequest(repos, {
        type: labeled ? 'pull_request_label' : 'pull_request',
        repo,
        sender,
        action,
        number: details.issue.index,
        pullRequest: details,
        baseSha: await this.baseSha(details),
        ...(event.changes ? { changes: event.changes } : {}),
      });
    } else {
      await this.hookEvents.issues(repos, {
        type: labeled ? 'issue_label' : 'issues',
        repo,
        sender,
        action,
        issue: details,
        ...(event.changes ? { changes: event.changes } : {}),
      });
    }
  }
}
