// Reactions to issues and comments (Forgejo: routers/api/v1/repo/issue_reaction.go): anyone who reads the issue
// lists them; signed-in readers add and remove their own, among the allowed ones.
import type { User } from '../db/entities.ts';
import type { ReactionRow, ReactionTarget } from '../db/reaction.repository.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { isAllowedReaction } from '../domain/reaction.ts';
import type { IssueCommentService } from './issue-comment.service.ts';
import type { IssueService } from './issue.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface ReactionView {
  reaction: ReactionRow;
  user: User | null;
}

export type ReactionOn = { index: number } | { commentId: number };

export class ReactionService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly issues: IssueService,
    private readonly comments: IssueCommentService,
  ) {}

  private async target(access: RepoWithPermission, on: ReactionOn, viewer: User | null): Promise<ReactionTarget> {
    if ('index' in on) {
      const issue = await this.issues.findReadable(access, on.index, viewer);
      return { issueId: issue.id, commentId: 0 };
    }
    const found = await this.comments.get(access, on.commentId, viewer);
    if (!found) throw new NotFoundError();
    return { issueId: found.issue.id, commentId: found.comment.id };
  }

  private async withUsers(rows: ReactionRow[]): Promise<ReactionView[]> {
    const users = await this.deps.repos.issues.listUsers([...new Set(rows.map((r) => r.userId))]);
    const byId = new Map(users.map((user) => [user.id, user]));
    return rows.map((reaction) => ({ reaction, user: byId.get(reaction.userId) ?? null }));
  }

  async list(
    access: RepoWithPermission,
    on: ReactionOn,
    viewer: User | null,
    page?: ListOptions,
  ): Promise<Page<ReactionView>> {
    const target = await this.target(access, on, viewer);
    const { items, total } = await this.deps.repos.reactions.list(target, page);
    return { items: await this.withUsers(items), total };
  }

  private checked(access: RepoWithPermission, content: string): string {
    if (!isAllowedReaction(content)) throw new ValidationError(`'${content}' is not an allowed reaction`);
    if (access.repo.isArchived) throw new ForbiddenError('the repository is archived');
    return content;
  }

  /** The reaction, and whether it is new (201) or was there already (200). */
  async add(
    access: RepoWithPermission,
    on: ReactionOn,
    doer: User,
    content: string,
  ): Promise<{ view: ReactionView; created: boolean }> {
    const type = this.checked(access, content);
    const target = await this.target(access, on, doer);
    const { reactions } = this.deps.repos;
    const existing = await reactions.find(target, doer.id, type);
    if (existing) return { view: { reaction: existing, user: doer }, created: false };
    return { view: { reaction: await reactions.create(target, doer.id, type), user: doer }, created: true };
  }

  async remove(access: RepoWithPermission, on: ReactionOn, doer: User, content: string): Promise<void> {
    const type = this.checked(access, content);
    const target = await this.target(access, on, doer);
    await this.deps.repos.reactions.remove(target, doer.id, type);
  }
}
