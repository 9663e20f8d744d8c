// Comments of issues and pull requests: list, get, edit, delete (Forgejo: routers/api/v1/repo/issue_comment.go).
// Edits and deletions are announced to webhooks (issue_comment, or pull_request_comment) in their transaction.
import type { User } from '../db/entities.ts';
import type { CommentRow, IssueRow } from '../db/issue.repository.ts';
import { CommentType } from '../db/issue.repository.ts';
import type { Repositories } from '../db/repositories.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import { canReadIssue, canWriteIssue } from '../domain/access/content-visibility.ts';
import { canReadUnit } from '../domain/access/repo-permission.ts';
import { UnitType } from '../domain/access/modes.ts';
import { ForbiddenError, NotFoundError, RepoArchivedError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { timeBounds } from '../domain/time-bounds.ts';
import { branchCommit } from '../infra/git/compare.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { IssueService } from './issue.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface CommentView {
  comment: CommentRow;
  issue: IssueRow;
  poster: User | null;
}

const MAX_ID = 2 ** 31 - 1;

function bounds(since?: string, before?: string) {
  try {
    const { from, to } = timeBounds(since, before);
    return { since: from, before: to };
  } catch {
    throw new ValidationError('[since/before]: not an RFC 3339 time');
  }
}

export class IssueCommentService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly hookEvents: HookEventsService,
  ) {}

  private async withPosters(rows: Array<{ comment: CommentRow; issue: IssueRow }>): Promise<CommentView[]> {
    const posters = await this.deps.repos.issues.listUsers([...new Set(rows.map((r) => r.comment.posterId))]);
    const byId = new Map(posters.map((user) => [user.id, user]));
    return rows.map((row) => ({ ...row, poster: byId.get(row.comment.posterId) ?? null }));
  }

  async listOfIssue(
    access: RepoWithPermission,
    index: number,
    viewer: User | null,
    since?: string,
    before?: string,
  ): Promise<CommentView[]> {
    const issue = await this.issues.findReadable(access, index, viewer);
    const comments = await this.deps.repos.comments.listOfIssue(issue.id, bounds(since, before));
    return this.withPosters(comments.map((comment) => ({ comment, issue })));
  }

  /** Comments of the issues and pull requests the caller may read (per unit, so not a guard's). */
  async listOfRepo(
    access: RepoWithPermission,
    viewer: User | null,
    query: { since?: string; before?: string },
    page: ListOptions,
  ): Promise<Page<CommentView>> {
    const admin = viewer?.isAdmin === true;
    const kinds = {
      issues: admin || canReadUnit(access.permission, UnitType.issues),
      pulls: admin || canReadUnit(access.permission, UnitType.pulls),
    };
    const found = await this.deps.repos.comments.listOfRepo(
      access.repo.id,
      kinds,
      bounds(query.since, query.before),
      page,
    );
    return {
      items: await this.withPosters(found.items.map(({ issue, ...comment }) => ({ comment, issue }))),
      total: found.total,
    };
  }

  /** The comment with its issue; null when the id names another kind of record (Forgejo answers 204). */
  async get(access: RepoWithPermission, id: number, viewer: User | null): Promise<CommentView | null> {
    const found = id > 0 && id <= MAX_ID ? await this.deps.repos.comments.findInRepo(access.repo.id, id) : null;
    // Per comment, so not a guard's: the unit of its issue decides.
    if (!found || !canReadIssue(access.permission, found.issue.isPull, viewer?.isAdmin === true))
      throw new NotFoundError();
    const { issue, ...comment } = found;
    if (comment.type !== CommentType.comment) return null;
    return (await this.withPosters([{ comment, issue }]))[0];
  }

  /** Its poster, or a writer of its issue's unit (per comment, so not a guard's). */
  private async changeable(access: RepoWithPermission, id: number, doer: User): Promise<CommentView | null> {
    const view = await this.get(access, id, doer);
    if (!view) return null;
    if (view.comment.posterId !== doer.id && !canWriteIssue(access.permission, view.issue.isPull, doer.isAdmin))
      throw new ForbiddenError('user should be the poster or have write access to the issues');
    const { repo } = access;
    if (repo.isArchived) throw new RepoArchivedError(`repo is archived: ${repo.ownerName}/${repo.name}`);
    return view;
  }

  private async announce(
    repos: Repositories,
    access: RepoWithPermission,
    doer: User,
    view: CommentView,
    action: 'edited' | 'deleted',
    from?: string,
  ): Promise<void> {
    const [details] = await this.issues.details([view.issue], repos);
    const { repo } = access;
    const dir = this.deps.stores.repositories.directory(repo.ownerName, repo.name);
    const baseSha = details.pull ? ((await branchCommit(dir, details.pull.baseBranch)) ?? '') : '';
    await this.hookEvents.issueComment(repos, {
      repo,
      sender: doer,
      issue: details,
      comment: { row: view.comment, poster: view.poster },
      baseSha,
      action,
      ...(from !== undefined ? { changes: { body: { from } } } : {}),
    });
  }

  async edit(access: RepoWithPermission, id: number, doer: User, body: string): Promise<CommentView | null> {
    const view = await this.changeable(access, id, doer);
    if (!view) return null;
    const comment = await this.deps.transactions.run(async (repos) => {
      const updated = await repos.comments.update(view.comment.id, body);
      if (updated.content !== view.comment.content)
        await this.announce(repos, access, doer, { ...view, comment: updated }, 'edited', view.comment.content);
      return updated;
    });
    return { ...view, comment };
  }

  /** True when a comment was deleted; false when the id names another kind of record. */
  async delete(access: RepoWithPermission, id: number, doer: User): Promise<boolean> {
    const view = await this.changeable(access, id, doer);
    if (!view) return false;
    await this.deps.transactions.run(async (repos) => {
      await repos.comments.delete(view.comment);
      await this.announce(repos, access, doer, view, 'deleted');
    });
    return true;
  }
}
