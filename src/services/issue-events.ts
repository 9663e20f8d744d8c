// The one place issue, comment and pull-request events happen. Each event is emitted inside the transaction that
// wrote it, so everything it causes (notification threads, feed rows, and later webhook deliveries) commits or
// rolls back with it. To react to issue events, add a listener here. A hot path may first plan the event: listeners
// read what they will need from committed rows before the transaction opens (by prepared statements, not Prisma
// inside it); what the transaction itself writes is the actor's, which no listener's reads depend on.
import type { CommentRow, IssueRow } from '../db/issue.repository.ts';
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import type { ActivityService } from './activity.service.ts';
import type { RepoWithOwner } from './repo-permission.service.ts';

/** `labeled`, `assigned`: the labels or assignees changed (webhooks only here). */
export type IssueEventKind = 'opened' | 'commented' | 'closed' | 'reopened' | 'edited' | 'labeled' | 'assigned';

export interface IssueEvent {
  readonly kind: IssueEventKind;
  readonly actor: User;
  readonly repo: RepoWithOwner;
  readonly issue: IssueRow;
  /** The comment the event wrote (a comment, or the close/reopen record). */
  readonly comment?: CommentRow;
  /** Users the event's text @-mentions. */
  readonly mentionedIds: readonly number[];
  /** Users the event assigned. */
  readonly assignedIds: readonly number[];
  /** For `assigned`: users it no longer assigns. */
  readonly unassignedIds?: readonly number[];
  /** For `edited`: the title and body before the edit, where they changed. */
  readonly changes?: { title?: { from: string }; body?: { from: string } };
}

/** What an event is known to be before its transaction: enough to plan it. */
export type IssueEventDraft = Pick<IssueEvent, 'kind' | 'actor' | 'repo' | 'issue'>;

/** Something that reacts to issue events inside their transaction. */
export interface IssueEventListener {
  /** Reads, outside any transaction, what reacting to the event will need; handed back to onIssueEvent. */
  plan?(repos: Repositories, draft: IssueEventDraft): Promise<unknown>;
  /** `planned` is what plan answered, when the event was planned. */
  onIssueEvent(repos: Repositories, event: IssueEvent, planned?: unknown): Promise<void>;
}

/** Each listener's plan for one event. */
export class IssueEventPlan {
  constructor(
    readonly draft: IssueEventDraft,
    readonly byListener: ReadonlyMap<IssueEventListener, unknown>,
  ) {}

  /** The listener's plan, when it was made for this event. */
  of(listener: IssueEventListener, event: IssueEvent): unknown {
    const { draft } = this;
    const same = draft.kind === event.kind && draft.issue.id === event.issue.id && draft.actor.id === event.actor.id;
    return same ? this.byListener.get(listener) : undefined;
  }
}

export class IssueEvents {
  private readonly listeners: IssueEventListener[];

  constructor(notifier: IssueEventListener, activity: ActivityService) {
    this.listeners = [notifier, new IssueFeedRecorder(activity)];
  }

  /** Adds a listener (webhook deliveries attach here). */
  listen(listener: IssueEventListener): void {
    this.listeners.push(listener);
  }

  /** `repos` outside any transaction. */
  async plan(repos: Repositories, draft: IssueEventDraft): Promise<IssueEventPlan> {
    const byListener = new Map<IssueEventListener, unknown>();
    for (const listener of this.listeners)
      if (listener.plan) byListener.set(listener, await listener.plan(repos, draft));
    return new IssueEventPlan(draft, byListener);
  }

  async emit(repos: Repositories, event: IssueEvent, plan?: IssueEventPlan): Promise<void> {
    for (const listener of this.listeners) await listener.onIssueEvent(repos, event, plan?.of(listener, event));
  }
}

/** create_issue / create_pull_request rows for the feeds (Forgejo: services/feed NewIssue, NewPullRequest). */
class IssueFeedRecorder implements IssueEventListener {
  constructor(private readonly activity: ActivityService) {}

  async onIssueEvent(repos: Repositories, event: IssueEvent): Promise<void> {
    if (event.kind !== 'opened') return;
    const { issue, repo, actor } = event;
    await this.activity.record(
      {
        op: issue.isPull ? 'create_pull_request' : 'create_issue',
        actorId: actor.id,
        repo,
        content: `${issue.index}|${issue.title}`,
      },
      repos.activity,
    );
  }
}
