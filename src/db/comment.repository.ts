// Comments of issues (type comment; the close/reopen records are other types), each query scoped by the
// repository (Forgejo: models/issues/comment.go FindComments).
import { CommentType, type CommentRow, type IssueRow } from './issue.repository.ts';
import type { ListOptions } from '../domain/page.ts';
import type { DbClient, Prisma } from './prisma.ts';

export interface CommentFilter {
  since?: Date;
  before?: Date;
}

function timeWhere(filter: CommentFilter): Prisma.CommentWhereInput {
  return {
    ...(filter.since || filter.before
      ? {
          updatedAt: {
            ...(filter.since ? { gte: filter.since } : {}),
            ...(filter.before ? { lte: filter.before } : {}),
          },
        }
      : {}),
  };
}

const ORDER: Prisma.CommentOrderByWithRelationInput[] = [{ createdAt: 'asc' }, { id: 'asc' }];

export class CommentRepository {
  constructor(private readonly client: DbClient) {}

  listOfIssue(issueId: number, filter: CommentFilter): Promise<CommentRow[]> {
    return this.client.comment.findMany({
      where: { issueId, type: CommentType.comment, ...timeWhere(filter) },
      orderBy: ORDER,
    });
  }

  /** Comments of the repository's issues (`pulls`: of which kinds of issue), with their issues. */
  async listOfRepo(
    repoId: number,
    kinds: { issues: boolean; pulls: boolean },
    filter: CommentFilter,
    page: ListOptions,
  ): Promise<{ items: Array<CommentRow & { issue: IssueRow }>; total: number }> {
    const issue: Prisma.IssueWhereInput =
      kinds.issues && kinds.pulls ? { repoId } : { repoId, isPull: kinds.pulls, ...(kinds.issues ? {} : { id: -1 }) };
    if (kinds.issues && !kinds.pulls) issue.isPull = false;
    const where: Prisma.CommentWhereInput = {
      type: CommentType.comment,
      issue,
      ...timeWhere(filter),
    };
    const [items, total] = await Promise.all([
      this.client.comment.findMany({
        where,
        orderBy: ORDER,
        skip: page.skip,
        take: page.limit,
        include: { issue: true },
      }),
      this.client.comment.count({ where }),
    ]);
    return { items, total };
  }

  findInRepo(repoId: number, id: number): Promise<(CommentRow & { issue: IssueRow }) | null> {
    return this.client.comment.findFirst({ where: { id, issue: { repoId } }, include: { issue: true } });
  }

  update(id: number, content: string): Promise<CommentRow> {
    return this.client.comment.update({ where: { id }, data: { content, updatedAt: new Date() } });
  }

  /** The comment, and one fewer on its issue; run it in a transaction. */
  async delete(comment: CommentRow): Promise<void> {
    await this.client.comment.delete({ where: { id: comment.id } });
    await this.client.issue.update({ where: { id: comment.issueId }, data: { numComments: { decrement: 1 } } });
  }
}
