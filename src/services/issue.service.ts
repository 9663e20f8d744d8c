// Issues of a repository: open, read, edit, comment (Forgejo: routers/api/v1/repo/issue.go, services/issue).
// Every change runs in one transaction with its event (src/services/issue-events.ts), so notifications and feed
// rows are written with it. Repository, label and milestone counters move in the same transaction.
import type { CommentRow, IssueDetails, IssueRow } from '../db/issue.repository.ts';
import { CommentType } from '../db/issue.repository.ts';
import type { User } from '../db/entities.ts';
import type { Repositories } from '../db/repositories.ts';
import { UnitType } from '../domain/access/modes.ts';
import type * as IssueMentions from '../render/issue-mentions.ts';
import { isOrganization } from '../domain/access/owner-visibility.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import { canReadIssue, canWriteIssue } from '../domain/access/content-visibility.ts';
import { canWriteUnit } from '../domain/access/repo-permission.ts';
import {
  ForbiddenError,
  NotFoundError,
  PreconditionFailedError,
  RepoArchivedError,
  ValidationError,
} from '../domain/errors.ts';
import type { IssueEvents, IssueEventKind } from './issue-events.ts';
import type { RepoPermissionService, RepoWithOwner } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

/** Titles of issues and pull requests, on creation and on edit (Forgejo's MaxSize(255) binding). */
const MAX_TITLE_LENGTH = 255;

function checkTitleLength(title: string): void {
  if (title.length > MAX_TITLE_LENGTH) throw new ValidationError('[Title]: MaxSize');
}

export interface NewIssue {
  title: string;
  body?: string;
  labels?: number[];
  assignee?: string;
  assignees?: string[];
  milestone?: number;
  closed?: boolean;
  due_date?: string;
}

export interface IssueChanges {
  title?: string;
  body?: string;
  state?: string;
  assignee?: string;
  assignees?: string[];
  milestone?: number;
}

