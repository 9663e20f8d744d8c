// Reviews of pull requests: list, get, submit (Forgejo: routers/api/v1/repo/pull_review.go,
// services/pull/review.go). A review counts (official) when its author may write the code; the poster may not
// approve or reject their own pull request.
import type { User } from '../db/entities.ts';
import type { RepoWithPermission } from '../db/repository-details.ts';
import type { ReviewRow } from '../db/review.repository.ts';
import { canWriteCode } from '../domain/access/repo-permission.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { canWriteIssue } from '../domain/access/content-visibility.ts';
import { hasAccess } from '../domain/access/repo-permission.ts';
import type { ListOptions, Page } from '../domain/page.ts';
import { ReviewType, reviewTypeOf } from '../domain/review.ts';
import type { HookEventsService } from './hook-events.service.ts';
import type { PullReadService } from './pull-read.service.ts';
import type { RepoPermissionService } from './repo-permission.service.ts';
import type { ServiceDeps } from './service-deps.ts';

export interface ReviewView {
  review: ReviewRow;
  reviewer: User | null;
}

export class PullReviewService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly reads: PullReadService,
    private readonly permissions: RepoPermissionService,
    private readonly hookEvents: HookEventsService,
  ) {}

  private async withReviewers(reviews: ReviewRow[]): Promise<ReviewView[]> {
    const users = await this.deps.repos.issues.listUsers([...new Set(reviews.map((r) => r.reviewerId))]);
    const byId = new Map(users.map((user) => [user.id, user]));
    return reviews.map((review) => ({ review, reviewer: byId.get(review.reviewerId) ?? null }));
  }

  async list(access: RepoWithPermission, index: number, viewer: User | null, page: ListOptions) {
    const pull = await this.reads.get(access, index, viewer);
    const { items, total } = await this.deps.repos.reviews.list(pull.issue.id, page);
    return { pull, page: { items: await this.withReviewers(items), total } as Page<ReviewView> };
  }

  async get(access: RepoWithPermission, index: number, id: number, viewer: User | null) {
    const pull = await this.reads.get(access, index, viewer);
    const review = id > 0 && id <= 2 ** 31 - 1 ? await this.deps.repos.reviews.find(pull.issue.id, id) : null;
    if (!review || review.type === ReviewType.request) throw new NotFoundError();
    return { pull, review: (await this.withReviewers([review]))[0] };
  }

  async create(
    access: RepoWithPermission,
    index: number,
    doer: User,
    input: { event?: string; body?: string; commit_id?: string },
  ) {
    const pull = await this.reads.get(access, index, doer);
    const type = reviewTypeOf(input.event);
    if (type === null) throw new ValidationError(`[Event]: unsupported review event: ${input.event}`);
    const body = input.body ?? '';
    if (type !== ReviewType.approve && body.trim() === '')
      throw new ValidationError('review event COMMENT and REQUEST_CHANGES need a body');
    if (type !== ReviewType.comment && pull.issue.posterId === doer.id)
      throw new ValidationError('approving or rejecting your own pull request is not allowed');
    const permission = await this.permissions.forRepo(doer, access.repo);
    // A review answers the request for it.
    await this.deps.repos.reviews.removeRequests(pull.issue.id, [doer.id]);
    const review = await this.deps.transactions.run(async (repos) => {
      const row = await repos.reviews.create({
        type,
        reviewerId: doer.id,
        issueId: pull.issue.id,
        content: body,
        commitId: input.commit_id || pull.pull.headCommitId,
        official: type !== ReviewType.comment && (doer.isAdmin || canWriteCode(permission)),
      });
      await this.hookEvents.pullRequestReview(repos, {
        repo: access.repo,
        reviewer: doer,
        pullRequest: pull,
        baseSha: pull.baseSha,
        reviewType: type,
        content: body,
      });
      return row;
    });
    return { pull, review: { review, reviewer: doer } };
  }

  /** The users named, who must exist and see the repository; the doer must be the poster or a writer of pulls. */
  private async reviewersFor(access: RepoWithPermission, index: number, doer: User, names: readonly string[]) {
    const pull = await this.reads.get(access, index, doer);
    // Per pull request, so not a guard's: its poster may ask for reviews without write access.
    if (pull.issue.posterId !== doer.id && !canWriteIssue(access.permission, true, doer.isAdmin))
      throw new ForbiddenError('only the poster or a writer of pull requests may ask for reviews');
    const lower = [...new Set(names.map((name) => name.toLowerCase()))];
    const users = await this.deps.repos.users.listByLowerNames(lower);
    const missing = lower.find((name) => !users.some((user) => user.lowerName === name));
    if (missing) throw new ValidationError(`user does not exist [name: ${missing}]`);
    for (const user of users) {
      if (!hasAccess(await this.permissions.forRepo(user, access.repo)))
        throw new ValidationError(`reviewer cannot see the repository [name: ${user.name}]`);
    }
    return { pull, users };
  }

  /** Asks the users for a review (Forgejo: CreateReviewRequests); those asked already are asked once. */
  async request(access: RepoWithPermission, index: number, doer: User, names: readonly string[]) {
    const { pull, users } = await this.reviewersFor(access, index, doer, names);
    const asked = new Set((await this.deps.repos.reviews.listRequests([pull.issue.id])).map((r) => r.reviewerId));
    const views: ReviewView[] = [];
    for (const user of users) {
      if (asked.has(user.id)) continue;
      const review = await this.deps.repos.reviews.create({
        type: ReviewType.request,
        reviewerId: user.id,
        issueId: pull.issue.id,
        commitId: pull.pull.headCommitId,
      });
      views.push({ review, reviewer: user });
    }
    return { pull, views };
  }

  async unrequest(access: RepoWithPermission, index: number, doer: User, names: readonly string[]): Promise<void> {
    const { pull, users } = await this.reviewersFor(access, index, doer, names);
    await this.deps.repos.reviews.removeRequests(
      pull.issue.id,
      users.map((user) => user.id),
    );
  }
}
