// Reviews of pull requests (Forgejo: models/issues/review.go), scoped by the pull request's issue.
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export type ReviewRow = Prisma.ReviewModel;

export class ReviewRepository {
  constructor(private readonly client: DbClient) {}

  create(data: Prisma.ReviewUncheckedCreateInput): Promise<ReviewRow> {
    return this.client.review.create({ data });
  }

  /** Submitted reviews (review requests are not reviews yet), oldest first. */
  async list(issueId: number, page: ListOptions): Promise<{ items: ReviewRow[]; total: number }> {
    const where = { issueId, type: { in: [1, 2, 3] } };
    const [items, total] = await Promise.all([
      this.client.review.findMany({ where, orderBy: { id: 'asc' }, skip: page.skip, take: page.limit }),
      this.client.review.count({ where }),
    ]);
    return { items, total };
  }

  find(issueId: number, id: number): Promise<ReviewRow | null> {
    return this.client.review.findFirst({ where: { issueId, id } });
  }

  /** Approvals and requests for changes (types 1 and 3), oldest first. */
  listDecisions(issueId: number): Promise<ReviewRow[]> {
    return this.client.review.findMany({ where: { issueId, type: { in: [1, 3] } }, orderBy: { id: 'asc' } });
  }

  /** Open review requests (type 4) of these pull requests' issues. */
  listRequests(issueIds: readonly number[]): Promise<ReviewRow[]> {
    if (issueIds.length === 0) return Promise.resolve([]);
    return this.client.review.findMany({ where: { issueId: { in: [...issueIds] }, type: 4 }, orderBy: { id: 'asc' } });
  }

  async removeRequests(issueId: number, reviewerIds: readonly number[]): Promise<void> {
    await this.client.review.deleteMany({ where: { issueId, type: 4, reviewerId: { in: [...reviewerIds] } } });
  }
}