export class IssueService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly permissions: RepoPermissionService,
    private readonly events: IssueEvents,
  ) {}

  // ---- reading ----

  /** The issue of a repository the caller can read (an issue of a unit the caller cannot read is missing). */
  async get(access: RepoWithPermission, index: number, doer: User | null): Promise<IssueDetails> {
    const issue = await this.findReadable(access, index, doer);
    return (await this.details([issue]))[0];
  }

  async findReadable(access: RepoWithPermission, index: number, doer: User | null): Promise<IssueRow> {
    const issue =
      index > 0 && index <= 2 ** 31 - 1 ? await this.deps.repos.issues.findByIndex(access.repo.id, index) : null;
    if (!issue) throw new NotFoundError();
    // Per issue, so not a guard's: whether it is a pull request decides the unit the caller must read.
    if (!canReadIssue(access.permission, issue.isPull, doer?.isAdmin === true)) throw new NotFoundError();
    return issue;
  }

  /** Everything the issue records show, for many issues in a fixed number of queries. */
  async details(issues: readonly IssueRow[], repos: Repositories = this.deps.repos): Promise<IssueDetails[]> {
    if (issues.length === 0) return [];
    const ids = issues.map((issue) => issue.id);
    const [labels, assignees, milestones, posters, repoRows, pulls] = await Promise.all([
      repos.issues.labelsOf(ids),
      repos.issues.assigneesOf(ids),
      repos.issues.listMilestones([...new Set(issues.map((i) => i.milestoneId).filter((id) => id > 0))]),
      repos.issues.listUsers([...new Set(issues.map((i) => i.posterId))]),
      repos.issues.listRepos([...new Set(issues.map((i) => i.repoId))]),
      repos.issues.listPulls(issues.filter((i) => i.isPull).map((i) => i.id)),
    ]);
    const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((row) => [row.id, row]));
    const milestoneById = byId(milestones);
    const posterById = byId(posters);
    const repoById = byId(repoRows);
    const pullByIssue = new Map(pulls.map((pull) => [pull.issueId, pull]));
    return issues.map((issue) => ({
      issue,
      repo: repoById.get(issue.repoId)!,
      poster: posterById.get(issue.posterId) ?? null,
      labels: labels.get(issue.id) ?? [],
      assignees: assignees.get(issue.id) ?? [],
      milestone: milestoneById.get(issue.milestoneId) ?? null,
      pull: pullByIssue.get(issue.id) ?? null,
    }));
  }

  // ---- opening ----

  async create(access: RepoWithPermission, doer: User, input: NewIssue): Promise<IssueDetails> {
    const issue = await this.deps.transactions.run(async (repos) => {
      const prepared = await this.prepareNew(repos, access, doer, input, false);
      const issue = await this.insert(repos, access.repo, doer, prepared, false);
      return input.closed ? (await this.changeState(repos, access.repo, doer, issue, true)).issue : issue;
    });
    return (await this.details([issue]))[0];
  }

  /**
   * The checks and resolved fields of a new issue or pull request. Labels, milestone and assignees need write
   * access to the unit and are silently dropped without it, as in Forgejo.
   */
  async prepareNew(
    repos: Repositories,
    access: RepoWithPermission,
    doer: User,
    input: NewIssue,
    isPull: boolean,
  ): Promise<PreparedIssue> {
    const { repo } = access;
    if (repo.isArchived) throw new RepoArchivedError(`repo is archived: ${repo.ownerName}/${repo.name}`);
    if (input.title.trim() === '') throw new ValidationError('[Title]: Required');
    checkTitleLength(input.title);
    if (await repos.issueAudience.isBlocked(repo.ownerId, doer.id))
      throw new ForbiddenError('user is blocked by the repository owner');
    const writer = canWriteIssue(access.permission, isPull, doer.isAdmin);
    let labelIds: number[] = [];
    let milestoneId = 0;
    let assignees: User[] = [];
    if (writer) {
      const wanted = [...new Set(input.labels ?? [])].filter((id) => id > 0 && id <= 2 ** 31 - 1);
      const labels = await repos.issues.listUsableLabels(
        repo.id,
        isOrganization(repo.owner) ? repo.ownerId : null,
        wanted,
      );
      if (labels.length !== wanted.length) {
        const found = new Set(labels.map((l) => l.id));
        throw new ValidationError(`label does not exist [label_id: ${wanted.find((id) => !found.has(id))}]`);
      }
      labelIds = labels.map((l) => l.id);
      if (input.milestone && input.milestone > 0) {
        const milestone =
          input.milestone <= 2 ** 31 - 1 ? await repos.issues.findMilestone(repo.id, input.milestone) : null;
        if (!milestone)
          throw new ValidationError(`milestone does not exist [id: ${input.milestone}, repo_id: ${repo.id}]`);
        milestoneId = milestone.id;
      }
      assignees = await this.assignable(repos, access.repo, input.assignee, input.assignees);
    }
    const deadline = writer && input.due_date ? new Date(input.due_date) : null;
    return { title: input.title, body: input.body ?? '', labelIds, milestoneId, assignees, deadline };
  }

  /** Assignees by name: every name must exist and be able to read the repository (Forgejo: CanBeAssigned). */
  private async assignable(
    repos: Repositories,
    repo: RepoWithOwner,
    one: string | undefined,
    many: string[] | undefined,
  ): Promise<User[]> {
    const names = [
      ...new Set([...(one ? [one] : []), ...(many ?? [])].map((n) => n.trim().toLowerCase()).filter(Boolean)),
    ];
    if (names.length === 0) return [];
    const users = await repos.users.listByLowerNames(names);
    const missing = names.find((name) => !users.some((u) => u.lowerName === name));
    if (missing) throw new ValidationError(`Assignee does not exist: [name: ${missing}]`);
    for (const user of users) {
      const permission = await this.permissions.forRepo(user, repo, repos.repoAccess);
      if (
        isOrganization(user) ||
        ![UnitType.code, UnitType.issues, UnitType.pulls].some((unit) => canWriteUnit(permission, unit))
      ) {
        throw new ValidationError(`user does not have access to repo [user_id: ${user.id}, repo_name: ${repo.name}]`);
      }
    }
    return users;
  }

  /** Writes a prepared issue with its links and counters, and emits `opened`. */
  async insert(
    repos: Repositories,
    repo: RepoWithOwner,
    doer: User,
    prepared: PreparedIssue,
    isPull: boolean,
  ): Promise<IssueRow> {
    const now = new Date();
    const issue = await repos.issues.create({
      repoId: repo.id,
      index: await repos.issues.nextIndex(repo.id),
      posterId: doer.id,
      title: prepared.title,
      content: prepared.body,
      isPull,
      milestoneId: prepared.milestoneId,
      deadlineAt: prepared.deadline,
      createdAt: now,
      updatedAt: now,
    });
    await repos.issues.addLabels(issue.id, prepared.labelIds);
    await repos.issues.addAssignees(
      issue.id,
      prepared.assignees.map((u) => u.id),
    );
    await repos.issues.countIn(repo.id, isPull, { all: 1 });
    await repos.issues.countLabels(prepared.labelIds, { all: 1 });
    await repos.issues.countMilestone(prepared.milestoneId, { all: 1 });
    const mentionedIds = await this.mention(repos, issue, prepared.body);
    await this.events.emit(repos, {
      kind: 'opened',
      actor: doer,
      repo,
      issue,
      mentionedIds,
      assignedIds: prepared.assignees.map((u) => u.id),
    });
    return issue;
  }

  /** Records who a text mentions on the issue; answers their ids. */
  private async mention(repos: Repositories, issue: IssueRow, text: string): Promise<number[]> {
    // The markdown parser is loaded on the first issue text, not at start.
    const names = (require('../render/issue-mentions.ts') as typeof IssueMentions).mentionedNames(text);
    if (names.length === 0) return [];
    const users = (await repos.users.listByLowerNames(names)).filter((user) => !isOrganization(user));
    const ids = users.map((user) => user.id);
    await repos.issues.addMentions(issue.id, ids);
    return ids;
  }

  // ---- changing ----

  /** Title, body, state, assignees and milestone (Forgejo answers 201 with the issue). */
  async edit(access: RepoWithPermission, index: number, doer: User, changes: IssueChanges): Promise<IssueDetails> {
    const current = await this.findReadable(access, index, doer);
    const writer = canWriteIssue(access.permission, current.isPull, doer.isAdmin);
    // Per issue, so not a guard's: its poster may edit it without write access.
    if (current.posterId !== doer.id && !writer)
      throw new ForbiddenError('user should be the poster or have write access to the issues');
    if (access.repo.isArchived)
      throw new RepoArchivedError(`repo is archived: ${access.repo.ownerName}/${access.repo.name}`);
    if (changes.title) checkTitleLength(changes.title);
    const issue = await this.deps.transactions.run(async (repos) => {
      let issue = current;
      const update: { title?: string; content?: string } = {};
      if (changes.title) update.title = changes.title;
      if (changes.body !== undefined) update.content = changes.body;
      let mentionedIds: number[] = [];
      if (Object.keys(update).length > 0) {
        issue = await repos.issues.update(issue.id, { ...update, updatedAt: new Date() });
        if (changes.body !== undefined) mentionedIds = await this.mention(repos, issue, changes.body);
      }
      let assignedIds: number[] = [];
      let unassignedIds: number[] = [];
      if (writer && (changes.assignees !== undefined || changes.assignee !== undefined)) {
        const before = new Set(await repos.issues.assigneeIds(issue.id));
        const assignees = await this.assignable(repos, access.repo, changes.assignee, changes.assignees);
        await repos.issues.replaceAssignees(
          issue.id,
          assignees.map((u) => u.id),
        );
        assignedIds = assignees.map((u) => u.id).filter((id) => !before.has(id));
        unassignedIds = [...before].filter((id) => !assignees.some((u) => u.id === id));
      }
      if (writer && changes.milestone !== undefined && changes.milestone !== issue.milestoneId) {
        const milestone =
          changes.milestone > 0 ? await repos.issues.findMilestone(access.repo.id, changes.milestone) : null;
        if (changes.milestone > 0 && !milestone)
          throw new ValidationError(`milestone does not exist [id: ${changes.milestone}]`);
        const closed = issue.isClosed ? 1 : 0;
        await repos.issues.countMilestone(issue.milestoneId, { all: -1, closed: -closed });
        await repos.issues.countMilestone(milestone?.id ?? 0, { all: 1, closed });
        issue = await repos.issues.update(issue.id, { milestoneId: milestone?.id ?? 0 });
      }
      if (Object.keys(update).length > 0) {
        const edits = {
          ...(update.title !== undefined && update.title !== current.title ? { title: { from: current.title } } : {}),
          ...(update.content !== undefined && update.content !== current.content
            ? { body: { from: current.content } }
            : {}),
        };
        const edited = { kind: 'edited', mentionedIds, assignedIds, changes: edits } as const;
        await this.events.emit(repos, { ...edited, actor: doer, repo: access.repo, issue });
      }
      if (assignedIds.length + unassignedIds.length > 0) {
        const assigned = { kind: 'assigned', mentionedIds: [], assignedIds, unassignedIds } as const;
        await this.events.emit(repos, { ...assigned, actor: doer, repo: access.repo, issue });
      }
      if (changes.state !== undefined) {
        const close = changes.state === 'closed';
        if (close !== issue.isClosed) {
          if (issue.isPull) {
            const [pull] = await repos.issues.listPulls([issue.id]);
            if (pull?.hasMerged)
              throw new PreconditionFailedError('cannot change state of this pull request, it was already merged');
          }
          issue = (await this.changeState(repos, access.repo, doer, issue, close)).issue;
        }
      }
      return issue;
    });
    return (await this.details([issue]))[0];
  }

  /** Closes or reopens: the close/reopen record, counters, and the event. */
  async changeState(
    repos: Repositories,
    repo: RepoWithOwner,
    doer: User,
    issue: IssueRow,
    close: boolean,
  ): Promise<{ issue: IssueRow; comment: CommentRow }> {
    const now = new Date();
    const updated = await repos.issues.update(issue.id, {
      isClosed: close,
      closedAt: close ? now : null,
      updatedAt: now,
    });
    const delta = { closed: close ? 1 : -1 };
    await repos.issues.countIn(repo.id, issue.isPull, delta);
    await repos.issues.countLabels(
      (await repos.issues.labelsOf([issue.id])).get(issue.id)?.map((l) => l.id) ?? [],
      delta,
    );
    await repos.issues.countMilestone(issue.milestoneId, delta);
    const comment = await repos.issues.addComment(updated, doer.id, close ? CommentType.close : CommentType.reopen, '');
    const kind: IssueEventKind = close ? 'closed' : 'reopened';
    await this.events.emit(repos, {
      kind,
      actor: doer,
      repo,
      issue: updated,
      comment,
      mentionedIds: [],
      assignedIds: [],
    });
    return { issue: { ...updated, updatedAt: comment.createdAt }, comment };
  }

  // ---- comments ----

  async comment(
    access: RepoWithPermission,
    index: number,
    doer: User,
    body: string,
  ): Promise<{ comment: CommentRow; issue: IssueRow; repo: RepoWithOwner }> {
    const current = await this.findReadable(access, index, doer);
    const { repo } = access;
    if (repo.isArchived) throw new RepoArchivedError(`repo is archived: ${repo.ownerName}/${repo.name}`);
    if (!doer.isAdmin && (await this.blocksCommenter(repo, current, doer)))
      throw new ForbiddenError('user is blocked by the issue poster or the repository owner');
    // Bots comment often: who hears of it is read before the transaction, by prepared statements.
    const plan = await this.events.plan(this.deps.repos, { kind: 'commented', actor: doer, repo, issue: current });
    const result = await this.deps.transactions.run(async (repos) => {
      const comment = await repos.issues.addComment(current, doer.id, CommentType.comment, body);
      const issue = { ...current, updatedAt: comment.createdAt, numComments: current.numComments + 1 };
      const mentionedIds = await this.mention(repos, issue, body);
      await this.events.emit(
        repos,
        { kind: 'commented', actor: doer, repo, issue, comment, mentionedIds, assignedIds: [] },
        plan,
      );
      return { comment, issue };
    });
    return { ...result, repo };
  }

  /** Whether the repository's owner or the issue's poster blocks the commenter: committed rows, read before writing. */
  private async blocksCommenter(repo: RepoWithOwner, issue: IssueRow, doer: User): Promise<boolean> {
    return (await this.deps.repos.issueAudience.blockerIds(doer.id, [repo.ownerId, issue.posterId])).length > 0;
  }
}

export interface PreparedIssue {
  title: string;
  body: string;
  labelIds: number[];
  milestoneId: number;
  assignees: User[];
  deadline: Date | null;
}
